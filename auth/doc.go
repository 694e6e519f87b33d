// Package auth owns accounts and credentials: users (create, edit, delete,
// list), password hashing (argon2id), personal access tokens (random,
// stored as SHA-256 digests, scoped), the site-administrator rules (the last
// administrator stays) and Authenticate, which turns request credentials into
// a forge.Actor that may act.
//
// auth is a security boundary of its own: every method that acts for an
// actor checks it (account state, token scope, site-administrator powers),
// so a Go program calling the service gets the protections an HTTP client
// gets. Password hashing is bounded: OWASP's argon2id parameters (19 MiB,
// t=2, p=1), at most Config.MaxConcurrentHashes computations at once, and a
// throttle that counts attempts before their hash.
//
// auth depends on forge and the standard library (plus golang.org/x/crypto).
// It never imports net/http, database/sql, drivers or go-git: storage is the
// Store interface declared here, implemented by storage/sqlite and others.
package auth
