package auth_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/pquerna/otp/totp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/storage/sqlite"
)

func TestTOTP(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFixture(t, ":memory:")
	jo := f.user(t, "jo", false)

	enr, err := f.svc.BeginTOTP(ctx, jo, "Hearth")
	require.NoError(t, err)
	assert.Contains(t, enr.URL, "otpauth://totp/Hearth:jo")
	code := func() string {
		c, err := totp.GenerateCode(enr.Secret, f.clock.Now())
		require.NoError(t, err)
		return c
	}
	_, err = f.svc.EnableTOTP(ctx, jo, enr.Secret, "000000")
	assert.ErrorIs(t, err, forge.ErrInvalid, "a wrong confirmation code")
	scratch, err := f.svc.EnableTOTP(ctx, jo, enr.Secret, code())
	require.NoError(t, err)
	assert.Len(t, scratch, 10)
	has, err := f.svc.HasTOTP(ctx, jo, jo.User.ID)
	require.NoError(t, err)
	assert.True(t, has)
	_, err = f.svc.EnableTOTP(ctx, jo, enr.Secret, code())
	assert.ErrorIs(t, err, forge.ErrConflict)

	pw := auth.Credentials{Basic: true, Username: "jo", Password: "jo-password"}
	_, err = f.svc.Authenticate(ctx, pw)
	assert.EqualError(t, err, "invalid provided OTP", "password alone is not enough")
	assert.ErrorIs(t, err, forge.ErrUnauthenticated)
	wrong := pw
	wrong.OTP = "123456"
	_, err = f.svc.Authenticate(ctx, wrong)
	assert.ErrorIs(t, err, auth.ErrInvalidOTP)

	f.clock.Step(time.Minute) // a new window: the enrolment code may not be replayed
	ok := pw
	ok.OTP = code()
	a, err := f.svc.Authenticate(ctx, ok)
	require.NoError(t, err)
	assert.Equal(t, "jo", a.User.Name)
	_, err = f.svc.Authenticate(ctx, ok)
	assert.ErrorIs(t, err, auth.ErrInvalidOTP, "a used code cannot be replayed")

	// Tokens never need the second factor.
	tok, err := f.svc.CreateToken(ctx, a, "jo", auth.CreateTokenOptions{Name: "t", Scopes: []string{"all"}})
	require.NoError(t, err)
	_, err = f.svc.Authenticate(ctx, auth.Credentials{Token: tok.Token})
	assert.NoError(t, err)
	_, err = f.svc.Authenticate(ctx, auth.Credentials{Basic: true, Username: "jo", Password: tok.Token})
	assert.NoError(t, err, "basic auth with a token as password skips 2FA")

	assert.ErrorIs(t, f.svc.RecoverTOTP(ctx, "jo", "wrong", "192.0.2.1"), forge.ErrUnauthenticated)
	require.NoError(t, f.svc.RecoverTOTP(ctx, "jo", scratch, "192.0.2.1"))
	_, err = f.svc.Authenticate(ctx, pw)
	assert.NoError(t, err, "after recovery the password alone works")
}

func TestTOTPNeedsSecretKey(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, err := sqlite.Open(ctx, ":memory:")
	require.NoError(t, err)
	defer db.Close()
	svc, err := auth.New(auth.Config{Store: db.Auth(), Password: fastPasswords})
	require.NoError(t, err)
	no := false
	_, err = svc.EnsureAdmin(ctx, auth.CreateUserOptions{Name: "k", Email: "k@example.com", Password: "kkkkkkkk", MustChangePassword: &no})
	require.NoError(t, err)
	a, err := svc.Authenticate(ctx, auth.Credentials{Basic: true, Username: "k", Password: "kkkkkkkk"})
	require.NoError(t, err)
	enr, err := svc.BeginTOTP(ctx, a, "x")
	require.NoError(t, err)
	code, _ := totp.GenerateCode(enr.Secret, time.Now())
	_, err = svc.EnableTOTP(ctx, a, enr.Secret, code)
	assert.ErrorIs(t, err, forge.ErrPrecondition)
}

