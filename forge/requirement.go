package forge

// Requirement is what an operation requires of its actor before it looks
// at its input, stated once, by the domain that serves the operation, in
// a table by operation name (Forgejo's operationId): the token scope
// categories at the operation's level, a signed-in user (Forgejo's
// reqToken), a site administrator (reqSiteAdmin), and whether the
// domain's check of the resource the operation names runs before the
// input is read (Gate: Forgejo's middlewares run before its binding). The
// domain's methods check their operation's entry (Check, then the
// resource); the API derives each route's scopes, token and administrator
// checks and gate from the same entry.
type Requirement struct {
	Level      AccessLevel
	Categories []ScopeCategory
	SignedIn   bool
	SiteAdmin  bool
	Gate       bool
}

// Check checks the actor against r: the account state and the token
// scope (Actor.Check's errors), then ErrUnauthenticated `token is
// required` for an anonymous actor when r.SignedIn, then ErrForbidden
// `user should be the site admin` when r.SiteAdmin.
func (r Requirement) Check(actor Actor) error {
	if err := actor.Check(r.Level, r.Categories...); err != nil {
		return err
	}
	if r.SignedIn && !actor.IsSignedIn() {
		return errTokenRequired
	}
	if r.SiteAdmin && !actor.IsSiteAdmin() {
		return errSiteAdminRequired
	}
	return nil
}

var (
	errTokenRequired     = Errorf(ErrUnauthenticated, "token is required")
	errSiteAdminRequired = Errorf(ErrForbidden, "user should be the site admin")
)
