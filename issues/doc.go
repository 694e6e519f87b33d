// Package issues is Hearth's issue tracker: issues (and, later, pull
// requests, which are issues with IsPull set), comments, labels of
// repositories and organisations, issue labels, milestones, attachments
// of issues and comments, and the search across repositories, with
// Forgejo v15.0.3's rules. The rules are pure functions over values, each
// in its own file with a table test: CheckUpdatedAt (the updated_at
// rules), ExclusiveScope, ApplyExclusive and DedupExclusive (exclusive
// label scopes), NormalizeColor (label colours), MilestoneDelta (milestone
// counters), EndOfDay (due dates).
//
// Service is the security boundary: every method takes the acting
// forge.Actor, checks its account state and token scope (read:issue,
// write:issue; read:organization, write:organization for organisation
// labels) and its permission on the repository's issues (or pull-request)
// unit, and makes each change in one Store.Update, so that an issue, its
// comments and every counter change together or not at all. Attachment
// bytes live in Config.Blobs, written before the row and deleted if the
// row is not.
//
// The package imports forge and the standard library only (deps_test.go):
// repositories, organisations and the search's repository set reach it
// through the one-method interfaces RepoAccess, OrgRoles and RepoSearch
// that the wiring fills with forge/repos and forge/orgs.
package issues
