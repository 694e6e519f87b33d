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
//
// An operation with no Categories and no OwnerScope requires no scope at
// all (Forgejo's public routes: any token, of any category, may call it).
type Requirement struct {
	Level      AccessLevel
	Categories []ScopeCategory
	// OwnerScope: the scope category is that of the owner of the
	// repository the operation names, user for a user's and organization
	// for an organisation's (Forgejo's tokenRequiresRepoOwnerScope, of
	// DELETE /repos/{owner}/{repo}); Categories is then empty. Check cannot
	// know the owner: the method checks that category once it has resolved
	// it, and a route checks none before its handler.
	OwnerScope bool
	SignedIn   bool
	SiteAdmin  bool
	Gate       bool
}

// Anyone is the requirement of an operation at level on cats that
// anonymous callers may try (what they may see is the method's).
func Anyone(level AccessLevel, cats ...ScopeCategory) Requirement {
	return Requirement{Level: level, Categories: cats}
}

// SignedInTo is the requirement of an operation at level on cats for
// signed-in users (Forgejo's reqToken).
func SignedInTo(level AccessLevel, cats ...ScopeCategory) Requirement {
	return Requirement{Level: level, Categories: cats, SignedIn: true}
}

// SiteAdminTo is the requirement of an /admin operation at level (the
// admin category, reqToken and reqSiteAdmin).
func SiteAdminTo(level AccessLevel) Requirement {
	return Requirement{Level: level, Categories: []ScopeCategory{CategoryAdmin}, SignedIn: true, SiteAdmin: true}
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

// Declare is a domain's table of requirements by operationId (what its
// Requirements function returns): of(o) for each operation o of ops, with
// Gate set for the operations in gated. A new map at each call.
func Declare[O any](ops map[string]O, of func(O) Requirement, gated map[string]bool) map[string]Requirement {
	out := make(map[string]Requirement, len(ops))
	for op, o := range ops {
		r := of(o)
		r.Gate = gated[op]
		out[op] = r
	}
	return out
}

// Gated is the set of the operations of probes, a domain's table of what
// the probe of each gated operation checks, as Declare's gated.
func Gated[P any](probes map[string]P) map[string]bool {
	out := make(map[string]bool, len(probes))
	for op := range probes {
		out[op] = true
	}
	return out
}
