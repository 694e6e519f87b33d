package auth_test

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge"
)

// Every way in applies the account state: token (header or query), token as
// the basic username, token as the basic password, password, reverse proxy.
// Wrong credentials are still reported first (401), and a login-prohibited
// user's right password is Forgejo's 401.
func TestAuthenticateRefusesAccountStates(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	yes, no := true, false
	for _, tt := range []struct {
		state forge.AccountState
		edit  auth.EditUserOptions
		// password is what a right password gives: nil means the state error.
		password string
	}{
		{forge.StateInactive, auth.EditUserOptions{Active: &no}, ""},
		{forge.StateProhibitLogin, auth.EditUserOptions{ProhibitLogin: &yes}, "user is not allowed login [uid: 2, name: sam]"},
		{forge.StateMustChangePassword, auth.EditUserOptions{MustChangePassword: &yes}, ""},
	} {
		t.Run(string(tt.state), func(t *testing.T) {
			t.Parallel()
			f := newFixture(t, ":memory:")
			sam := f.user(t, "sam", false)
			tok, err := f.svc.CreateToken(ctx, sam, "sam", auth.CreateTokenOptions{Name: "git", Scopes: []string{"all"}})
			require.NoError(t, err)
			_, err = f.svc.EditUser(ctx, f.root, "sam", tt.edit)
			require.NoError(t, err)

			for name, cr := range map[string]auth.Credentials{
				"token":                {Token: tok.Token},
				"basic token username": {Basic: true, Username: tok.Token},
				"basic x-oauth-basic":  {Basic: true, Username: tok.Token, Password: "x-oauth-basic"},
				"basic token password": {Basic: true, Username: "anything", Password: tok.Token},
				"password":             {Basic: true, Username: "sam", Password: "sam-password"},
			} {
				a, err := f.svc.Authenticate(ctx, cr)
				assert.False(t, a.IsSignedIn(), name)
				if name == "password" && tt.password != "" {
					assert.EqualError(t, err, tt.password, name)
					assert.ErrorIs(t, err, forge.ErrUnauthenticated, name)
					continue
				}
				var st *forge.AccountStateError
				require.True(t, errors.As(err, &st), "%s: %v", name, err)
				assert.Equal(t, tt.state, st.State, name)
				assert.ErrorIs(t, err, forge.ErrForbidden, name)
			}
			_, err = f.svc.Authenticate(ctx, auth.Credentials{Basic: true, Username: "sam", Password: "wrong-password"})
			assert.EqualError(t, err, "user's password is invalid [uid: 2, name: sam]", "wrong password first")
			a, err := f.svc.AuthenticateProxy(ctx, auth.ProxyIdentity{Name: "sam"}, false)
			assert.False(t, a.IsSignedIn())
			var st *forge.AccountStateError
			require.True(t, errors.As(err, &st), "proxy: %v", err)
			assert.Equal(t, tt.state, st.State)
		})
	}
}

