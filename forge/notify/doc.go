// Package notify owns notification threads: one per user and issue (or
// pull request), created or brought back to unread when someone else acts
// on the issue, and read, marked and pinned by their user (Forgejo's
// models/activities notification and services/uinotification).
//
// It is a package of its own rather than a part of package issues because
// its rules are about people, not issues: who watches a repository (forge/repos),
// who takes part in an issue (issues), and who may still read a repository
// (forge/repos again) decide who gets a thread; future subjects (commits,
// repositories) fit without growing the issue tracker. It learns of events
// through Ports.Notify, which the composition root calls as the outbox
// consumer of issue events (forge/site), and asks the other domains
// through the small interfaces Repos, Watchers and Participants, declared
// here with forge types only.
//
// It imports forge and the standard library only: never net/http,
// database/sql, storage drivers, go-git or another domain package.
package notify
