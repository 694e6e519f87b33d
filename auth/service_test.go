package auth_test

import (
	"context"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/forgetest"
	"github.com/hearthforge/hearth/storage/sqlite"
)

// fastPasswords keep argon2id cheap in tests; production uses the default.
var fastPasswords = auth.PasswordParams{Time: 1, MemoryKiB: 64, Threads: 1}

type fixture struct {
	svc   *auth.Service
	clock *forgetest.FakeClock
	root  forge.Actor // password-authenticated administrator "root"
}

func newFixture(t testing.TB, path string) *fixture {
	t.Helper()
	db, err := sqlite.Open(context.Background(), path)
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	clock := forgetest.NewClock()
	svc, err := auth.New(auth.Config{Store: db.Auth(), Clock: clock, Password: fastPasswords,
		SecretKey: []byte("test-secret-key")})
	require.NoError(t, err)
	no := false
	created, err := svc.EnsureAdmin(context.Background(), auth.CreateUserOptions{
		Name: "root", Email: "root@example.com", Password: "rootpassword", MustChangePassword: &no})
	require.NoError(t, err)
	require.True(t, created)
	actor, err := svc.Authenticate(context.Background(), auth.Credentials{Basic: true, Username: "root", Password: "rootpassword"})
	require.NoError(t, err)
	return &fixture{svc: svc, clock: clock, root: actor}
}

func (f *fixture) user(t testing.TB, name string, admin bool) forge.Actor {
	t.Helper()
	no := false
	_, err := f.svc.CreateUser(context.Background(), f.root, auth.CreateUserOptions{
		Name: name, Email: name + "@example.com", Password: name + "-password", MustChangePassword: &no})
	require.NoError(t, err)
	if admin {
		yes := true
		_, err := f.svc.EditUser(context.Background(), f.root, name, auth.EditUserOptions{Admin: &yes})
		require.NoError(t, err)
	}
	a, err := f.svc.Authenticate(context.Background(), auth.Credentials{Basic: true, Username: name, Password: name + "-password"})
	require.NoError(t, err)
	return a
}

func TestEnsureAdminOnce(t *testing.T) {
	t.Parallel()
	f := newFixture(t, ":memory:")
	created, err := f.svc.EnsureAdmin(context.Background(), auth.CreateUserOptions{
		Name: "second", Email: "second@example.com", Password: "whatever-pw"})
	require.NoError(t, err)
	assert.False(t, created, "an administrator exists already")
	assert.False(t, f.root.User.MustChangePassword)
	assert.True(t, f.root.User.IsAdmin)
}

