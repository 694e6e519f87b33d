// Package issues is Hearth's issue tracker: issues (and, later, pull
// requests, which are issues with IsPull set), comments, labels of
// repositories and organisations, issue labels, milestones and
// attachments, with Forgejo v15.0.3's rules: the updated_at rules
// (CheckUpdatedAt), exclusive label scopes (ApplyExclusive,
// DedupExclusive), label colours (NormalizeColor) and milestone counters
// (MilestoneDelta), each a pure function over values.
//
// Service is the security boundary: every method takes the acting
// forge.Actor, checks its account state and token scope (read:issue,
// write:issue) and its permission on the repository's issues unit, and
// makes each change in one Store.Update, so that an issue, its comments and
// every counter change together or not at all.
//
// The package imports forge and the standard library only: repositories
// and organisations reach it through the one-method interfaces RepoAccess
// and OrgRoles that the wiring fills with forge/repos and forge/orgs.
package issues
