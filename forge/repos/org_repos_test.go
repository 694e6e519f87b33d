package repos_test

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/forgetest"
	"github.com/hearthforge/hearth/forge/repos"
)

func TestCreateInOrg(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newOrgEnv(t)
	owner := e.user(t, "owner")
	creator := e.user(t, "creator")
	plain := e.user(t, "plain")
	stranger := e.user(t, "stranger")
	root := e.user(t, "root", forgetest.Admin)
	acme := e.org(t, "acme", forge.VisibilityPublic, owner)
	secret := e.org(t, "secret", forge.VisibilityPrivate, owner)
	e.team(t, acme, &forge.Team{Name: "makers", Mode: forge.AccessModeWrite, CanCreateOrgRepo: true,
		Units: allUnits(forge.AccessModeWrite)}, creator)
	e.team(t, acme, &forge.Team{Name: "readers", Mode: forge.AccessModeRead, IncludesAllRepos: true,
		Units: allUnits(forge.AccessModeRead)}, plain)

	// An owner creates: the repository joins the teams that include all
	// repositories; the owner needs no collaborator row.
	v, err := e.svc.CreateInOrg(ctx, owner, "ACME", repos.CreateOptions{Name: "tool"})
	require.NoError(t, err)
	assert.Equal(t, acme.ID, v.Repo.OwnerID)
	assert.Equal(t, "acme", v.Repo.OwnerName)
	assert.Equal(t, forge.AccessModeOwner, v.Perm.Mode)
	assert.ElementsMatch(t, []string{"Owners", "readers"}, e.teamsOf(t, acme, v.Repo.ID))
	collabs, _, err := e.svc.ListCollaborators(ctx, owner, "acme", "tool", forge.ListOptions{Page: 1, Limit: 10})
	require.NoError(t, err)
	assert.Empty(t, collabs)

	// A member of a team that may create repositories becomes an admin
	// collaborator of what it creates.
	v, err = e.svc.CreateInOrg(ctx, creator, "acme", repos.CreateOptions{Name: "made", Private: true})
	require.NoError(t, err)
	assert.Equal(t, forge.AccessModeAdmin, v.Perm.Mode)
	assert.True(t, v.CanWrite())
	collabs, _, err = e.svc.ListCollaborators(ctx, owner, "acme", "made", forge.ListOptions{Page: 1, Limit: 10})
	require.NoError(t, err)
	require.Len(t, collabs, 1)
	assert.Equal(t, "creator", collabs[0].User.Name)
	assert.Equal(t, forge.AccessModeAdmin, collabs[0].Mode)
	// The readers team (all repositories) reads the new private one.
	got, err := e.svc.Get(ctx, plain, "acme", "made")
	require.NoError(t, err)
	assert.Equal(t, forge.AccessModeRead, got.Perm.Mode)

	// A site administrator creates anywhere and becomes no collaborator.
	v, err = e.svc.CreateInOrg(ctx, root, "secret", repos.CreateOptions{Name: "hidden"})
	require.NoError(t, err)
	assert.ElementsMatch(t, []string{"Owners"}, e.teamsOf(t, secret, v.Repo.ID))
	collabs, _, err = e.svc.ListCollaborators(ctx, owner, "secret", "hidden", forge.ListOptions{Page: 1, Limit: 10})
	require.NoError(t, err)
	assert.Empty(t, collabs)

	for _, c := range []struct {
		name  string
		actor forge.Actor
		org   string
		kind  error
		msg   string
	}{
		{"plain member", plain, "acme", forge.ErrForbidden, "Given user is not allowed to create repository in organization."},
		{"stranger, public org", stranger, "acme", forge.ErrForbidden, "Given user is not allowed to create repository in organization."},
		{"stranger, private org", stranger, "secret", forge.ErrNotFound, "HasOrgOrUserVisible"},
		{"a user, not an organisation", owner, "creator", forge.ErrInvalid, "org does not exist [id: 0, name: creator]"},
		{"unknown", owner, "nope", forge.ErrInvalid, "org does not exist [id: 0, name: nope]"},
		{"token without write:organization", forgetest.TokenActor(owner.User, "write:repository"), "acme", forge.ErrForbidden,
			"token does not have at least one of required scope(s): [write:organization]"},
		{"anonymous", forge.Anonymous, "acme", forge.ErrUnauthenticated, "token is required"},
	} {
		_, err := e.svc.CreateInOrg(ctx, c.actor, c.org, repos.CreateOptions{Name: "refused"})
		assert.ErrorIs(t, err, c.kind, c.name)
		if err != nil {
			assert.Equal(t, c.msg, err.Error(), c.name)
		}
	}
	// Nothing was stored by the refusals.
	list, total, err := e.svc.List(ctx, root, repos.RepoFilter{}, forge.ListOptions{Page: 1, Limit: 50})
	require.NoError(t, err)
	assert.EqualValues(t, 3, total)
	assert.Len(t, list, 3)
}