func TestThrottle(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFixture(t, ":memory:")
	f.user(t, "kim", false)
	f.user(t, "lee", false)
	bad := auth.Credentials{Basic: true, Username: "kim", Password: "guess", RemoteAddr: "192.0.2.1"}
	for i := range 5 {
		_, err := f.svc.Authenticate(ctx, bad)
		var te *auth.ThrottledError
		require.False(t, errors.As(err, &te), "failure %d is free", i+1)
	}
	// The sixth attempt from that address is refused without a password
	// check, even a right one.
	good := auth.Credentials{Basic: true, Username: "kim", Password: "kim-password", RemoteAddr: "192.0.2.1"}
	_, err := f.svc.Authenticate(ctx, good)
	var te *auth.ThrottledError
	require.True(t, errors.As(err, &te), "%v", err)
	assert.ErrorIs(t, err, forge.ErrUnauthenticated)
	assert.Equal(t, time.Second, te.RetryAfter)
	// F8: the owner signs in from another address meanwhile...
	elsewhere := good
	elsewhere.RemoteAddr = "198.51.100.7"
	_, err = f.svc.Authenticate(ctx, elsewhere)
	require.NoError(t, err, "failures from one address do not lock the account elsewhere")
	// ...and other accounts from the failing address are not locked either.
	_, err = f.svc.Authenticate(ctx, auth.Credentials{Basic: true, Username: "lee", Password: "lee-password", RemoteAddr: "192.0.2.1"})
	require.NoError(t, err)
	// Once the lock passes, each new failure doubles it.
	f.clock.Step(time.Second)
	_, err = f.svc.Authenticate(ctx, bad)
	assert.False(t, errors.As(err, &te), "an attempt after the lock is checked")
	_, err = f.svc.Authenticate(ctx, good)
	require.True(t, errors.As(err, &te))
	assert.Equal(t, 2*time.Second, te.RetryAfter)
	f.clock.Step(2 * time.Second)
	_, err = f.svc.Authenticate(ctx, good)
	require.NoError(t, err, "a right password after the lock signs in and clears the pair")
	for i := range 5 {
		_, err := f.svc.Authenticate(ctx, bad)
		require.False(t, errors.As(err, &te), "failure %d after the clearing is free", i+1)
	}
	// Tokens are never throttled.
	_, err = f.svc.Authenticate(ctx, auth.Credentials{Token: "0000000000000000000000000000000000000000", RemoteAddr: "192.0.2.1"})
	assert.False(t, errors.As(err, &te))
}

// One address trying a few passwords on each of many accounts is held to
// its own budget: past AddressFree failures it is locked for every
// account, while other addresses are not.
func TestThrottleAddressBudget(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFixture(t, ":memory:")
	f.user(t, "kim", false)
	free := auth.DefaultThrottle.AddressFree
	var te *auth.ThrottledError
	for i := range free {
		_, err := f.svc.Authenticate(ctx, auth.Credentials{Basic: true, Username: fmt.Sprintf("user%d", i/2),
			Password: "guess", RemoteAddr: "203.0.113.5"})
		require.False(t, errors.As(err, &te), "failure %d from the address is free", i+1)
		require.ErrorIs(t, err, forge.ErrUnauthenticated)
	}
	_, err := f.svc.Authenticate(ctx, auth.Credentials{Basic: true, Username: "kim", Password: "kim-password", RemoteAddr: "203.0.113.5"})
	require.True(t, errors.As(err, &te), "the flooding address is locked for every account: %v", err)
	assert.Equal(t, time.Second, te.RetryAfter)
	_, err = f.svc.Authenticate(ctx, auth.Credentials{Basic: true, Username: "kim", Password: "kim-password", RemoteAddr: "203.0.113.6"})
	require.NoError(t, err, "another address is not")
	// IPv6 addresses of one /64 share a budget.
	for i := range free {
		_, err := f.svc.Authenticate(ctx, auth.Credentials{Basic: true, Username: fmt.Sprintf("v%d", i),
			Password: "guess", RemoteAddr: fmt.Sprintf("2001:db8:1:2::%x", i+1)})
		require.False(t, errors.As(err, &te), "failure %d from the network is free", i+1)
	}
	_, err = f.svc.Authenticate(ctx, auth.Credentials{Basic: true, Username: "kim", Password: "kim-password", RemoteAddr: "2001:db8:1:2:ffff::1"})
	require.True(t, errors.As(err, &te), "%v", err)
	_, err = f.svc.Authenticate(ctx, auth.Credentials{Basic: true, Username: "kim", Password: "kim-password", RemoteAddr: "2001:db8:1:3::1"})
	require.NoError(t, err)
}

func TestThrottleAddr(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"192.0.2.1":            "192.0.2.1",
		"::ffff:192.0.2.1":     "192.0.2.1",
		"2001:db8:1:2:3:4:5:6": "2001:db8:1:2::/64",
		"2001:db8:1:2::9%eth0": "2001:db8:1:2::/64",
		"::1":                  "::/64",
		"":                     "",
		"not-an-address":       "not-an-address",
	} {
		assert.Equal(t, want, auth.ThrottleAddr(in), in)
	}
}

