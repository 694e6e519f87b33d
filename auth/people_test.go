package auth_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/storage/memstore"
)

// newPeople is an auth service on a memstore with cfg's e-mail rules, its
// ports, and the actors root (administrator), ann and bob.
func newPeople(t *testing.T, cfg auth.Config) (*auth.Service, *auth.Ports, map[string]forge.Actor) {
	t.Helper()
	ctx := context.Background()
	cfg.Store, cfg.Password = memstore.New().Auth(), fastPasswords
	svc, ports, err := auth.NewWithPorts(cfg)
	require.NoError(t, err)
	no := false
	_, err = svc.EnsureAdmin(ctx, auth.CreateUserOptions{Name: "root", Email: "root@example.com", Password: "rootpassword", MustChangePassword: &no})
	require.NoError(t, err)
	actors := map[string]forge.Actor{}
	for _, n := range []string{"root", "ann", "bob"} {
		if n != "root" {
			_, err := svc.CreateUser(ctx, actors["root"], auth.CreateUserOptions{Name: n, Email: n + "@example.com", Password: n + "-password1", MustChangePassword: &no})
			require.NoError(t, err)
		}
		pw := n + "-password1"
		if n == "root" {
			pw = "rootpassword"
		}
		a, err := svc.Authenticate(ctx, auth.Credentials{Basic: true, Username: n, Password: pw})
		require.NoError(t, err)
		actors[n] = a
	}
	return svc, ports, actors
}

// TestEmailDomainRules: the allow list, when set, is the only domains
// accepted (globs, ignoring case); else the block list refuses its
// domains; both answer Forgejo's `Email address "<e>" invalid`.
func TestEmailDomainRules(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, c := range []struct {
		name         string
		allow, block []string
		ok, refused  []string
	}{
		{"allow", []string{"*.Example.org", "corp.test"}, []string{"corp.test"},
			[]string{"a@mail.example.org", "b@CORP.test"}, []string{"c@example.org", "d@other.test"}},
		{"block", nil, []string{"spam.test", "*.spam.test"},
			[]string{"a@example.org", "b@notspam.test"}, []string{"c@spam.test", "d@x.SPAM.test"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			svc, _, as := newPeople(t, auth.Config{EmailDomainAllowList: c.allow, EmailDomainBlockList: c.block})
			for _, e := range c.ok {
				_, err := svc.AddEmails(ctx, as["ann"], []string{e})
				assert.NoError(t, err, e)
			}
			for _, e := range c.refused {
				_, err := svc.AddEmails(ctx, as["ann"], []string{e})
				assert.ErrorIs(t, err, auth.ErrEmailInvalid, e)
				assert.ErrorIs(t, err, forge.ErrInvalid, e)
				assert.EqualError(t, err, `Email address "`+e+`" invalid`)
			}
		})
	}
}

// TestActivatedEmails: the port lists a user's verified addresses, the
// primary one first while the account is active; with EmailConfirm, added
// addresses are not verified and not listed.
func TestActivatedEmails(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	svc, ports, as := newPeople(t, auth.Config{})
	_, err := svc.AddEmails(ctx, as["ann"], []string{"ann@work.test"})
	require.NoError(t, err)
	got, err := ports.ActivatedEmails(ctx, as["ann"].User.ID)
	require.NoError(t, err)
	assert.Equal(t, []string{"ann@example.com", "ann@work.test"}, got)
	no := false
	_, err = svc.EditUser(ctx, as["root"], "ann", auth.EditUserOptions{Active: &no})
	require.NoError(t, err)
	got, err = ports.ActivatedEmails(ctx, as["ann"].User.ID)
	require.NoError(t, err)
	assert.Equal(t, []string{"ann@work.test"}, got, "an inactive account's primary address is not activated")
	_, err = ports.ActivatedEmails(ctx, 9999)
	assert.ErrorIs(t, err, forge.ErrNotFound)

	svc, ports, as = newPeople(t, auth.Config{EmailConfirm: true})
	list, err := svc.AddEmails(ctx, as["bob"], []string{"bob@work.test"})
	require.NoError(t, err)
	assert.False(t, list[1].Verified)
	got, err = ports.ActivatedEmails(ctx, as["bob"].User.ID)
	require.NoError(t, err)
	assert.Equal(t, []string{"bob@example.com"}, got)
}

// TestAdminChangesPrimaryEmail: an administrator making a further address
// primary keeps the old primary one as a further address, as Forgejo's
// AdminAddOrSetPrimaryEmailAddress, and the address is listed once.
func TestAdminChangesPrimaryEmail(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	svc, _, as := newPeople(t, auth.Config{})
	_, err := svc.AddEmails(ctx, as["ann"], []string{"ann@work.test"})
	require.NoError(t, err)
	work := "ANN@work.test"
	_, err = svc.EditUser(ctx, as["root"], "ann", auth.EditUserOptions{Email: &work})
	require.NoError(t, err)
	list, err := svc.UserEmails(ctx, as["root"], "ann")
	require.NoError(t, err)
	var got []string
	for _, e := range list {
		got = append(got, e.Email)
	}
	assert.Equal(t, []string{"ANN@work.test", "ann@example.com"}, got)
	_, err = svc.AddEmails(ctx, as["bob"], []string{"ann@example.com"})
	assert.ErrorIs(t, err, auth.ErrEmailUsed, "the old primary address is still ann's")
}