func TestCreateUser(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFixture(t, ":memory:")
	u, err := f.svc.CreateUser(ctx, f.root, auth.CreateUserOptions{Name: "Alice", Email: "alice@example.com", Password: "12345678"})
	require.NoError(t, err)
	assert.True(t, u.MustChangePassword, "Forgejo's default for admin-created users")
	assert.True(t, u.IsActive)
	assert.Equal(t, forge.VisibilityPublic, u.Visibility)
	assert.Equal(t, forgetest.Epoch, u.Created)

	at := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
	old, err := f.svc.CreateUser(ctx, f.root, auth.CreateUserOptions{Name: "old", Email: "old@example.com",
		Password: "12345678", Created: &at, Visibility: forge.VisibilityPrivate})
	require.NoError(t, err)
	assert.Equal(t, at, old.Created)
	assert.Equal(t, at, old.Updated)

	alice := forgetest.ActorFor(u) // must change her password
	bob := f.user(t, "bob", false)
	tests := []struct {
		name  string
		actor forge.Actor
		opts  auth.CreateUserOptions
		kind  error
		msg   string
	}{
		{"non-admin", bob, auth.CreateUserOptions{Name: "x", Email: "x@example.com", Password: "12345678"},
			forge.ErrForbidden, "user should be the site admin"},
		{"must change password", alice, auth.CreateUserOptions{Name: "x", Email: "x@example.com", Password: "12345678"},
			forge.ErrForbidden, "You must change your password."},
		{"taken name", f.root, auth.CreateUserOptions{Name: "ALICE", Email: "x@example.com", Password: "12345678"},
			forge.ErrConflict, "user already exists [name: ALICE]"},
		{"taken email", f.root, auth.CreateUserOptions{Name: "x", Email: "Alice@Example.com", Password: "12345678"},
			forge.ErrConflict, "e-mail already in use [email: Alice@Example.com]"},
		{"short password", f.root, auth.CreateUserOptions{Name: "x", Email: "x@example.com", Password: "1234567"},
			auth.ErrPasswordPolicy, "PasswordIsRequired"},
		{"no password", f.root, auth.CreateUserOptions{Name: "x", Email: "x@example.com"},
			auth.ErrPasswordPolicy, "PasswordIsRequired"},
		{"unknown source", f.root, auth.CreateUserOptions{Name: "x", Email: "x@example.com", LoginSource: 3},
			forge.ErrInvalid, "login source does not exist [id: 3]"},
		{"bad email", f.root, auth.CreateUserOptions{Name: "x", Email: "x", Password: "12345678"},
			forge.ErrInvalid, "e-mail invalid [email: x]"},
		{"bad visibility", f.root, auth.CreateUserOptions{Name: "x", Email: "x@example.com", Password: "12345678", Visibility: "secret"},
			forge.ErrInvalid, `invalid visibility "secret"`},
	}
	for _, tt := range tests {
		_, err := f.svc.CreateUser(ctx, tt.actor, tt.opts)
		assert.ErrorIs(t, err, tt.kind, tt.name)
		assert.EqualError(t, err, tt.msg, tt.name)
	}
}

func TestUserVisibility(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFixture(t, ":memory:")
	bob := f.user(t, "bob", false)
	for _, v := range []forge.Visibility{forge.VisibilityLimited, forge.VisibilityPrivate} {
		no := false
		_, err := f.svc.CreateUser(ctx, f.root, auth.CreateUserOptions{Name: string(v), Email: string(v) + "@example.com",
			Password: "12345678", Visibility: v, MustChangePassword: &no})
		require.NoError(t, err)
	}
	see := func(a forge.Actor, name string) error { _, err := f.svc.User(ctx, a, name); return err }
	assert.NoError(t, see(forge.Anonymous, "bob"))
	assert.EqualError(t, see(forge.Anonymous, "Limited"), "user redirect does not exist [name: limited]")
	assert.NoError(t, see(bob, "limited"))
	assert.ErrorIs(t, see(bob, "private"), forge.ErrNotFound)
	assert.NoError(t, see(f.root, "private"))
	assert.EqualError(t, see(f.root, "Nobody"), "user redirect does not exist [name: nobody]")
}

