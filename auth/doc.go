// Package auth owns accounts and credentials: users (create, edit, delete,
// list), password hashing (argon2id), personal access tokens (random,
// stored as SHA-256 digests, scoped), the site-administrator rules (the last
// administrator stays) and Authenticate, which turns request credentials into
// a forge.Actor.
//
// auth depends on forge and the standard library (plus golang.org/x/crypto).
// It never imports net/http, database/sql, drivers or go-git: storage is the
// Store interface declared here, implemented by storage/sqlite and others.
package auth
