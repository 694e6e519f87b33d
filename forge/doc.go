// Package forge is Hearth's kernel: identifiers, the core entity types shared
// by every domain (users first), the acting user ([Actor]), the [Clock], list
// paging ([ListOptions]) and the error categories every layer speaks
// ([ErrNotFound], [ErrConflict], …).
//
// forge imports the standard library only. Domain packages (auth, quota,
// issues, mirror, forge/...) build on it; storage backends implement the
// stores those domains declare; httpapi maps forge errors to HTTP.
//
// # The published API is the boundary
//
// A Go caller gets every protection an HTTP caller gets: each exported
// method of a domain service (a type hiding a store, directly or through
// another service: Service, Dispatcher, Scheduler) takes the acting
// [Actor] and checks it (account state, token scope, permission) itself.
// What other domains, the outbox's consumers and the host's transports
// call with no actor of their own (the trusted ports: whom to notify, the
// quota of a push already allowed, a team lookup after the repository was
// checked, the consequences of a ref move) is on the domain's Ports
// value, which only its NewWithPorts returns, for the composition root
// (forge/site) to hand to the adapter that needs it; a Ports checks
// nothing, and forge/site gives none out.
//
// A value that carries one actor's resolved access (repos.Resolved, made
// only by methods that take the actor and check it) acts with that actor:
// its methods check each operation's scope and rules again, and it is
// resolved anew once older than a workflow takes.
//
// A store reader (issues.RepoCounter, mirror.PullMirrorReader), made only
// from its domain's Store, is a trusted read for the composition root to
// hand to another domain: whoever holds the store reads it anyway.
//
// The host operations, which act with no actor and stay on the services,
// are these and no others (TestPublishedMethodsTakeAnActor reads this
// list and fails on an exported service method that neither takes an
// Actor nor is listed here):
//
//   - auth.Service.Authenticate: makes the actor from a credential (sign-in, throttled).
//   - auth.Service.AuthenticateProxy: makes the actor from the name a reverse proxy the host trusts asserts.
//   - auth.Service.RecoverTOTP: a sign-in step: the scratch code is the credential, throttled as a password.
//   - auth.Service.EnsureAdmin: the host's first administrator at start-up; nothing when one exists.
//   - auth.Service.ResetPassword: the host's console recovery of an account (forged -reset-admin-password).
//   - repos.Service.Recover: start-up: finishes the creations and deletions a crash interrupted.
//   - repos.Service.OpenAvatar: avatars are public by key, as Forgejo serves /repo-avatars/{key}.
//   - orgs.Service.OpenAvatar: avatars are public by key, as Forgejo serves /avatars/{key}.
//   - auth.Service.OpenAvatar: user avatars are public by key, as Forgejo serves /avatars/{key}.
//   - issues.Service.Run: worker: the pull request checker.
//   - issues.Service.CheckPending: the checker's queue run in the caller's goroutine (Run's step).
//   - hooks.Service.Run: worker: webhook delivery.
//   - hooks.Service.DeliverDue: the webhook tasks due now (Run's step).
//   - hooks.Dispatcher.Run: worker: the outbox dispatcher.
//   - hooks.Dispatcher.DispatchOnce: the outbox events pending now (Run's step).
//   - hooks.Dispatcher.Drain: the outbox run to rest in the caller's goroutine (tools, tests).
//   - hooks.Dispatcher.Prune: the outbox's processed events removed (Run's step).
//   - hooks.Dispatcher.Signal: wakes the dispatcher.
//   - hooks.Dispatcher.Handle: wiring: registers an event kind's handler before Run.
//   - hooks.Dispatcher.Consume: wiring: registers an event kind's consumer before Run.
//   - mirror.Scheduler.Run: worker: mirror syncs when due.
//   - artifacts.Service.Run: worker: Actions artifacts expired.
//   - artifacts.Service.Expire: the artifacts expired now (Run's step).
//   - quota.Service.Enabled: configuration: whether quota is on.
//   - quota.Service.Config: configuration: the [quota] settings.
//   - mirror.Service.Enabled: configuration: whether mirrors are on.
//   - federation.Service.Enabled: configuration: whether federation is on.
package forge