// An actor whose account may not act is refused by every service method,
// even when the Go caller built it by hand.
func TestServicesRefuseAccountStates(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFixture(t, ":memory:")
	f.user(t, "ina", true)
	no := false
	ina, err := f.svc.EditUser(ctx, f.root, "ina", auth.EditUserOptions{Active: &no})
	require.NoError(t, err)
	assert.False(t, ina.IsActive, "EditUser returns the state after the write")
	actor := forge.Actor{User: ina, Method: forge.AuthPassword}
	calls := map[string]error{}
	_, calls["User"] = f.svc.User(ctx, actor, "root")
	_, _, calls["SearchUsers"] = f.svc.SearchUsers(ctx, actor, auth.SearchUsersOptions{}, forge.ListOptions{})
	_, calls["CreateToken"] = f.svc.CreateToken(ctx, actor, "ina", auth.CreateTokenOptions{Name: "t", Scopes: []string{"all"}})
	_, _, calls["ListTokens"] = f.svc.ListTokens(ctx, actor, "ina", forge.ListOptions{})
	calls["DeleteToken"] = f.svc.DeleteToken(ctx, actor, "ina", "t")
	_, calls["CreateUser"] = f.svc.CreateUser(ctx, actor, auth.CreateUserOptions{Name: "x", Email: "x@example.com", Password: "12345678"})
	_, calls["EditUser"] = f.svc.EditUser(ctx, actor, "root", auth.EditUserOptions{})
	_, calls["RenameUser"] = f.svc.RenameUser(ctx, actor, "root", "groot")
	calls["DeleteUser"] = f.svc.DeleteUser(ctx, actor, "root")
	_, _, calls["ListUsers"] = f.svc.ListUsers(ctx, actor, auth.UserFilter{}, forge.ListOptions{})
	_, calls["CreateLoginSource"] = f.svc.CreateLoginSource(ctx, actor, auth.LoginSource{Name: "l", Type: auth.SourceLDAP})
	_, calls["LoginSources"] = f.svc.LoginSources(ctx, actor)
	_, calls["BeginTOTP"] = f.svc.BeginTOTP(ctx, actor, "x")
	_, calls["EnableTOTP"] = f.svc.EnableTOTP(ctx, actor, "secret", "123456")
	calls["DisableTOTP"] = f.svc.DisableTOTP(ctx, actor)
	_, calls["Sudo"] = f.svc.Sudo(ctx, actor, "root")
	for name, err := range calls {
		var st *forge.AccountStateError
		assert.True(t, errors.As(err, &st), "%s: %v", name, err)
	}
}

// Token scopes bind Go callers as they bind HTTP clients, and
// administrator operations need a site administrator.
func TestServicesCheckScopesAndAdmin(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFixture(t, ":memory:")
	una := f.user(t, "una", false)
	token := func(owner forge.Actor, scopes ...string) forge.Actor {
		t.Helper()
		tok, err := f.svc.CreateToken(ctx, owner, owner.User.Name, auth.CreateTokenOptions{Name: scopes[0] + owner.User.Name, Scopes: scopes})
		require.NoError(t, err)
		a, err := f.svc.Authenticate(ctx, auth.Credentials{Token: tok.Token})
		require.NoError(t, err)
		return a
	}
	readUser := token(una, "read:user")
	rootRepo := token(f.root, "write:repository")
	rootReadAdmin := token(f.root, "read:admin")
	rootPublicOnly := token(f.root, "all", "public-only")

	scopeErr := func(want string) func(error) bool {
		return func(err error) bool {
			return errors.Is(err, forge.ErrForbidden) && err.Error() == "token does not have at least one of required scope(s): ["+want+"]"
		}
	}
	notAdmin := func(err error) bool {
		return errors.Is(err, forge.ErrForbidden) && err.Error() == "user should be the site admin"
	}
	for _, tt := range []struct {
		name string
		call func() error
		ok   func(error) bool
	}{
		{"read:user cannot create tokens (password-only aside)", func() error {
			_, err := f.svc.CreateToken(ctx, readUser, "una", auth.CreateTokenOptions{Name: "n", Scopes: []string{"all"}})
			return err
		}, scopeErr("write:user")},
		{"read:user cannot delete tokens", func() error { return f.svc.DeleteToken(ctx, readUser, "una", "read:useruna") }, scopeErr("write:user")},
		{"read:user cannot enrol TOTP", func() error { _, err := f.svc.BeginTOTP(ctx, readUser, "x"); return err }, scopeErr("write:user")},
		{"read:user lists its tokens", func() error { _, _, err := f.svc.ListTokens(ctx, readUser, "una", forge.ListOptions{}); return err },
			func(err error) bool { return err == nil }},
		{"write:repository cannot read users", func() error { _, err := f.svc.User(ctx, rootRepo, "una"); return err }, scopeErr("read:user")},
		{"write:repository cannot search users", func() error {
			_, _, err := f.svc.SearchUsers(ctx, rootRepo, auth.SearchUsersOptions{}, forge.ListOptions{})
			return err
		}, scopeErr("read:user")},
		{"admin without admin scope cannot list users", func() error {
			_, _, err := f.svc.ListUsers(ctx, rootRepo, auth.UserFilter{}, forge.ListOptions{})
			return err
		}, scopeErr("read:admin")},
		{"read:admin lists users", func() error {
			_, _, err := f.svc.ListUsers(ctx, rootReadAdmin, auth.UserFilter{}, forge.ListOptions{})
			return err
		}, func(err error) bool { return err == nil }},
		{"read:admin cannot create users", func() error {
			_, err := f.svc.CreateUser(ctx, rootReadAdmin, auth.CreateUserOptions{Name: "x", Email: "x@example.com", Password: "12345678"})
			return err
		}, scopeErr("write:admin")},
		{"read:admin cannot edit users", func() error {
			_, err := f.svc.EditUser(ctx, rootReadAdmin, "una", auth.EditUserOptions{})
			return err
		}, scopeErr("write:admin")},
		{"read:admin cannot add login sources", func() error {
			_, err := f.svc.CreateLoginSource(ctx, rootReadAdmin, auth.LoginSource{Name: "l", Type: auth.SourceLDAP})
			return err
		}, scopeErr("write:admin")},
		{"public-only token has no admin powers", func() error {
			_, _, err := f.svc.ListUsers(ctx, rootPublicOnly, auth.UserFilter{}, forge.ListOptions{})
			return err
		}, notAdmin},
		{"non-admin cannot delete users", func() error { return f.svc.DeleteUser(ctx, una, "root") }, notAdmin},
		{"non-admin cannot rename users", func() error { _, err := f.svc.RenameUser(ctx, una, "root", "x"); return err }, notAdmin},
		{"non-admin cannot list login sources", func() error { _, err := f.svc.LoginSources(ctx, una); return err }, notAdmin},
		{"non-admin cannot sudo", func() error { _, err := f.svc.Sudo(ctx, una, "root"); return err },
			func(err error) bool {
				return errors.Is(err, forge.ErrForbidden) && err.Error() == "Only administrators allowed to sudo."
			}},
		{"public-only admin token cannot sudo", func() error { _, err := f.svc.Sudo(ctx, rootPublicOnly, "una"); return err },
			func(err error) bool { return err != nil && err.Error() == "Only administrators allowed to sudo." }},
	} {
		err := tt.call()
		assert.True(t, tt.ok(err), "%s: %v", tt.name, err)
	}

	// Sudo as a site administrator: the new actor keeps the token's scope.
	s, err := f.svc.Sudo(ctx, rootRepo, "una")
	require.NoError(t, err)
	assert.Equal(t, "una", s.User.Name)
	assert.Equal(t, "root", s.Sudoer.Name)
	_, err = f.svc.User(ctx, s, "una")
	assert.True(t, scopeErr("read:user")(err), "scope checks still use the administrator's token: %v", err)
}