func TestReverseProxyAndSudo(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFixture(t, ":memory:")
	mo := f.user(t, "mo", false)

	a, err := f.svc.AuthenticateProxy(ctx, auth.ProxyIdentity{Name: "mo"}, false)
	require.NoError(t, err)
	assert.Equal(t, "mo", a.User.Name)
	assert.Equal(t, forge.AuthReverseProxy, a.Method)
	a, err = f.svc.AuthenticateProxy(ctx, auth.ProxyIdentity{Name: "newbie"}, false)
	require.NoError(t, err)
	assert.False(t, a.IsSignedIn(), "unknown users stay anonymous without auto-registration")
	a, err = f.svc.AuthenticateProxy(ctx, auth.ProxyIdentity{Name: "newbie", Email: "nb@example.com", FullName: "New B"}, true)
	require.NoError(t, err)
	assert.Equal(t, "newbie", a.User.Name)
	assert.Equal(t, "nb@example.com", a.User.Email)
	assert.False(t, a.User.MustChangePassword)
	a, err = f.svc.AuthenticateProxy(ctx, auth.ProxyIdentity{Name: "newbie"}, true)
	require.NoError(t, err)
	assert.Equal(t, "New B", a.User.FullName, "registered once")

	s, err := f.svc.Sudo(ctx, f.root, "mo")
	require.NoError(t, err)
	assert.Equal(t, "mo", s.User.Name)
	assert.Equal(t, "root", s.Sudoer.Name)
	_, err = f.svc.Sudo(ctx, mo, "root")
	assert.EqualError(t, err, "Only administrators allowed to sudo.")
	rootTok, err := f.svc.CreateToken(ctx, f.root, "root", auth.CreateTokenOptions{Name: "po", Scopes: []string{"all", "public-only"}})
	require.NoError(t, err)
	po, err := f.svc.Authenticate(ctx, auth.Credentials{Token: rootTok.Token})
	require.NoError(t, err)
	_, err = f.svc.Sudo(ctx, po, "mo")
	assert.ErrorIs(t, err, forge.ErrForbidden, "public-only tokens have no admin powers")
	_, err = f.svc.Sudo(ctx, f.root, "nobody")
	assert.ErrorIs(t, err, forge.ErrNotFound)
}

// ldap is an ExternalVerifier for tests: a fixed directory.
type ldap map[string]string

func (d ldap) VerifyExternal(_ context.Context, _ *auth.LoginSource, login, password string) error {
	if pw, ok := d[login]; ok && pw == password {
		return nil
	}
	return forge.Errorf(forge.ErrUnauthenticated, "bad credentials")
}

func TestExternalLoginSource(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, err := sqlite.Open(ctx, ":memory:")
	require.NoError(t, err)
	defer db.Close()
	svc, err := auth.New(auth.Config{Store: db.Auth(), Password: fastPasswords, External: ldap{"n.nash": "directory-pw"}})
	require.NoError(t, err)
	no := false
	_, err = svc.EnsureAdmin(ctx, auth.CreateUserOptions{Name: "root", Email: "r@example.com", Password: "rootpassword", MustChangePassword: &no})
	require.NoError(t, err)
	root, err := svc.Authenticate(ctx, auth.Credentials{Basic: true, Username: "root", Password: "rootpassword"})
	require.NoError(t, err)

	src, err := svc.CreateLoginSource(ctx, root, auth.LoginSource{Type: auth.SourceLDAP, Name: "corp", IsActive: true})
	require.NoError(t, err)
	_, err = svc.CreateUser(ctx, root, auth.CreateUserOptions{Name: "nash", Email: "nash@example.com",
		LoginSource: src.ID, LoginName: "n.nash", MustChangePassword: &no})
	require.NoError(t, err, "an external account needs no password")
	_, err = svc.CreateUser(ctx, root, auth.CreateUserOptions{Name: "local", Email: "l@example.com"})
	assert.ErrorIs(t, err, auth.ErrPasswordPolicy, "a local account does")

	a, err := svc.Authenticate(ctx, auth.Credentials{Basic: true, Username: "nash", Password: "directory-pw"})
	require.NoError(t, err)
	assert.Equal(t, "nash", a.User.Name)
	_, err = svc.Authenticate(ctx, auth.Credentials{Basic: true, Username: "nash", Password: "wrong"})
	assert.EqualError(t, err, "user's password is invalid [uid: 2, name: nash]")

	list, err := svc.LoginSources(ctx, root)
	require.NoError(t, err)
	assert.Len(t, list, 1)
	_, err = svc.LoginSources(ctx, a)
	assert.ErrorIs(t, err, forge.ErrForbidden)
}

func TestRenameUser(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFixture(t, ":memory:")
	f.user(t, "oz", false)
	f.user(t, "pat", false)
	renamed, err := f.svc.RenameUser(ctx, f.root, "oz", "Oscar")
	require.NoError(t, err)
	assert.Equal(t, "Oscar", renamed.Name, "the state after the write")
	u, err := f.svc.User(ctx, f.root, "oscar")
	require.NoError(t, err)
	assert.Equal(t, "Oscar", u.Name)
	assert.ErrorIs(t, rename(f, ctx, f.root, "oz", "x"), forge.ErrNotFound)
	assert.EqualError(t, rename(f, ctx, f.root, "oscar", "PAT"), "user already exists [name: PAT]")
	assert.ErrorIs(t, rename(f, ctx, f.root, "oscar", "bad name"), forge.ErrInvalid)
	require.NoError(t, rename(f, ctx, f.root, "oscar", "OSCAR"), "a change of case is a rename")
	_, err = f.svc.Authenticate(ctx, auth.Credentials{Basic: true, Username: "OSCAR", Password: "oz-password"})
	assert.NoError(t, err)
}

func rename(f *fixture, ctx context.Context, actor forge.Actor, name, newName string) error {
	_, err := f.svc.RenameUser(ctx, actor, name, newName)
	return err
}
