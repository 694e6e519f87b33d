package auth_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/forgetest"
	"github.com/hearthforge/hearth/forge/orgs"
	"github.com/hearthforge/hearth/storage/memstore"
)

// orgFixture is the auth service on memstore with a site administrator.
type orgFixture struct {
	svc  *auth.Service
	st   *memstore.Store
	root forge.Actor
}

func newOrgFixture(t *testing.T) *orgFixture {
	t.Helper()
	ctx := context.Background()
	f := &orgFixture{st: memstore.New()}
	var err error
	f.svc, err = auth.New(auth.Config{Store: f.st.Auth(), Clock: forgetest.NewClock(), Password: fastPasswords})
	require.NoError(t, err)
	f.root = forgetest.ActorFor(forgetest.User("root", forgetest.Admin))
	require.NoError(t, f.st.Auth().Update(ctx, func(tx auth.Tx) error { return tx.CreateUser(ctx, f.root.User, "") }))
	return f
}

// person creates a user with a password.
func (f *orgFixture) person(t *testing.T, name string) *forge.User {
	t.Helper()
	no := false
	u, err := f.svc.CreateUser(context.Background(), f.root, auth.CreateUserOptions{Name: name,
		Email: name + "@example.com", Password: name + "-password", MustChangePassword: &no})
	require.NoError(t, err)
	return u
}

// TestOrganisationsNeverAuthenticate: an account of type organisation
// answers every sign-in as an unknown account, even with a password hash or
// a token left from when it was a person.
func TestOrganisationsNeverAuthenticate(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newOrgFixture(t)
	u := f.person(t, "acme")
	tok, err := f.svc.CreateToken(ctx, forgetest.ActorFor(u), "acme", auth.CreateTokenOptions{Name: "t", Scopes: []string{"all"}})
	require.NoError(t, err)
	// It works while acme is a person.
	_, err = f.svc.Authenticate(ctx, auth.Credentials{Basic: true, Username: "acme", Password: "acme-password"})
	require.NoError(t, err)
	_, err = f.svc.Authenticate(ctx, auth.Credentials{Token: tok.Token})
	require.NoError(t, err)

	require.NoError(t, f.st.Auth().Update(ctx, func(tx auth.Tx) error {
		u.Type = forge.UserTypeOrganization
		return tx.UpdateUser(ctx, u)
	}))
	actor, err := f.svc.Authenticate(ctx, auth.Credentials{Basic: true, Username: "acme", Password: "acme-password"})
	assert.ErrorIs(t, err, forge.ErrUnauthenticated)
	assert.EqualError(t, err, "user does not exist [uid: 0, name: acme]")
	assert.False(t, actor.IsSignedIn())
	actor, err = f.svc.Authenticate(ctx, auth.Credentials{Token: tok.Token})
	assert.ErrorIs(t, err, forge.ErrUnauthenticated)
	assert.EqualError(t, err, "access token does not exist [sha: "+tok.Token+"]")
	assert.False(t, actor.IsSignedIn())
	actor, err = f.svc.AuthenticateProxy(ctx, auth.ProxyIdentity{Name: "acme"}, true)
	require.NoError(t, err)
	assert.False(t, actor.IsSignedIn(), "the proxy's name of an organisation stays anonymous")
	_, err = f.svc.Sudo(ctx, f.root, "acme")
	assert.ErrorIs(t, err, forge.ErrNotFound)
}

// TestDeleteUserInOrganisation: a member of an organisation is not deleted
// (Forgejo's ErrUserHasOrgs), nor is an organisation through the user
// route.
func TestDeleteUserInOrganisation(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newOrgFixture(t)
	u := f.person(t, "olga")
	org := &forge.User{Name: "acme", Visibility: forge.VisibilityPublic, IsActive: true}
	require.NoError(t, f.st.Orgs().Update(ctx, func(tx orgs.Tx) error {
		if err := tx.CreateOrg(ctx, org); err != nil {
			return err
		}
		return tx.SetMember(ctx, forge.Membership{OrgID: org.ID, UserID: u.ID})
	}))

	err := f.svc.DeleteUser(ctx, f.root, "olga")
	assert.ErrorIs(t, err, forge.ErrPrecondition)
	assert.EqualError(t, err, fmt.Sprintf("user still has membership of organizations [uid: %d]", u.ID))
	err = f.svc.DeleteUser(ctx, f.root, "acme")
	assert.ErrorIs(t, err, forge.ErrInvalid)
	assert.EqualError(t, err, "acme is an organization not a user")

	require.NoError(t, f.st.Orgs().Update(ctx, func(tx orgs.Tx) error { return tx.DeleteMember(ctx, org.ID, u.ID) }))
	require.NoError(t, f.svc.DeleteUser(ctx, f.root, "olga"))
}

// TestUserListsLeaveOrganisationsOut: the administrators' list and the user
// search list people only.
func TestUserListsLeaveOrganisationsOut(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newOrgFixture(t)
	f.person(t, "alice")
	require.NoError(t, f.st.Orgs().Update(ctx, func(tx orgs.Tx) error {
		return tx.CreateOrg(ctx, &forge.User{Name: "alice-org", Visibility: forge.VisibilityPublic, IsActive: true})
	}))
	users, n, err := f.svc.ListUsers(ctx, f.root, auth.UserFilter{}, forge.ListOptions{})
	require.NoError(t, err)
	assert.EqualValues(t, 2, n)
	for _, u := range users {
		assert.False(t, u.IsOrganization(), u.Name)
	}
	users, n, err = f.svc.SearchUsers(ctx, f.root, auth.SearchUsersOptions{Keyword: "alice"}, forge.ListOptions{})
	require.NoError(t, err)
	assert.EqualValues(t, 1, n)
	assert.Equal(t, "alice", users[0].Name)
}
