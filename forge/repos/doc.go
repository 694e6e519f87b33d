// Package repos owns repositories: creation (SHA-1 or SHA-256, with initial
// files), settings (EditRepoOption, each field applied alone), archiving,
// deletion, permissions (owners, collaborators, site administrators),
// branches and branch protection, file contents written as real commits,
// commits and trees, subscriptions (watch) and stars, topics.
//
// The Service is the security boundary: every public method checks the
// actor's account state and token scope itself (forge.Actor.Check: reads
// need read:repository, writes write:repository, creating a user's
// repository write:user and write:repository, deleting one write:user),
// then the actor's permission on the repository. Repositories an actor may
// not read, including private ones for public-only tokens, answer exactly
// like missing ones.
//
// Creation and deletion are recoverable: a repository row is written as
// forge.RepoCreating before its git directory, and marked forge.RepoDeleting
// before its directory is removed. Hosts call Service.Recover once at start
// to finish what a crash interrupted.
//
// repos depends on forge and the standard library. Its storage is the Store
// declared here and its git repositories the Git interface; it never
// imports net/http, database/sql, drivers or go-git.
package repos
