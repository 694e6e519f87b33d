package packages_test

import (
	"context"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/forgetest"
	"github.com/hearthforge/hearth/forge/packages"
	"github.com/hearthforge/hearth/storage/blob"
	"github.com/hearthforge/hearth/storage/memstore"
)

// orgRoles answers MemberRole for organisations: owners and members by
// user id; a private organisation is not found for others.
type orgRoles map[string]struct {
	org             *forge.User
	owners, members []forge.ID
}

func (o orgRoles) MemberRole(_ context.Context, actor forge.Actor, name string) (*forge.User, bool, bool, error) {
	e, ok := o[name]
	if !ok {
		return nil, false, false, forge.Errorf(forge.ErrNotFound, "org does not exist")
	}
	owner, member := false, false
	for _, id := range e.owners {
		owner = owner || id == actor.UserID()
	}
	for _, id := range e.members {
		member = member || id == actor.UserID()
	}
	member = member || owner
	if !member && e.org.Visibility == forge.VisibilityPrivate {
		return nil, false, false, forge.Errorf(forge.ErrNotFound, "org does not exist")
	}
	return e.org, owner, member, nil
}

// TestAccess is the access rule of an owner's packages for every kind of
// actor, called as a Go program would: the owner writes; an organisation's
// owners write and its members read; others read what the owner's
// visibility shows and get 404 for the rest; tokens need the package
// scope; site administrators do everything.
func TestAccess(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := memstore.New()
	users := map[string]*forge.User{}
	require.NoError(t, st.Auth().Update(ctx, func(tx auth.Tx) error {
		for _, u := range []*forge.User{
			forgetest.User("owner"), forgetest.User("member"), forgetest.User("stranger"),
			forgetest.User("admin", func(u *forge.User) { u.IsAdmin = true }),
			forgetest.User("hidden", func(u *forge.User) { u.Visibility = forge.VisibilityPrivate }),
			forgetest.User("limited", func(u *forge.User) { u.Visibility = forge.VisibilityLimited }),
			forgetest.User("org", func(u *forge.User) { u.Type = forge.UserTypeOrganization }),
			forgetest.User("secret", func(u *forge.User) { u.Type, u.Visibility = forge.UserTypeOrganization, forge.VisibilityPrivate }),
		} {
			if err := tx.CreateUser(ctx, u, "h"); err != nil {
				return err
			}
			users[u.Name] = u
		}
		return nil
	}))
	orgs := orgRoles{}
	for _, name := range []string{"org", "secret"} {
		orgs[name] = struct {
			org             *forge.User
			owners, members []forge.ID
		}{users[name], []forge.ID{users["owner"].ID}, []forge.ID{users["member"].ID}}
	}
	blobs, err := blob.OpenDir(t.TempDir())
	require.NoError(t, err)
	svc, err := packages.New(packages.Config{Store: st.Packages(), Blobs: blobs, Orgs: orgs})
	require.NoError(t, err)
	as := func(name string) forge.Actor { return forgetest.ActorFor(users[name]) }
	readOnly := as("owner")
	readOnly.Scoped, readOnly.Scope = true, mustScope(t, "read:package")

	upload := func(a forge.Actor, owner string) error {
		_, err := svc.UploadGeneric(ctx, a, owner, "p", "1", "f-"+a.User.Name, strings.NewReader("x"))
		return err
	}
	read := func(a forge.Actor, owner string) error {
		_, _, err := svc.List(ctx, a, owner, packages.Filter{}, forge.ListOptions{})
		return err
	}
	for _, tc := range []struct {
		actor       forge.Actor
		owner       string
		write, read error
	}{
		{as("owner"), "owner", nil, nil},
		{as("stranger"), "owner", packages.ErrNoAccess, nil},
		{forge.Anonymous, "owner", forge.ErrUnauthenticated, nil},
		{as("admin"), "owner", nil, nil},
		{readOnly, "owner", forge.ErrForbidden, nil},
		{as("stranger"), "hidden", packages.ErrOwnerNotFound, packages.ErrOwnerNotFound},
		{as("hidden"), "hidden", nil, nil},
		{as("admin"), "hidden", nil, nil},
		{as("stranger"), "limited", packages.ErrNoAccess, nil},
		{forge.Anonymous, "limited", packages.ErrOwnerNotFound, packages.ErrOwnerNotFound},
		{as("owner"), "org", nil, nil},
		{as("member"), "org", packages.ErrNoAccess, nil},
		{as("stranger"), "org", packages.ErrNoAccess, nil},
		{as("owner"), "secret", nil, nil},
		{as("member"), "secret", packages.ErrNoAccess, nil},
		{as("stranger"), "secret", packages.ErrOwnerNotFound, packages.ErrOwnerNotFound},
		{forge.Anonymous, "secret", packages.ErrOwnerNotFound, packages.ErrOwnerNotFound},
		{as("owner"), "nobody", packages.ErrOwnerNotFound, packages.ErrOwnerNotFound},
	} {
		name := "anonymous"
		if tc.actor.User != nil {
			name = tc.actor.User.Name
		}
		if tc.actor.User != nil || tc.write == nil {
			checkErr(t, tc.write, upload(tc.actor, tc.owner), "%s writes %s's", name, tc.owner)
		} else {
			_, err := svc.UploadGeneric(ctx, tc.actor, tc.owner, "p", "1", "anon", strings.NewReader("x"))
			checkErr(t, tc.write, err, "anonymous writes %s's", tc.owner)
		}
		checkErr(t, tc.read, read(tc.actor, tc.owner), "%s reads %s's", name, tc.owner)
	}

	// What a refused writer sent is not kept.
	rc, f, err := svc.DownloadGeneric(ctx, as("owner"), "owner", "p", "1", "f-owner")
	require.NoError(t, err)
	b, _ := io.ReadAll(rc)
	rc.Close()
	assert.Equal(t, "x", string(b))
	assert.EqualValues(t, 1, f.Size)
	_, _, err = svc.DownloadGeneric(ctx, as("owner"), "owner", "p", "1", "f-stranger")
	assert.ErrorIs(t, err, packages.ErrFileNotFound)
}

func checkErr(t *testing.T, want, got error, format string, args ...any) {
	t.Helper()
	if want == nil {
		assert.NoError(t, got, append([]any{format}, args...)...)
		return
	}
	assert.ErrorIs(t, got, want, append([]any{format}, args...)...)
}

func mustScope(t *testing.T, s string) forge.Scope {
	t.Helper()
	sc, err := forge.ParseScope(s)
	require.NoError(t, err)
	return sc
}
