// Package orgs owns organisations and teams: organisations as accounts of
// type organisation with their visibility (public, limited, private) and
// e-mail, members and public members, blocked users, teams with an access
// mode and units, the Owners team every organisation has and never leaves
// empty, and the repositories of teams.
//
// The Service is the security boundary: every public method checks the
// actor's account state and token scope itself, then who the actor is in
// the organisation (owner, member, stranger, site administrator).
// Organisations an actor may not see answer exactly like missing ones.
//
// orgs depends on forge and the standard library. Its storage is the Store
// declared here; it never imports net/http, database/sql, drivers or the
// other domain packages.
package orgs