// TestOrgRepoAccess drives the permission through the service: team
// units, private organisations, listings.
func TestOrgRepoAccess(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newOrgEnv(t)
	owner := e.user(t, "owner")
	triager := e.user(t, "triager")
	writer := e.user(t, "writer")
	member := e.user(t, "member")
	stranger := e.user(t, "stranger")
	rita := e.user(t, "rita", func(u *forge.User) { u.Restricted = true })
	acme := e.org(t, "acme", forge.VisibilityPrivate, owner)
	priv, err := e.svc.CreateInOrg(ctx, owner, "acme", repos.CreateOptions{Name: "priv", Private: true, AutoInit: true, Readme: "Default"})
	require.NoError(t, err)
	_, err = e.svc.CreateInOrg(ctx, owner, "acme", repos.CreateOptions{Name: "pub", AutoInit: true, Readme: "Default"})
	require.NoError(t, err)
	triage := e.team(t, acme, &forge.Team{Name: "triage", Mode: forge.AccessModeRead,
		Units: map[forge.Unit]forge.AccessMode{forge.UnitCode: forge.AccessNone, forge.UnitIssues: forge.AccessModeWrite}}, triager)
	e.give(t, triage, priv.Repo.ID)
	writers := e.team(t, acme, &forge.Team{Name: "writers", Mode: forge.AccessModeWrite, Units: allUnits(forge.AccessModeWrite)}, writer, rita)
	e.give(t, writers, priv.Repo.ID)
	e.member(t, acme, member)

	// The triager sees the private repository (issues) but not its code.
	v, err := e.svc.Get(ctx, triager, "acme", "priv")
	require.NoError(t, err)
	assert.False(t, v.CanRead(), "no code")
	assert.True(t, v.Perm.CanWrite(forge.UnitIssues))
	_, _, err = e.svc.Branches(ctx, triager, "acme", "priv")
	assert.ErrorIs(t, err, forge.ErrForbidden)
	assert.EqualError(t, err, "user should have specific read permission or be a repo admin or a site admin")
	_, _, access, err := repoAccess(e, triager, "acme", "priv")
	require.NoError(t, err)
	assert.Equal(t, forge.AccessModeWrite, access.Unit(forge.UnitIssues), "RepoAccess returns the full permission")

	// A writer reads and writes the code; a restricted writer too.
	for _, a := range []forge.Actor{writer, rita} {
		v, err = e.svc.Get(ctx, a, "acme", "priv")
		require.NoError(t, err, a.User.Name)
		assert.True(t, v.CanWrite(), a.User.Name)
		assert.False(t, v.IsAdmin(), a.User.Name)
		_, _, err = e.svc.Branches(ctx, a, "acme", "priv")
		assert.NoError(t, err, a.User.Name)
	}
	// A member without a team reads the public repository of the
	// private organisation, not the private one; a restricted member
	// neither.
	_, err = e.svc.Get(ctx, member, "acme", "pub")
	assert.NoError(t, err)
	_, err = e.svc.Get(ctx, member, "acme", "priv")
	assert.ErrorIs(t, err, repos.ErrRepoNotFound)
	_, err = e.svc.Get(ctx, rita, "acme", "pub")
	assert.ErrorIs(t, err, repos.ErrRepoNotFound)
	// Strangers do not see the private organisation at all.
	for _, name := range []string{"pub", "priv", "nope"} {
		_, err = e.svc.Get(ctx, stranger, "acme", name)
		var hidden *repos.OwnerNotFoundError
		assert.True(t, errors.As(err, &hidden), name)
	}

	// The organisation's listing: by the actor's permission.
	names := func(a forge.Actor) []string {
		list, total, err := e.svc.List(ctx, a, repos.RepoFilter{OwnerID: acme.ID}, forge.ListOptions{Page: 1, Limit: 10})
		require.NoError(t, err)
		assert.EqualValues(t, len(list), total)
		var out []string
		for _, v := range list {
			out = append(out, v.Repo.Name)
		}
		return out
	}
	assert.ElementsMatch(t, []string{"priv", "pub"}, names(owner))
	assert.ElementsMatch(t, []string{"priv", "pub"}, names(writer))
	assert.ElementsMatch(t, []string{"priv"}, names(rita))
	assert.ElementsMatch(t, []string{"pub"}, names(member))
	assert.Empty(t, names(stranger))
	list, _, err := e.svc.List(ctx, triager, repos.RepoFilter{OwnerID: acme.ID}, forge.ListOptions{Page: 1, Limit: 10})
	require.NoError(t, err)
	for _, v := range list {
		if v.Repo.Name == "priv" {
			assert.False(t, v.CanRead(), "the page carries each repository's permission")
			assert.True(t, v.Perm.CanWrite(forge.UnitIssues))
		}
	}
	orgNames := func(a forge.Actor) []string {
		list, _, err := e.svc.ListOrgRepos(ctx, a, "ACME", forge.ListOptions{Page: 1, Limit: 10})
		require.NoError(t, err)
		var out []string
		for _, v := range list {
			out = append(out, v.Repo.Name)
		}
		return out
	}
	assert.Equal(t, []string{"priv", "pub"}, orgNames(writer), "oldest first")
	assert.Equal(t, []string{"pub"}, orgNames(member))
	assert.Equal(t, []string{"priv", "pub"}, orgNames(forgetest.TokenActor(writer.User, "read:organization")),
		"the route's category is organization")
	_, _, err = e.svc.ListOrgRepos(ctx, forgetest.TokenActor(writer.User, "read:repository"), "acme", forge.ListOptions{Page: 1, Limit: 10})
	assert.EqualError(t, err, "token does not have at least one of required scope(s): [read:organization]")
	for _, c := range []struct {
		actor forge.Actor
		org   string
	}{{stranger, "acme"}, {owner, "nope"}, {owner, "owner"}, {forge.Anonymous, "acme"}} {
		_, _, err := e.svc.ListOrgRepos(ctx, c.actor, c.org, forge.ListOptions{Page: 1, Limit: 10})
		var nf *repos.OrgNotFoundError
		assert.True(t, errors.As(err, &nf), c.org)
		assert.ErrorIs(t, err, forge.ErrNotFound)
	}
	_, err = e.svc.OwnerByName(ctx, member, "acme")
	assert.NoError(t, err, "members see their private organisation")
	_, err = e.svc.OwnerByName(ctx, stranger, "acme")
	assert.ErrorIs(t, err, forge.ErrNotFound)
}

func repoAccess(e *orgEnv, a forge.Actor, owner, name string) (*forge.Repository, struct{}, forge.Permission, error) {
	r, p, err := e.svc.RepoAccess(context.Background(), a, owner, name)
	return r, struct{}{}, p, err
}