func TestEditUserEachField(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFixture(t, ":memory:")
	f.user(t, "carol", false)
	str := func(s string) *string { return &s }
	yes, no, n := true, false, int64(3)
	vis := forge.VisibilityLimited
	src := forge.ID(0)
	tests := []struct {
		name  string
		opts  auth.EditUserOptions
		check func(u *forge.User) bool
	}{
		{"email", auth.EditUserOptions{Email: str("c2@example.com")}, func(u *forge.User) bool { return u.Email == "c2@example.com" }},
		{"full_name", auth.EditUserOptions{FullName: str("Carol C")}, func(u *forge.User) bool { return u.FullName == "Carol C" }},
		{"must_change_password", auth.EditUserOptions{MustChangePassword: &yes}, func(u *forge.User) bool { return u.MustChangePassword }},
		{"website", auth.EditUserOptions{Website: str("https://c.example")}, func(u *forge.User) bool { return u.Website == "https://c.example" }},
		{"location", auth.EditUserOptions{Location: str("Lyon")}, func(u *forge.User) bool { return u.Location == "Lyon" }},
		{"pronouns", auth.EditUserOptions{Pronouns: str("they")}, func(u *forge.User) bool { return u.Pronouns == "they" }},
		{"description", auth.EditUserOptions{Description: str("d")}, func(u *forge.User) bool { return u.Description == "d" }},
		{"active", auth.EditUserOptions{Active: &no}, func(u *forge.User) bool { return !u.IsActive }},
		{"admin", auth.EditUserOptions{Admin: &yes}, func(u *forge.User) bool { return u.IsAdmin }},
		{"allow_git_hook", auth.EditUserOptions{AllowGitHook: &yes}, func(u *forge.User) bool { return u.AllowGitHook }},
		{"allow_import_local", auth.EditUserOptions{AllowImportLocal: &yes}, func(u *forge.User) bool { return u.AllowImportLocal }},
		{"max_repo_creation", auth.EditUserOptions{MaxRepoCreation: &n}, func(u *forge.User) bool { return u.MaxRepoCreation == 3 }},
		{"prohibit_login", auth.EditUserOptions{ProhibitLogin: &yes}, func(u *forge.User) bool { return u.ProhibitLogin }},
		{"allow_create_organization", auth.EditUserOptions{AllowCreateOrganization: &no}, func(u *forge.User) bool { return !u.AllowCreateOrganization }},
		{"restricted", auth.EditUserOptions{Restricted: &yes}, func(u *forge.User) bool { return u.Restricted }},
		{"visibility", auth.EditUserOptions{Visibility: &vis}, func(u *forge.User) bool { return u.Visibility == vis }},
		{"hide_email", auth.EditUserOptions{HideEmail: &yes}, func(u *forge.User) bool { return u.HideEmail }},
		{"login_name with source", auth.EditUserOptions{LoginSource: &src, LoginName: str("ext")}, func(u *forge.User) bool { return u.LoginName == "ext" }},
	}
	for _, tt := range tests {
		before, err := f.svc.User(ctx, f.root, "carol")
		require.NoError(t, err)
		f.clock.Step(time.Minute)
		after, err := f.svc.EditUser(ctx, f.root, "carol", tt.opts)
		require.NoError(t, err, tt.name)
		assert.True(t, tt.check(after), tt.name)
		stored, _ := f.svc.User(ctx, f.root, "carol")
		assert.True(t, tt.check(stored), "%s is stored", tt.name)
		assert.Equal(t, f.clock.Now(), stored.Updated, tt.name)
		// Nothing else changed.
		want := *before
		tt.opts.Apply(&want)
		want.Updated = stored.Updated
		assert.Equal(t, &want, stored, tt.name)
	}
}

func TestEditUserRefusals(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFixture(t, ":memory:")
	dave := f.user(t, "dave", false)
	f.user(t, "erin", false)
	str := func(s string) *string { return &s }
	no, src := false, forge.ID(0)
	tests := []struct {
		name   string
		actor  forge.Actor
		user   string
		opts   auth.EditUserOptions
		reason error
		msg    string
	}{
		{"non-admin", dave, "erin", auth.EditUserOptions{FullName: str("x")}, forge.ErrForbidden, "user should be the site admin"},
		{"unknown", f.root, "zed", auth.EditUserOptions{FullName: str("x")}, forge.ErrNotFound, "user redirect does not exist [name: zed]"},
		{"source alone", f.root, "erin", auth.EditUserOptions{LoginSource: &src}, forge.ErrInvalid, "source_id and login_name must be specified together"},
		{"login name alone", f.root, "erin", auth.EditUserOptions{LoginName: str("x")}, forge.ErrInvalid, "source_id and login_name must be specified together"},
		{"short password", f.root, "erin", auth.EditUserOptions{Password: str("short")}, auth.ErrPasswordPolicy, "password must be at least 8 characters"},
		{"bad email", f.root, "erin", auth.EditUserOptions{Email: str("nope")}, auth.ErrEmailInvalid, "e-mail invalid [email: nope]"},
		{"taken email", f.root, "erin", auth.EditUserOptions{Email: str("DAVE@example.com")}, forge.ErrConflict, "e-mail already in use [email: DAVE@example.com]"},
		{"demote last admin", f.root, "root", auth.EditUserOptions{Admin: &no, Password: str("new-password!")}, auth.ErrLastAdmin,
			"can not delete the last admin user [uid: 1]"},
	}
	for _, tt := range tests {
		_, err := f.svc.EditUser(ctx, tt.actor, tt.user, tt.opts)
		assert.ErrorIs(t, err, tt.reason, tt.name)
		assert.EqualError(t, err, tt.msg, tt.name)
	}
	// The refused demotion changed nothing, not even the password sent with it.
	_, err := f.svc.Authenticate(ctx, auth.Credentials{Basic: true, Username: "root", Password: "rootpassword"})
	assert.NoError(t, err)
	_, err = f.svc.Authenticate(ctx, auth.Credentials{Basic: true, Username: "root", Password: "new-password!"})
	assert.ErrorIs(t, err, forge.ErrUnauthenticated)
}

