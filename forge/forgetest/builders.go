package forgetest

import (
	"strings"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/hearthforge/hearth/forge"
)

// User returns an active, public user named name with an example.com e-mail,
// for tests that need a user value. Options adjust it.
func User(name string, opts ...func(*forge.User)) *forge.User {
	u := &forge.User{
		Name:            name,
		Email:           strings.ToLower(name) + "@example.com",
		Visibility:      forge.VisibilityPublic,
		IsActive:        true,
		MaxRepoCreation: -1,
		Created:         Epoch,
		Updated:         Epoch,
	}
	for _, o := range opts {
		o(u)
	}
	return u
}

// Admin makes a user a site administrator (an option for User).
func Admin(u *forge.User) { u.IsAdmin = true }

// ActorFor returns a password-authenticated (unscoped) actor for u.
func ActorFor(u *forge.User) forge.Actor {
	return forge.Actor{User: u, Method: forge.AuthPassword}
}

// TokenActor returns a token actor for u limited to the given scope words.
// It panics on an invalid word: tests pass literals.
func TokenActor(u *forge.User, scope ...string) forge.Actor {
	s, err := forge.ParseScope(scope...)
	if err != nil {
		panic(err)
	}
	return forge.Actor{User: u, Method: forge.AuthToken, Scope: s, Scoped: true}
}

// CmpOptions are the go-cmp options for comparing forge values: unexported
// fields of Scope are compared, times by instant.
var CmpOptions = cmp.Options{
	cmp.AllowUnexported(forge.Scope{}),
	cmpopts.EquateApproxTime(0),
}
