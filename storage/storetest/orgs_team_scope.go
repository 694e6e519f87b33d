package storetest

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/orgs"
	"github.com/hearthforge/hearth/forge/repos"
)

// testTeamScope: a team's repositories are its organisation's (a
// team_repo row left for a repository that moved to another owner gives
// the team nothing, in every read), and ListTeams filters by the
// visibility of the teams' organisations.
func testTeamScope(t *testing.T, b Backend) {
	ctx := context.Background()
	s := b.Orgs()
	open := newOrg(t, b, "Open")
	closed := newOrg(t, b, "Closed", func(u *forge.User) { u.Visibility = forge.VisibilityPrivate })
	limited := newOrg(t, b, "Limited", func(u *forge.User) { u.Visibility = forge.VisibilityLimited })
	ann := newUser(t, b, "ann")
	openTeam, closedTeam, limitedTeam := newTeam(t, b, open, "crew"), newTeam(t, b, closed, "crew"), newTeam(t, b, limited, "crew")
	orgUpdate(t, s, func(tx orgs.Tx) error {
		for _, tm := range []*forge.Team{openTeam, closedTeam, limitedTeam} {
			if err := tx.AddTeamMember(ctx, tm.ID, ann.ID); err != nil {
				return err
			}
		}
		return nil
	})
	teamIDs := func(f orgs.TeamFilter) ([]forge.ID, int64) {
		var ids []forge.ID
		var total int64
		orgView(t, s, func(tx orgs.Tx) error {
			list, n, err := tx.ListTeams(ctx, f, forge.ListOptions{Page: 1, Limit: 1})
			for _, tm := range list {
				ids = append(ids, tm.ID)
			}
			total = n
			return err
		})
		return ids, total
	}
	ids, total := teamIDs(orgs.TeamFilter{MemberID: ann.ID, OrgVisibilities: []forge.Visibility{forge.VisibilityPublic}})
	assert.Equal(t, []forge.ID{openTeam.ID}, ids, "teams of public organisations")
	assert.EqualValues(t, 1, total, "the total counts what the filter keeps")
	_, total = teamIDs(orgs.TeamFilter{MemberID: ann.ID,
		OrgVisibilities: []forge.Visibility{forge.VisibilityPublic, forge.VisibilityLimited}})
	assert.EqualValues(t, 2, total)
	_, total = teamIDs(orgs.TeamFilter{MemberID: ann.ID})
	assert.EqualValues(t, 3, total, "no visibility: every organisation")

	// A repository of Open in Open's team moves to Closed.
	r := orgRepo(t, b, open, "moving", forge.RepoReady)
	orgUpdate(t, s, func(tx orgs.Tx) error { return tx.AddTeamRepo(ctx, openTeam.ID, r.ID) })
	assert.Equal(t, 1, getTeam(t, b, openTeam.ID).NumRepos)
	r.OwnerID = closed.ID
	repoUpdate(t, b.Repos(), func(tx repos.Tx) error { return tx.UpdateRepo(ctx, r) })
	orgView(t, s, func(tx orgs.Tx) error {
		has, err := tx.HasTeamRepo(ctx, openTeam.ID, r.ID)
		require.NoError(t, err)
		assert.False(t, has, "a repository of another owner is not the team's")
		list, n, err := tx.ListTeamRepos(ctx, openTeam.ID, false, forge.ListOptions{})
		require.NoError(t, err)
		assert.Empty(t, list)
		assert.Zero(t, n)
		teams, _, err := tx.ListTeams(ctx, orgs.TeamFilter{RepoID: r.ID}, forge.ListOptions{})
		require.NoError(t, err)
		assert.Empty(t, teams, "no team of its new owner has it, and the old one's row gives nothing")
		return nil
	})
	assert.Zero(t, getTeam(t, b, openTeam.ID).NumRepos)
	err := s.Update(ctx, func(tx orgs.Tx) error { return tx.RemoveTeamRepo(ctx, openTeam.ID, r.ID) })
	assert.ErrorIs(t, err, forge.ErrNotFound, "the team does not have it")
	orgUpdate(t, s, func(tx orgs.Tx) error { return tx.AddTeamRepo(ctx, closedTeam.ID, r.ID) })
	names, _ := listTeams(t, b, orgs.TeamFilter{RepoID: r.ID}, forge.ListOptions{})
	assert.Equal(t, []string{"crew"}, names)
	assert.Equal(t, 1, getTeam(t, b, closedTeam.ID).NumRepos)
}
