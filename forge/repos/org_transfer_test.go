package repos_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/forgetest"
	"github.com/hearthforge/hearth/forge/repos"
)

// TestTransferWithOrgs: into an organisation (at once for its owners,
// pending otherwise and accepted by its owners), team_ids, out of an
// organisation (its teams lose the repository), and the refusals.
func TestTransferWithOrgs(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newOrgEnv(t)
	alice := e.user(t, "alice")
	boss := e.user(t, "boss")
	carol := e.user(t, "carol")
	acme := e.org(t, "acme", forge.VisibilityPublic, boss, alice)
	hidden := e.org(t, "hidden", forge.VisibilityPrivate, boss)
	readers := e.team(t, acme, &forge.Team{Name: "readers", Mode: forge.AccessModeRead, Units: allUnits(forge.AccessModeRead)}, carol)
	other := e.team(t, hidden, &forge.Team{Name: "other", Mode: forge.AccessModeRead, Units: allUnits(forge.AccessModeRead)})

	mk := func(owner forge.Actor, name string) {
		_, err := e.svc.Create(ctx, owner, "", repos.CreateOptions{Name: name})
		require.NoError(t, err)
	}
	// alice owns acme: her repository moves at once, with team_ids; a
	// collaborator who is a member of acme stops being one.
	mk(alice, "tool")
	require.NoError(t, e.svc.AddCollaborator(ctx, alice, "alice", "tool", "carol", forge.AccessModeWrite))
	_, err := e.svc.StartTransfer(ctx, alice, "alice", "tool", "acme", []forge.ID{other.ID})
	assert.ErrorIs(t, err, forge.ErrForbidden)
	assert.EqualError(t, err, "team "+itoa(other.ID)+" belongs not to org "+itoa(acme.ID), "a team of another organisation (Forgejo's 403)")
	_, err = e.svc.StartTransfer(ctx, alice, "alice", "tool", "acme", []forge.ID{99999})
	assert.ErrorIs(t, err, forge.ErrInvalid)
	assert.EqualError(t, err, "team 99999 not found")
	v, err := e.svc.StartTransfer(ctx, alice, "alice", "tool", "acme", []forge.ID{readers.ID})
	require.NoError(t, err)
	assert.Equal(t, acme.ID, v.Repo.OwnerID)
	assert.ElementsMatch(t, []string{"Owners", "readers"}, e.teamsOf(t, acme, v.Repo.ID))
	collabs, _, err := e.svc.ListCollaborators(ctx, alice, "acme", "tool", forge.ListOptions{Page: 1, Limit: 10})
	require.NoError(t, err)
	assert.Empty(t, collabs, "carol is a member of acme now")
	got, err := e.svc.Get(ctx, carol, "acme", "tool")
	require.NoError(t, err)
	assert.Equal(t, forge.AccessModeRead, got.Perm.Mode, "through the readers team")

	// Out of the organisation: its teams lose it.
	v, err = e.svc.StartTransfer(ctx, boss, "acme", "tool", "boss", nil)
	require.NoError(t, err)
	assert.Equal(t, boss.User.ID, v.Repo.OwnerID)
	assert.Empty(t, e.teamsOf(t, acme, v.Repo.ID))

	// carol is in acme but may not create repositories there: pending,
	// accepted by an owner of acme (not by carol).
	mk(carol, "gift")
	v, err = e.svc.StartTransfer(ctx, carol, "carol", "gift", "acme", []forge.ID{readers.ID})
	require.NoError(t, err)
	assert.Equal(t, carol.User.ID, v.Repo.OwnerID, "pending")
	// The pending transfer keeps its teams, and lists them.
	pending, err := e.svc.PendingTransfer(ctx, carol, v.Repo.ID)
	require.NoError(t, err)
	require.Len(t, pending.Teams, 1)
	assert.Equal(t, "readers", pending.Teams[0].Name)
	assert.Equal(t, []forge.ID{readers.ID}, pending.TeamIDs)
	_, err = e.svc.AcceptTransfer(ctx, carol, "carol", "gift")
	assert.ErrorIs(t, err, forge.ErrForbidden)
	v, err = e.svc.AcceptTransfer(ctx, alice, "carol", "gift")
	require.NoError(t, err)
	assert.Equal(t, acme.ID, v.Repo.OwnerID)
	assert.ElementsMatch(t, []string{"Owners", "readers"}, e.teamsOf(t, acme, v.Repo.ID), "team_ids applied on acceptance")

	// Refusals.
	mk(carol, "mine")
	for _, c := range []struct {
		name  string
		to    string
		teams []forge.ID
		kind  error
		msg   string
	}{
		{"unknown", "nobody", nil, forge.ErrNotFound, "The new owner does not exist or cannot be found"},
		{"private organisation of others", "hidden", nil, forge.ErrNotFound, "The new owner does not exist or cannot be found"},
		{"teams for a user", "alice", []forge.ID{readers.ID}, forge.ErrInvalid, "Teams can only be added to organization-owned repositories"},
		{"empty teams for a user", "alice", []forge.ID{}, forge.ErrInvalid, "Teams can only be added to organization-owned repositories"},
	} {
		_, err := e.svc.StartTransfer(ctx, carol, "carol", "mine", c.to, c.teams)
		assert.ErrorIs(t, err, c.kind, c.name)
		if err != nil {
			assert.Equal(t, c.msg, err.Error(), c.name)
		}
	}
	// A member of a team without owner rights may not transfer acme's
	// repositories.
	_, err = e.svc.StartTransfer(ctx, carol, "acme", "gift", "carol", nil)
	assert.ErrorIs(t, err, forge.ErrForbidden)
}

