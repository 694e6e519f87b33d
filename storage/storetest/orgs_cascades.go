package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/orgs"
	"github.com/hearthforge/hearth/forge/repos"
)

// testOrgCascades: deleting an organisation, a user, a team or a
// repository removes the memberships, teams, team rows and blocks that
// name it, and nothing else.
func testOrgCascades(t *testing.T, b Backend) {
	ctx := context.Background()
	s := b.Orgs()
	doomed, kept := newOrg(t, b, "Doomed"), newOrg(t, b, "Kept")
	uma, vic := newUser(t, b, "uma"), newUser(t, b, "vic")
	devs, crew := newTeam(t, b, doomed, "devs"), newTeam(t, b, kept, "crew")
	tool := newRepo(t, b, kept, "tool")
	at := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	block := func(blocker, user *forge.User) forge.Block {
		return forge.Block{BlockerID: blocker.ID, UserID: user.ID, Created: at}
	}
	seedOrgs(t, b, orgSeed{
		members:     []forge.Membership{{OrgID: doomed.ID, UserID: uma.ID}, {OrgID: kept.ID, UserID: uma.ID}, {OrgID: kept.ID, UserID: vic.ID}},
		teamMembers: []teamPair{{devs, uma.ID}, {crew, uma.ID}, {crew, vic.ID}},
		teamRepos:   []teamPair{{devs, tool.ID}, {crew, tool.ID}},
		blocks:      []forge.Block{block(doomed, vic), block(vic, uma), block(uma, vic), block(kept, uma)},
	})

	// An organisation takes its teams (with their members, repositories and
	// units), memberships and blocks with it.
	orgUpdate(t, s, func(tx orgs.Tx) error { return tx.DeleteOrg(ctx, doomed.ID) })
	orgView(t, s, func(tx orgs.Tx) error {
		_, err := tx.Team(ctx, devs.ID)
		assert.ErrorIs(t, err, forge.ErrNotFound, "the organisation's team")
		_, err = tx.Member(ctx, doomed.ID, uma.ID)
		assert.ErrorIs(t, err, forge.ErrNotFound, "the organisation's membership")
		in, err := tx.IsTeamMember(ctx, devs.ID, uma.ID)
		require.NoError(t, err)
		assert.False(t, in)
		has, err := tx.HasTeamRepo(ctx, devs.ID, tool.ID)
		require.NoError(t, err)
		assert.False(t, has)
		return nil
	})
	names, total := listTeams(t, b, orgs.TeamFilter{OrgID: doomed.ID}, forge.ListOptions{})
	assert.Empty(t, names)
	assert.Zero(t, total)
	names, _ = listTeams(t, b, orgs.TeamFilter{MemberID: uma.ID}, forge.ListOptions{})
	assert.Equal(t, []string{"crew"}, names)
	names, _ = listTeams(t, b, orgs.TeamFilter{RepoID: tool.ID}, forge.ListOptions{})
	assert.Equal(t, []string{"crew"}, names)
	names, _ = listOrgs(t, b, orgs.OrgFilter{MemberID: uma.ID}, forge.ListOptions{})
	assert.Equal(t, []string{"Kept"}, names)
	assert.False(t, isBlocked(t, b, doomed.ID, vic.ID))
	_, total = listBlocked(t, b, doomed.ID, forge.ListOptions{})
	assert.Zero(t, total)
	assert.Equal(t, [2]int{2, 1}, [2]int{getTeam(t, b, crew.ID).NumMembers, getTeam(t, b, crew.ID).NumRepos},
		"another organisation's team keeps its members and repositories")

	// A new organisation with the freed name starts with nothing.
	again := newOrg(t, b, "doomed")
	orgView(t, s, func(tx orgs.Tx) error {
		_, err := tx.TeamByName(ctx, again.ID, "devs")
		assert.ErrorIs(t, err, forge.ErrNotFound)
		_, err = tx.Member(ctx, again.ID, uma.ID)
		assert.ErrorIs(t, err, forge.ErrNotFound)
		return nil
	})

	// A user takes their memberships, team memberships and blocks, both
	// ways, with them.
	update(t, b.Auth(), func(tx auth.Tx) error { return tx.DeleteUser(ctx, uma.ID) })
	orgView(t, s, func(tx orgs.Tx) error {
		_, err := tx.Member(ctx, kept.ID, uma.ID)
		assert.ErrorIs(t, err, forge.ErrNotFound)
		in, err := tx.IsTeamMember(ctx, crew.ID, uma.ID)
		require.NoError(t, err)
		assert.False(t, in)
		return nil
	})
	members, total := func() ([]*forge.User, int64) {
		var list []*forge.User
		var n int64
		orgView(t, s, func(tx orgs.Tx) error {
			var err error
			list, n, err = tx.ListMembers(ctx, kept.ID, false, forge.ListOptions{})
			return err
		})
		return list, n
	}()
	assert.Equal(t, []string{"vic"}, userNames(members))
	assert.EqualValues(t, 1, total)
	assert.Equal(t, 1, getTeam(t, b, crew.ID).NumMembers)
	assert.False(t, isBlocked(t, b, vic.ID, uma.ID), "blocks of the user")
	assert.False(t, isBlocked(t, b, kept.ID, uma.ID))
	_, total = listBlocked(t, b, uma.ID, forge.ListOptions{})
	assert.Zero(t, total, "blocks by the user")
	_, total = listBlocked(t, b, vic.ID, forge.ListOptions{})
	assert.Zero(t, total)

	// A repository leaves its teams.
	tmp := orgRepo(t, b, kept, "tmp", forge.RepoReady)
	orgUpdate(t, s, func(tx orgs.Tx) error { return tx.AddTeamRepo(ctx, crew.ID, tmp.ID) })
	assert.Equal(t, 2, getTeam(t, b, crew.ID).NumRepos)
	repoUpdate(t, b.Repos(), func(tx repos.Tx) error { return tx.DeleteRepo(ctx, tmp.ID) })
	orgView(t, s, func(tx orgs.Tx) error {
		has, err := tx.HasTeamRepo(ctx, crew.ID, tmp.ID)
		require.NoError(t, err)
		assert.False(t, has)
		return nil
	})
	assert.Equal(t, 1, getTeam(t, b, crew.ID).NumRepos)

	// A team takes its members and repositories with it, not the
	// organisation's memberships.
	orgUpdate(t, s, func(tx orgs.Tx) error { return tx.DeleteTeam(ctx, crew.ID) })
	orgView(t, s, func(tx orgs.Tx) error {
		in, err := tx.IsTeamMember(ctx, crew.ID, vic.ID)
		require.NoError(t, err)
		assert.False(t, in)
		has, err := tx.HasTeamRepo(ctx, crew.ID, tool.ID)
		require.NoError(t, err)
		assert.False(t, has)
		_, err = tx.Member(ctx, kept.ID, vic.ID)
		assert.NoError(t, err, "the organisation's membership stays")
		return nil
	})
	names, _ = listTeams(t, b, orgs.TeamFilter{MemberID: vic.ID}, forge.ListOptions{})
	assert.Empty(t, names)
	names, _ = listTeams(t, b, orgs.TeamFilter{RepoID: tool.ID}, forge.ListOptions{})
	assert.Empty(t, names)
	// The ids of deleted teams are not reused by new ones.
	fresh := newTeam(t, b, kept, "fresh")
	assert.NotEqual(t, crew.ID, fresh.ID)
	assert.Equal(t, [2]int{0, 0}, [2]int{getTeam(t, b, fresh.ID).NumMembers, getTeam(t, b, fresh.ID).NumRepos})
}
