package quota_test

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/forgetest"
	"github.com/hearthforge/hearth/quota"
	"github.com/hearthforge/hearth/storage/memstore"
)

// ownerOf answers quota.OrgRoles: the account named org is an
// organisation owned by the user named "owner".
type ownerOf struct{ st *memstore.Store }

func (o ownerOf) MemberRole(ctx context.Context, actor forge.Actor, org string) (u *forge.User, owner, member bool, err error) {
	err = o.st.Auth().View(ctx, func(tx auth.Tx) (err error) { u, err = tx.UserByName(ctx, org); return err })
	isOwner := actor.User != nil && actor.User.Name == "owner"
	return u, isOwner, isOwner, err
}

// TestServiceRules: the Service checks what the API checks, for a Go
// caller: scopes, sign-in, site administrators, organisation owners;
// user views hide names.
func TestServiceRules(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := memstore.New()
	users := map[string]*forge.User{}
	for _, n := range []string{"ann", "owner", "root", "acme"} {
		u := forgetest.User(n)
		if n == "root" {
			forgetest.Admin(u)
		}
		require.NoError(t, st.Auth().Update(ctx, func(tx auth.Tx) error { return tx.CreateUser(ctx, u, "") }))
		users[n] = u
	}
	svc, err := quota.New(quota.ServiceConfig{Store: st.Quota(), Quota: quota.Config{Enabled: true}, Orgs: ownerOf{st}})
	require.NoError(t, err)
	_, err = quota.New(quota.ServiceConfig{})
	assert.ErrorIs(t, err, forge.ErrInvalid)
	ann, root := forgetest.ActorFor(users["ann"]), forgetest.ActorFor(users["root"])

	_, err = svc.Info(ctx, forge.Anonymous, quota.Target{})
	assert.ErrorIs(t, err, forge.ErrUnauthenticated)
	_, err = svc.Info(ctx, forgetest.TokenActor(users["ann"], "read:repository"), quota.Target{})
	assert.EqualError(t, err, "token does not have at least one of required scope(s): [read:user]")
	_, err = svc.Info(ctx, ann, quota.Target{Org: "acme"})
	assert.EqualError(t, err, "Must be an organization owner")
	_, err = svc.Info(ctx, forgetest.ActorFor(users["owner"]), quota.Target{Org: "acme"})
	assert.NoError(t, err)
	_, err = svc.Info(ctx, root, quota.Target{Org: "acme"})
	assert.NoError(t, err, "site administrators pass")

	_, err = svc.CreateRule(ctx, ann, quota.RuleOption{Name: "r", Limit: new(int64)})
	assert.EqualError(t, err, "user should be the site admin")
	_, err = svc.CreateRule(ctx, forgetest.TokenActor(users["root"], "read:admin"), quota.RuleOption{Name: "r", Limit: new(int64)})
	assert.ErrorIs(t, err, forge.ErrForbidden)
	_, err = svc.CreateGroup(ctx, root, quota.GroupOption{Name: "g", Rules: []quota.RuleOption{{Name: "r", Subjects: []string{"size:all"}}}})
	require.NoError(t, err)
	require.NoError(t, svc.SetUserGroups(ctx, root, "ann", []string{"g"}))

	info, err := svc.Info(ctx, ann, quota.Target{})
	require.NoError(t, err)
	assert.Equal(t, []quota.Group{{Rules: []quota.Rule{{Limit: 0, Subjects: []quota.Subject{quota.SubjectAll}}}}}, info.Groups, "names hidden")
	info, err = svc.AdminInfo(ctx, root, "ann")
	require.NoError(t, err)
	assert.Equal(t, "g", info.Groups[0].Name)
	ok, err := svc.Check(ctx, ann, quota.Target{}, "size:all")
	assert.False(t, ok, "limit 0 denies even with no usage")
	assert.NoError(t, err)
	_, err = svc.Check(ctx, ann, quota.Target{}, "")
	assert.EqualError(t, err, "unrecognized quota limit subject: [subject: ]")

	require.NoError(t, svc.SetUserGroups(ctx, root, "ann", nil), "nil: no change (Forgejo's quirk)")
	info, _ = svc.AdminInfo(ctx, root, "ann")
	assert.Len(t, info.Groups, 1)
	err = svc.SetUserGroups(ctx, root, "ann", []string{"g", "g"})
	assert.ErrorIs(t, err, forge.ErrConflict)
	info, _ = svc.AdminInfo(ctx, root, "ann")
	assert.Len(t, info.Groups, 1, "nothing changed")

	d, err := svc.Recount(ctx, root, users["ann"].ID)
	require.NoError(t, err)
	assert.True(t, d.None())
	_, err = svc.Recount(ctx, ann, users["ann"].ID)
	assert.True(t, errors.Is(err, forge.ErrForbidden))
}