func TestDeleteUser(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFixture(t, ":memory:")
	frank := f.user(t, "frank", true)
	assert.EqualError(t, f.svc.DeleteUser(ctx, f.root, "root"), "you cannot delete yourself")
	assert.ErrorIs(t, f.svc.DeleteUser(ctx, f.root, "nobody"), forge.ErrNotFound)
	require.NoError(t, f.svc.DeleteUser(ctx, frank, "root"), "another admin remains")
	err := f.svc.DeleteUser(ctx, frank, "frank")
	assert.EqualError(t, err, "you cannot delete yourself")
}

// TestLastAdminConcurrent demotes the last two administrators from two
// goroutines at once, many times: exactly one demotion may win each round.
func TestLastAdminConcurrent(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFixture(t, t.TempDir()+"/hearth.db") // a file: real concurrent connections
	second := f.user(t, "second", true)
	no, yes := false, true
	for round := range 20 {
		var wg sync.WaitGroup
		errs := make([]error, 2)
		for i, pair := range []struct {
			actor  forge.Actor
			target string
		}{{second, "root"}, {f.root, "second"}} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, errs[i] = f.svc.EditUser(ctx, pair.actor, pair.target, auth.EditUserOptions{Admin: &no})
			}()
		}
		wg.Wait()
		failed := 0
		for _, err := range errs {
			if err != nil {
				require.ErrorIs(t, err, auth.ErrLastAdmin, "round %d", round)
				failed++
			}
		}
		require.Equal(t, 1, failed, "round %d: exactly one demotion wins", round)
		admins, _, err := f.svc.ListUsers(ctx, forgetest.ActorFor(&forge.User{ID: -1, IsAdmin: true, IsActive: true}),
			auth.UserFilter{}, forge.ListOptions{})
		require.NoError(t, err)
		n := 0
		for _, u := range admins {
			if u.IsAdmin {
				n++
			}
		}
		require.Equal(t, 1, n, "round %d: one administrator left", round)
		// Restore both for the next round: the remaining admin promotes the other.
		for _, name := range []string{"root", "second"} {
			_, err := f.svc.EditUser(ctx, forgetest.ActorFor(&forge.User{ID: -1, IsAdmin: true, IsActive: true}),
				name, auth.EditUserOptions{Admin: &yes})
			require.NoError(t, err)
		}
	}
}

