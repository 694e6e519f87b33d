// Package orgs owns organisations and teams: organisations as accounts of
// type organisation with their visibility (public, limited, private) and
// e-mail, members and public members, blocked users, teams with an access
// mode and units, the Owners team every organisation has and never leaves
// empty, and the repositories of teams.
//
// The Service is the security boundary: every public method checks the
// actor's account state and token scope itself, then who the actor is in
// the organisation (owner, member, stranger, site administrator), and
// only then its input. Organisations an actor may not see answer exactly
// like missing ones, where the route names them as {org} and as
// {username}; teams of such organisations answer exactly like missing
// teams.
//
// Errors every method may return besides those its comment names: an
// *forge.AccountStateError for an account that may not act; forge.ErrForbidden
// `token does not have at least one of required scope(s): [...]`;
// forge.ErrUnauthenticated `token is required` where the route needs a
// signed-in actor; a *NotFoundError for an organisation or user name that
// names nothing the actor may see; ErrTeamNotFound for a team id that
// names nothing the actor may see; ErrMustBeOwner, ErrMustBeMember and
// ErrMustBeTeamMember as Forgejo's middlewares answer them.
//
// orgs depends on forge and the standard library. Its storage is the Store
// declared here; it never imports net/http, database/sql, drivers or the
// other domain packages.
package orgs
