package forge

import "strings"

// AuthMethod names how a request proved who it acts for.
type AuthMethod string

// Authentication methods.
const (
	AuthNone         AuthMethod = ""              // anonymous
	AuthToken        AuthMethod = "token"         // access token (header, query or basic)
	AuthPassword     AuthMethod = "password"      // basic auth with the account password
	AuthReverseProxy AuthMethod = "reverse_proxy" // trusted proxy header
	AuthSSHKey       AuthMethod = "ssh_key"       // a public key over SSH (user or deploy key)
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
	// DeployKey, when set, is a repository deploy key acting over SSH
	// (User is nil): it reads, or writes, the code of the repositories it
	// is deployed to and nothing else (repos.Access).
	DeployKey *DeployKey
}

// DeployKey is the credential of a deploy key (Forgejo's DeployKey): the
// public key's ID, and the access it grants per repository it is deployed
// to (forge.AccessModeRead or AccessModeWrite).
type DeployKey struct {
	KeyID ID
	Repos map[ID]AccessMode
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

// RequireScope returns nil when the actor's credential grants level on
// every category, and otherwise ErrForbidden with Forgejo's message
// (`token does not have at least one of required scope(s): [write:repository]`;
// Forgejo requires all listed categories although the message says "at
// least one"). Unscoped credentials pass. Every service method checks the
// scope of what it reads or writes with it, so that a Go caller gets the
// protection an HTTP client gets.
func (a Actor) RequireScope(level AccessLevel, cats ...ScopeCategory) error {
	if !a.Scoped {
		return nil
	}
	ok, required := true, make([]string, len(cats))
	for i, c := range cats {
		required[i] = level.String() + ":" + c.String()
		ok = ok && a.Scope.Has(c, level)
	}
	if ok {
		return nil
	}
	return Errorf(ErrForbidden, "token does not have at least one of required scope(s): [%s]", strings.Join(required, " "))
}

// AccountState is why a signed-in account may not act.
type AccountState string

// Account states that refuse every operation (Forgejo's verifyAuth).
const (
	StateInactive           AccountState = "inactive"
	StateProhibitLogin      AccountState = "prohibit_login"
	StateMustChangePassword AccountState = "must_change_password"
)

// AccountStateError refuses an account that may not act. It is an
// ErrForbidden. Its message is Forgejo's; for StateMustChangePassword the
// HTTP layer appends where to change it (`Change it at: <url>`).
type AccountStateError struct {
	State AccountState
	User  string
}

func (e *AccountStateError) Error() string {
	if e.State == StateMustChangePassword {
		return "You must change your password."
	}
	return "This account is prohibited from signing in, please contact your site administrator."
}

// Is makes it an ErrForbidden.
func (e *AccountStateError) Is(target error) bool { return target == ErrForbidden }

// CheckState returns nil when the actor is anonymous or its account may
// act, and an *AccountStateError otherwise: inactive or login-prohibited
// accounts, and accounts that must change their password. Every service
// method that acts for a user checks it.
func (a Actor) CheckState() error {
	u := a.User
	switch {
	case u == nil:
		return nil
	case !u.IsActive:
		return &AccountStateError{State: StateInactive, User: u.Name}
	case u.ProhibitLogin:
		return &AccountStateError{State: StateProhibitLogin, User: u.Name}
	case u.MustChangePassword:
		return &AccountStateError{State: StateMustChangePassword, User: u.Name}
	}
	return nil
}

// Check is CheckState then RequireScope: what every service method runs
// first for the access it needs.
func (a Actor) Check(level AccessLevel, cats ...ScopeCategory) error {
	if err := a.CheckState(); err != nil {
		return err
	}
	return a.RequireScope(level, cats...)
}