func TestTokens(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFixture(t, ":memory:")
	gina := f.user(t, "gina", false)
	hank := f.user(t, "hank", false)

	tok, err := f.svc.CreateToken(ctx, gina, "gina", auth.CreateTokenOptions{Name: "ci", Scopes: []string{"read:user", "write:user", "sudo"}})
	require.NoError(t, err)
	assert.True(t, auth.IsTokenFormat(tok.Token))
	assert.Equal(t, tok.Token[32:], tok.LastEight)
	assert.Equal(t, "write:user", tok.Scope.String())

	actor, err := f.svc.Authenticate(ctx, auth.Credentials{Token: tok.Token})
	require.NoError(t, err)
	assert.Equal(t, "gina", actor.User.Name)
	assert.Equal(t, forge.AuthToken, actor.Method)
	assert.True(t, actor.Scoped)
	assert.True(t, actor.Allows(forge.CategoryUser, forge.AccessWrite))
	assert.False(t, actor.Allows(forge.CategoryRepository, forge.AccessRead))

	for name, cr := range map[string]auth.Credentials{
		"basic, token as password":     {Basic: true, Username: "whoever", Password: tok.Token},
		"basic, token as username":     {Basic: true, Username: tok.Token},
		"basic, token + x-oauth-basic": {Basic: true, Username: tok.Token, Password: "x-oauth-basic"},
	} {
		a, err := f.svc.Authenticate(ctx, cr)
		require.NoError(t, err, name)
		assert.Equal(t, gina.User.ID, a.User.ID, name)
		assert.Equal(t, forge.AuthToken, a.Method, name)
	}

	// Token management needs a password sign-in.
	_, err = f.svc.CreateToken(ctx, actor, "gina", auth.CreateTokenOptions{Name: "x", Scopes: []string{"all"}})
	assert.ErrorIs(t, err, forge.ErrUnauthenticated)
	assert.EqualError(t, err, "auth method not allowed")
	assert.EqualError(t, f.svc.DeleteToken(ctx, actor, "gina", "ci"), "auth method not allowed")

	for _, tt := range []struct {
		actor  forge.Actor
		owner  string
		opts   auth.CreateTokenOptions
		reason error
		msg    string
	}{
		{hank, "gina", auth.CreateTokenOptions{Name: "x", Scopes: []string{"all"}}, forge.ErrForbidden, "doer should be the site admin or be same as the contextUser"},
		{forge.Anonymous, "gina", auth.CreateTokenOptions{Name: "x", Scopes: []string{"all"}}, forge.ErrForbidden, "doer should be the site admin or be same as the contextUser"},
		{gina, "nobody", auth.CreateTokenOptions{Name: "x", Scopes: []string{"all"}}, forge.ErrNotFound, "user redirect does not exist [name: nobody]"},
		{gina, "gina", auth.CreateTokenOptions{Scopes: []string{"all"}}, forge.ErrInvalid, "[Name]: Required"},
		{gina, "gina", auth.CreateTokenOptions{Name: "ci", Scopes: []string{"all"}}, auth.ErrTokenRequest, "access token name has been used already"},
		{gina, "gina", auth.CreateTokenOptions{Name: "y", Scopes: []string{"read:nothing"}}, auth.ErrTokenRequest, "invalid access token scope provided: invalid access token scope: read:nothing"},
		{gina, "gina", auth.CreateTokenOptions{Name: "y", Scopes: []string{"sudo"}}, auth.ErrTokenRequest, "access token must have a scope"},
		{gina, "gina", auth.CreateTokenOptions{Name: "y"}, auth.ErrTokenRequest, "access token must have a scope"},
	} {
		_, err := f.svc.CreateToken(ctx, tt.actor, tt.owner, tt.opts)
		assert.ErrorIs(t, err, tt.reason, tt.msg)
		assert.EqualError(t, err, tt.msg)
	}

	// An administrator manages other users' tokens.
	byAdmin, err := f.svc.CreateToken(ctx, f.root, "gina", auth.CreateTokenOptions{Name: "from-admin", Scopes: []string{"all"}})
	require.NoError(t, err)
	assert.Equal(t, gina.User.ID, byAdmin.UserID)
	named42, err := f.svc.CreateToken(ctx, gina, "gina", auth.CreateTokenOptions{Name: "42", Scopes: []string{"read:issue"}})
	require.NoError(t, err)

	list, total, err := f.svc.ListTokens(ctx, gina, "gina", forge.ListOptions{})
	require.NoError(t, err)
	assert.EqualValues(t, 3, total)
	require.Len(t, list, 3)
	assert.Equal(t, []string{"42", "from-admin", "ci"}, []string{list[0].Name, list[1].Name, list[2].Name})
	assert.Empty(t, list[0].Token, "the clear token is never shown again")
	_, _, err = f.svc.ListTokens(ctx, hank, "gina", forge.ListOptions{})
	assert.ErrorIs(t, err, forge.ErrForbidden)

	// Delete by id (hex form too) and by name; a token named 42 is taken as id 42.
	assert.ErrorIs(t, f.svc.DeleteToken(ctx, gina, "gina", "42"), forge.ErrNotFound)
	require.NoError(t, f.svc.DeleteToken(ctx, gina, "gina", "0x"+strconv.FormatInt(named42.ID, 16)))
	require.NoError(t, f.svc.DeleteToken(ctx, f.root, "gina", "from-admin"))
	assert.ErrorIs(t, f.svc.DeleteToken(ctx, hank, "gina", "ci"), forge.ErrForbidden)
	assert.ErrorIs(t, f.svc.DeleteToken(ctx, hank, "hank", strconv.FormatInt(tok.ID, 10)), forge.ErrNotFound,
		"another user's token id is not found")
	require.NoError(t, f.svc.DeleteToken(ctx, gina, "gina", strconv.FormatInt(tok.ID, 10)))

	_, err = f.svc.Authenticate(ctx, auth.Credentials{Token: tok.Token})
	assert.EqualError(t, err, "access token does not exist [sha: "+tok.Token+"]")
	assert.ErrorIs(t, err, forge.ErrUnauthenticated)
}

