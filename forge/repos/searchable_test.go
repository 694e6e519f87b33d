package repos_test

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/forgetest"
	"github.com/hearthforge/hearth/forge/repos"
)

// TestIssueRepos: the repositories an issue search covers, of an owner, of
// a team of an organisation (Forgejo's `team` filter of
// /repos/issues/search), each with the actor's permission, and the
// refusals of unknown owners and teams.
func TestIssueRepos(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newOrgEnv(t)
	owner := e.user(t, "owner")
	dev := e.user(t, "dev")
	stranger := e.user(t, "stranger")
	acme := e.org(t, "acme", forge.VisibilityPublic, owner)
	devs := e.team(t, acme, &forge.Team{Name: "Devs", Mode: forge.AccessModeWrite, Units: allUnits(forge.AccessModeWrite)}, dev)
	e.team(t, acme, &forge.Team{Name: "empty", Mode: forge.AccessModeRead, Units: allUnits(forge.AccessModeRead)})
	pub, err := e.svc.CreateInOrg(ctx, owner, "acme", repos.CreateOptions{Name: "pub"})
	require.NoError(t, err)
	priv, err := e.svc.CreateInOrg(ctx, owner, "acme", repos.CreateOptions{Name: "priv", Private: true})
	require.NoError(t, err)
	_, err = e.svc.CreateInOrg(ctx, owner, "acme", repos.CreateOptions{Name: "other", Private: true})
	require.NoError(t, err)
	mine, err := e.svc.Create(ctx, dev, "dev", repos.CreateOptions{Name: "mine", Private: true})
	require.NoError(t, err)
	e.give(t, devs, priv.Repo.ID)
	e.give(t, devs, pub.Repo.ID)

	names := func(vs []*repos.View) []string {
		out := []string{}
		for _, v := range vs {
			out = append(out, v.Repo.OwnerName+"/"+v.Repo.Name)
		}
		return out
	}
	for _, c := range []struct {
		name        string
		actor       forge.Actor
		owner, team string
		want        []string
	}{
		{"member of a team", dev, "", "", []string{"acme/pub", "acme/priv", "dev/mine"}},
		{"owner filter", dev, "ACME", "", []string{"acme/pub", "acme/priv"}},
		{"team filter, case ignored", dev, "acme", "devs", []string{"acme/pub", "acme/priv"}},
		{"team filter: only what the actor sees", stranger, "acme", "Devs", []string{"acme/pub"}},
		{"a team with no repository", owner, "acme", "empty", []string{}},
		{"stranger", stranger, "", "", []string{"acme/pub"}},
		{"anonymous", forge.Anonymous, "", "", []string{"acme/pub"}},
		{"public-only token", forgetest.TokenActor(dev.User, "read:issue", "public-only"), "", "", []string{"acme/pub"}},
	} {
		got, err := e.svc.IssueRepos(ctx, c.actor, c.owner, c.team)
		require.NoError(t, err, c.name)
		assert.Equal(t, c.want, names(got), c.name)
	}
	got, err := e.svc.IssueRepos(ctx, dev, "", "")
	require.NoError(t, err)
	for _, v := range got {
		if v.Repo.ID == mine.Repo.ID {
			assert.Equal(t, forge.AccessModeOwner, v.Perm.Mode)
		} else {
			assert.True(t, v.Perm.CanWrite(forge.UnitIssues), v.Repo.Name)
		}
	}

	for _, c := range []struct {
		name        string
		owner, team string
		kind        error
		msg         string
	}{
		{"unknown owner", "nosuch", "", forge.ErrNotFound, "user redirect does not exist [name: nosuch]"},
		{"unknown team", "acme", "nosuch", forge.ErrInvalid, fmt.Sprintf("team does not exist [org_id %d, team_id 0, name: nosuch]", acme.ID)},
		{"team without owner", "", "devs", forge.ErrInvalid, "Owner organisation is required for filtering on team"},
	} {
		_, err := e.svc.IssueRepos(ctx, dev, c.owner, c.team)
		assert.ErrorIs(t, err, c.kind, c.name)
		if err != nil {
			assert.Equal(t, c.msg, err.Error(), c.name)
		}
	}
}

// TestIssueReposFixedCost: listing the repositories of an issue search
// runs the same number of SQL statements for 3 repositories as for 120 (no
// walk page by page, no query per repository).
func TestIssueReposFixedCost(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newOrgEnv(t)
	owner := e.user(t, "owner")
	dev := e.user(t, "dev")
	acme := e.org(t, "acme", forge.VisibilityPrivate, owner)
	devs := e.team(t, acme, &forge.Team{Name: "devs", Mode: forge.AccessModeWrite, Units: allUnits(forge.AccessModeWrite)}, dev)
	create := func(from, to int) {
		for i := from; i < to; i++ {
			v, err := e.svc.CreateInOrg(ctx, owner, "acme", repos.CreateOptions{Name: fmt.Sprintf("r%03d", i), Private: true})
			require.NoError(t, err)
			e.give(t, devs, v.Repo.ID)
		}
	}
	var n atomic.Int64
	cost := func(owner, team string, want int) int64 {
		n.Store(0)
		e.db.CountStatements(&n)
		got, err := e.svc.IssueRepos(ctx, dev, owner, team)
		e.db.CountStatements(nil)
		require.NoError(t, err)
		require.Len(t, got, want)
		return n.Load()
	}
	create(0, 3)
	small, smallTeam := cost("", "", 3), cost("acme", "devs", 3)
	create(3, 120)
	assert.Equal(t, small, cost("", "", 120), "statements for 3 and for 120 repositories")
	assert.Equal(t, smallTeam, cost("acme", "devs", 120), "statements with the team filter")
	assert.LessOrEqual(t, small, int64(8))
	t.Logf("statements: %d (team filter %d)", small, smallTeam)
}
