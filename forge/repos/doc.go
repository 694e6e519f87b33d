// Package repos owns repositories: creation (SHA-1 or SHA-256, with initial
// files), settings (EditRepoOption, each field applied alone), archiving,
// deletion, permissions (owners, collaborators, site administrators),
// branches and branch protection, file contents written as real commits,
// commits and trees, subscriptions (watch) and stars, topics.
//
// repos depends on forge and the standard library. Its storage is the Store
// declared here and its git repositories the Git interface; it never
// imports net/http, database/sql, drivers or go-git.
package repos
