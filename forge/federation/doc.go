// Package federation is Forgejo's ActivityPub surface as v15 serves it:
// the NodeInfo document, the actor documents (the instance actor, a person
// for a user, a repository), their outboxes, and the inboxes that accept
// activities signed by a remote actor's key.
//
// Federation is off unless the host turns it on (Forgejo's
// [federation] ENABLED, default false): while off, every operation is
// absent and answers forge.ErrNotFound, as Forgejo, which registers none
// of the routes. Private accounts and repositories, and repositories of
// accounts that are not public, are never described: they are
// forge.ErrNotFound like unknown ids.
//
// The package depends on no transport: HTTP signatures are checked by the
// API, which hands the domain a Signed request (its key id and a check of
// the signature against a public key); remote keys are found through the
// KeyResolver port the host gives.
package federation