func TestAuthenticateFailures(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFixture(t, ":memory:")
	f.user(t, "ivan", false)
	a, err := f.svc.Authenticate(ctx, auth.Credentials{})
	require.NoError(t, err)
	assert.False(t, a.IsSignedIn())

	for _, tt := range []struct {
		cr  auth.Credentials
		msg string
	}{
		{auth.Credentials{Token: "bogus"}, "access token does not exist [sha: bogus]"},
		{auth.Credentials{Token: "0123456789abcdef0123456789abcdef01234567"}, "access token does not exist [sha: 0123456789abcdef0123456789abcdef01234567"},
		{auth.Credentials{Basic: true, Username: "ivan", Password: "wrong-password"}, "user's password is invalid [uid: 2, name: ivan]"},
		{auth.Credentials{Basic: true, Username: "nobody", Password: "x"}, "user does not exist [uid: 0, name: nobody]"},
		{auth.Credentials{Basic: true, Username: "ivan"}, "access token does not exist [sha: ivan]"},
	} {
		a, err := f.svc.Authenticate(ctx, tt.cr)
		assert.ErrorIs(t, err, forge.ErrUnauthenticated, tt.msg)
		assert.ErrorContains(t, err, tt.msg)
		assert.False(t, a.IsSignedIn(), "wrong credentials never yield an actor")
	}
	// Sign-in by e-mail works as in Forgejo.
	a, err = f.svc.Authenticate(ctx, auth.Credentials{Basic: true, Username: "ivan@example.com", Password: "ivan-password"})
	require.NoError(t, err)
	assert.Equal(t, "ivan", a.User.Name)
	// A prohibited account cannot sign in with its password.
	yes := true
	_, err = f.svc.EditUser(ctx, f.root, "ivan", auth.EditUserOptions{ProhibitLogin: &yes})
	require.NoError(t, err)
	_, err = f.svc.Authenticate(ctx, auth.Credentials{Basic: true, Username: "ivan", Password: "ivan-password"})
	assert.EqualError(t, err, "user is not allowed login [uid: 2, name: ivan]")
}
