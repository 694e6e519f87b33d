package forge

// AuthMethod names how a request proved who it acts for.
type AuthMethod string

// Authentication methods.
const (
	AuthNone         AuthMethod = ""              // anonymous
	AuthToken        AuthMethod = "token"         // access token (header, query or basic)
	AuthPassword     AuthMethod = "password"      // basic auth with the account password
	AuthReverseProxy AuthMethod = "reverse_proxy" // trusted proxy header
)

// Actor is who performs an operation: the signed-in user (nil when
// anonymous) and what the credential allows. Services take it as an explicit
// argument, the way Forgejo passes `doer`.
type Actor struct {
	User   *User
	Method AuthMethod
	// Scope limits what the credential may do. It applies only when Scoped is
	// true (access tokens); passwords and proxies are not scope-restricted.
	Scope  Scope
	Scoped bool
	// TokenID is the access token used, when Method is AuthToken.
	TokenID ID
	// Sudoer is the administrator acting as User through sudo, or nil.
	Sudoer *User
}

// Anonymous is the actor of a request without credentials.
var Anonymous = Actor{}

// IsSignedIn reports whether the actor is a user.
func (a Actor) IsSignedIn() bool { return a.User != nil }

// IsSiteAdmin reports whether the actor may use site-administrator powers:
// an administrator whose credential is not restricted to public resources.
func (a Actor) IsSiteAdmin() bool {
	return a.User != nil && a.User.IsAdmin && !(a.Scoped && a.Scope.PublicOnly)
}

// Allows reports whether the credential grants level on category. Unscoped
// credentials (password, reverse proxy) allow everything the user may do.
func (a Actor) Allows(c ScopeCategory, level AccessLevel) bool {
	return !a.Scoped || a.Scope.Has(c, level)
}

// UserID returns the acting user's ID, or 0 when anonymous.
func (a Actor) UserID() ID {
	if a.User == nil {
		return 0
	}
	return a.User.ID
}