// TestForkIntoOrg: members fork into their organisation, the fork joins
// the teams that include all repositories; non-members and non-orgs are
// refused.
func TestForkIntoOrg(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newOrgEnv(t)
	alice := e.user(t, "alice")
	bob := e.user(t, "bob")
	root := e.user(t, "root", forgetest.Admin)
	acme := e.org(t, "acme", forge.VisibilityPublic, alice)
	e.member(t, acme, bob)
	_, err := e.svc.Create(ctx, alice, "", repos.CreateOptions{Name: "lib", AutoInit: true, Readme: "Default"})
	require.NoError(t, err)

	v, err := e.svc.ForkInto(ctx, bob, "alice", "lib", "", "acme")
	require.NoError(t, err)
	assert.Equal(t, acme.ID, v.Repo.OwnerID)
	assert.Equal(t, "acme", v.Repo.OwnerName)
	assert.NotZero(t, v.Repo.ForkID)
	assert.Equal(t, forge.AccessModeAdmin, v.Perm.Mode, "the forker administers the fork as a collaborator")
	assert.ElementsMatch(t, []string{"Owners"}, e.teamsOf(t, acme, v.Repo.ID))
	got, err := e.svc.Get(ctx, alice, "acme", "lib")
	require.NoError(t, err)
	assert.Equal(t, forge.AccessModeOwner, got.Perm.Mode)

	_, err = e.svc.ForkInto(ctx, alice, "alice", "lib", "", "acme")
	assert.ErrorIs(t, err, forge.ErrConflict, "acme already has a fork")
	stranger := e.user(t, "stranger")
	_, err = e.svc.ForkInto(ctx, stranger, "alice", "lib", "lib2", "acme")
	assert.EqualError(t, err, "user is no member of organisation 'acme'")
	_, err = e.svc.ForkInto(ctx, stranger, "alice", "lib", "", "bob")
	assert.EqualError(t, err, "org does not exist [id: 0, name: bob]")
	assert.ErrorIs(t, err, forge.ErrInvalid)
	e.org(t, "beta", forge.VisibilityPublic)
	v, err = e.svc.ForkInto(ctx, root, "alice", "lib", "", "beta")
	require.NoError(t, err, "site administrators fork into any organisation")
	assert.Equal(t, forge.AccessModeOwner, v.Perm.Mode)
}

// TestTransferNeedsOwnerMode is the domain's own check of Forgejo's
// reqOwner on a transfer, for Go callers that pass no HTTP gate: an admin
// collaborator and a member of a write team of the owning organisation
// are refused (`user should be the owner of the repo`), a member of a
// team of admin mode is an owner of the team's repositories (Forgejo's
// GetUserRepoPermission) and may.
func TestTransferNeedsOwnerMode(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newOrgEnv(t)
	boss := e.user(t, "boss")
	tadmin := e.user(t, "tadmin")
	writer := e.user(t, "writer")
	cadmin := e.user(t, "cadmin")
	acme := e.org(t, "acme", forge.VisibilityPublic, boss)
	e.team(t, acme, &forge.Team{Name: "admins", Mode: forge.AccessModeAdmin, Units: allUnits(forge.AccessModeAdmin), IncludesAllRepos: true}, tadmin)
	e.team(t, acme, &forge.Team{Name: "writers", Mode: forge.AccessModeWrite, Units: allUnits(forge.AccessModeWrite), IncludesAllRepos: true}, writer)
	_, err := e.svc.CreateInOrg(ctx, boss, "acme", repos.CreateOptions{Name: "vault", Private: true})
	require.NoError(t, err)
	require.NoError(t, e.svc.AddCollaborator(ctx, boss, "acme", "vault", "cadmin", forge.AccessModeAdmin))
	for _, who := range []forge.Actor{cadmin, writer} {
		_, err := e.svc.StartTransfer(ctx, who, "acme", "vault", who.User.Name, nil)
		assert.ErrorIs(t, err, forge.ErrForbidden, who.User.Name)
		assert.EqualError(t, err, "user should be the owner of the repo", who.User.Name)
	}
	v, err := e.svc.StartTransfer(ctx, tadmin, "acme", "vault", "tadmin", nil)
	require.NoError(t, err)
	assert.Equal(t, tadmin.User.ID, v.Repo.OwnerID, "a member of an admin team is an owner, as in Forgejo")
}