// Methods that write return the state after the write.
func TestServicesReturnStoredState(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFixture(t, ":memory:")
	f.user(t, "vic", false)
	name := "Victor"
	u, err := f.svc.EditUser(ctx, f.root, "vic", auth.EditUserOptions{FullName: &name})
	require.NoError(t, err)
	assert.Equal(t, "Victor", u.FullName)
	assert.Equal(t, f.clock.Now(), u.Updated)
	u, err = f.svc.RenameUser(ctx, f.root, "vic", "victor")
	require.NoError(t, err)
	assert.Equal(t, "victor", u.Name)
	assert.Equal(t, "Victor", u.FullName)
	got, err := f.svc.User(ctx, f.root, "victor")
	require.NoError(t, err)
	assert.Equal(t, got, u)

	// ResetPassword (the host's console recovery) sets a password that
	// signs in and clears must-change-password.
	yes := true
	_, err = f.svc.EditUser(ctx, f.root, "victor", auth.EditUserOptions{MustChangePassword: &yes})
	require.NoError(t, err)
	u, err = f.svc.ResetPassword(ctx, "victor", "brand-new-password")
	require.NoError(t, err)
	assert.False(t, u.MustChangePassword)
	a, err := f.svc.Authenticate(ctx, auth.Credentials{Basic: true, Username: "victor", Password: "brand-new-password"})
	require.NoError(t, err)
	assert.Equal(t, u.ID, a.User.ID)
	_, err = f.svc.ResetPassword(ctx, "victor", "short")
	assert.ErrorIs(t, err, auth.ErrPasswordPolicy)
	_, err = f.svc.ResetPassword(ctx, "nobody", "long-enough-password")
	assert.ErrorIs(t, err, forge.ErrNotFound)
}
