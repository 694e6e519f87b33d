package storetest

import (
	"context"
	"maps"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/orgs"
	"github.com/hearthforge/hearth/forge/repos"
)

// The conformance cases of organisations' teams: their settings, scope,
// members and repositories.

// teamCmp compares teams: a team with no units may come back with a nil
// or an empty map.
var teamCmp = cmpopts.EquateEmpty()

// getTeam reads a team; a missing one fails the test.
func getTeam(t *testing.T, b Backend, id forge.ID) *forge.Team {
	t.Helper()
	return viewValue(t, b.Orgs(), func(ctx context.Context, tx orgs.Tx) (*forge.Team, error) { return tx.Team(ctx, id) })
}

// listTeams returns the names of one page of ListTeams and the total.
func listTeams(t *testing.T, b Backend, f orgs.TeamFilter, o forge.ListOptions) ([]string, int64) {
	t.Helper()
	list, n := viewPage(t, b.Orgs(), func(ctx context.Context, tx orgs.Tx) ([]*forge.Team, int64, error) { return tx.ListTeams(ctx, f, o) })
	return pluck(list, func(tm *forge.Team) string { return tm.Name }), n
}

// testTeams: teams with their units, names unique per organisation
// ignoring case, updates that replace the units, and the team lists.
func testTeams(t *testing.T, b Backend) {
	ctx := context.Background()
	s := b.Orgs()
	crew, band := newOrg(t, b, "Crew"), newOrg(t, b, "Band")

	owners := &forge.Team{OrgID: crew.ID, Name: "Owners", Description: "the owners", Mode: forge.AccessModeOwner,
		Units: map[forge.Unit]forge.AccessMode{forge.UnitCode: forge.AccessModeOwner, forge.UnitIssues: forge.AccessModeOwner,
			forge.UnitExternalIssues: forge.AccessModeRead},
		IncludesAllRepos: true, CanCreateOrgRepo: true, NumMembers: 7, NumRepos: 3}
	orgUpdate(t, s, func(tx orgs.Tx) error { return tx.CreateTeam(ctx, owners) })
	require.NotZero(t, owners.ID)
	want := *owners
	want.Units, want.NumMembers, want.NumRepos = maps.Clone(owners.Units), 0, 0
	orgView(t, s, func(tx orgs.Tx) error {
		for _, get := range []func() (*forge.Team, error){
			func() (*forge.Team, error) { return tx.Team(ctx, owners.ID) },
			func() (*forge.Team, error) { return tx.TeamByName(ctx, crew.ID, "oWNERS") },
		} {
			got, err := get()
			require.NoError(t, err)
			if diff := cmp.Diff(&want, got, teamCmp); diff != "" {
				t.Errorf("team round trip, counts computed (-want +got):\n%s", diff)
			}
			got.Units[forge.UnitCode], got.Name = forge.AccessNone, "changed by the caller"
		}
		got, err := tx.Team(ctx, owners.ID)
		require.NoError(t, err)
		assert.Empty(t, cmp.Diff(&want, got, teamCmp), "values returned are copies")
		_, err = tx.TeamByName(ctx, band.ID, "Owners")
		assert.ErrorIs(t, err, forge.ErrNotFound, "another organisation's team")
		_, err = tx.Team(ctx, 9999)
		assert.ErrorIs(t, err, forge.ErrNotFound)
		return nil
	})
	owners.Units[forge.UnitWiki] = forge.AccessModeOwner // the caller's map is the caller's
	assert.Empty(t, cmp.Diff(&want, getTeam(t, b, owners.ID), teamCmp))

	err := s.Update(ctx, func(tx orgs.Tx) error {
		return tx.CreateTeam(ctx, &forge.Team{OrgID: crew.ID, Name: "OWNERS", Mode: forge.AccessModeRead})
	})
	assert.ErrorIs(t, err, forge.ErrConflict, "team names are unique in an organisation, ignoring case")
	err = s.Update(ctx, func(tx orgs.Tx) error {
		return tx.CreateTeam(ctx, &forge.Team{OrgID: 9999, Name: "strays", Mode: forge.AccessModeRead})
	})
	assert.ErrorIs(t, err, forge.ErrNotFound, "a team needs its organisation")
	bandOwners := newTeam(t, b, band, "Owners")

	empty := &forge.Team{OrgID: crew.ID, Name: "empty"}
	orgUpdate(t, s, func(tx orgs.Tx) error { return tx.CreateTeam(ctx, empty) })
	assert.Empty(t, getTeam(t, b, empty.ID).Units, "a team with no units")

	devs := &forge.Team{OrgID: crew.ID, Name: "devs", Description: "Writes the Code", Mode: forge.AccessModeWrite,
		Units: map[forge.Unit]forge.AccessMode{forge.UnitCode: forge.AccessModeWrite, forge.UnitPulls: forge.AccessModeWrite,
			forge.UnitIssues: forge.AccessModeRead, forge.UnitWiki: forge.AccessNone}}
	orgUpdate(t, s, func(tx orgs.Tx) error { return tx.CreateTeam(ctx, devs) })
	assert.Empty(t, cmp.Diff(devs, getTeam(t, b, devs.ID), teamCmp), "units at none are kept")

	// UpdateTeam writes every field and replaces the units.
	upd := *devs
	upd.Name, upd.Description, upd.Mode = "Developers", "Writes the Code", forge.AccessModeRead
	upd.Units = map[forge.Unit]forge.AccessMode{forge.UnitCode: forge.AccessModeRead, forge.UnitReleases: forge.AccessModeRead}
	upd.IncludesAllRepos, upd.CanCreateOrgRepo = true, true
	orgUpdate(t, s, func(tx orgs.Tx) error { u := upd; return tx.UpdateTeam(ctx, &u) })
	assert.Empty(t, cmp.Diff(&upd, getTeam(t, b, devs.ID), teamCmp))
	wantNotFound(t, s, func(ctx context.Context, tx orgs.Tx) error { _, err := tx.TeamByName(ctx, crew.ID, "devs"); return err }, "the old name is free")
	err = s.Update(ctx, func(tx orgs.Tx) error {
		u := upd
		u.Name, u.Units = "owners", map[forge.Unit]forge.AccessMode{}
		return tx.UpdateTeam(ctx, &u)
	})
	assert.ErrorIs(t, err, forge.ErrConflict, "rename onto a taken name")
	assert.Empty(t, cmp.Diff(&upd, getTeam(t, b, devs.ID), teamCmp), "a refused update changes nothing")
	err = s.Update(ctx, func(tx orgs.Tx) error { u := upd; u.ID = 9999; return tx.UpdateTeam(ctx, &u) })
	assert.ErrorIs(t, err, forge.ErrNotFound)

	orgUpdate(t, s, func(tx orgs.Tx) error {
		for _, tm := range []*forge.Team{
			{OrgID: crew.ID, Name: "alpha", Description: "The owners' helpers", Mode: forge.AccessModeRead},
			{OrgID: crew.ID, Name: "Zeta", Description: "100% test_ers", Mode: forge.AccessModeRead},
		} {
			if err := tx.CreateTeam(ctx, tm); err != nil {
				return err
			}
		}
		return nil
	})

	// ListTeams: by name ignoring case, paged, filtered.
	names, total := listTeams(t, b, orgs.TeamFilter{OrgID: crew.ID}, forge.ListOptions{Page: 1, Limit: 2})
	assert.Equal(t, []string{"alpha", "Developers"}, names, "ordered by name ignoring case")
	assert.EqualValues(t, 5, total)
	names, _ = listTeams(t, b, orgs.TeamFilter{OrgID: crew.ID}, forge.ListOptions{Page: 2, Limit: 2})
	assert.Equal(t, []string{"empty", "Owners"}, names)
	names, _ = listTeams(t, b, orgs.TeamFilter{OrgID: crew.ID}, forge.ListOptions{Page: 3, Limit: 2})
	assert.Equal(t, []string{"Zeta"}, names)
	names, total = listTeams(t, b, orgs.TeamFilter{OrgID: band.ID}, forge.ListOptions{})
	assert.Equal(t, []string{bandOwners.Name}, names)
	assert.EqualValues(t, 1, total)
	_, total = listTeams(t, b, orgs.TeamFilter{}, forge.ListOptions{})
	assert.EqualValues(t, 6, total, "no filter: every team")
	for _, c := range []struct {
		f    orgs.TeamFilter
		want []string
	}{
		{orgs.TeamFilter{OrgID: crew.ID, Keyword: "OWN"}, []string{"Owners"}},
		{orgs.TeamFilter{OrgID: crew.ID, Keyword: "OWN", IncludeDesc: true}, []string{"alpha", "Owners"}},
		{orgs.TeamFilter{OrgID: crew.ID, Keyword: "the code", IncludeDesc: true}, []string{"Developers"}},
		{orgs.TeamFilter{Keyword: "owners"}, []string{"Owners", "Owners"}},
		{orgs.TeamFilter{OrgID: crew.ID, Keyword: "%", IncludeDesc: true}, []string{"Zeta"}},
		{orgs.TeamFilter{OrgID: crew.ID, Keyword: "_", IncludeDesc: true}, []string{"Zeta"}},
		{orgs.TeamFilter{OrgID: crew.ID, Keyword: "t_e", IncludeDesc: true}, []string{"Zeta"}},
		{orgs.TeamFilter{OrgID: crew.ID, Keyword: "nobody"}, []string{}},
	} {
		names, total := listTeams(t, b, c.f, forge.ListOptions{})
		assert.Equal(t, c.want, names, "%+v", c.f)
		assert.EqualValues(t, len(c.want), total, "%+v", c.f)
	}

	orgUpdate(t, s, func(tx orgs.Tx) error { return tx.DeleteTeam(ctx, empty.ID) })
	wantNotFound(t, s, func(ctx context.Context, tx orgs.Tx) error { _, err := tx.Team(ctx, empty.ID); return err })
	err = s.Update(ctx, func(tx orgs.Tx) error { return tx.DeleteTeam(ctx, empty.ID) })
	assert.ErrorIs(t, err, forge.ErrNotFound, "deleting twice")
	t.Run("Scope", func(t *testing.T) { testTeamScope(t, b) })
}

// orgRepo creates a repository of owner in status st.
func orgRepo(t *testing.T, b Backend, owner *forge.User, name string, st forge.RepoStatus) *forge.Repository {
	t.Helper()
	r := newRepo(t, b, owner, name)
	if st != forge.RepoReady {
		r.Status = st
		repoUpdate(t, b.Repos(), func(tx repos.Tx) error { return tx.UpdateRepo(context.Background(), r) })
	}
	return r
}

// testTeamMembersAndRepos: a team's members and repositories, and the
// counts teams carry.
func testTeamMembersAndRepos(t *testing.T, b Backend) {
	ctx := context.Background()
	s := b.Orgs()
	studio := newOrg(t, b, "Studio")
	users := map[string]*forge.User{}
	for _, n := range []string{"Mia", "leo", "Kai"} {
		users[n] = newUser(t, b, n)
	}
	artists, board := newTeam(t, b, studio, "artists"), newTeam(t, b, studio, "Board")

	orgUpdate(t, s, func(tx orgs.Tx) error {
		for _, id := range []forge.ID{users["Mia"].ID, users["leo"].ID, users["Mia"].ID} {
			if err := tx.AddTeamMember(ctx, artists.ID, id); err != nil {
				return err
			}
		}
		return nil
	})
	for name, ids := range map[string][2]forge.ID{"no user": {artists.ID, 9999}, "no team": {9999, users["Mia"].ID}} {
		err := s.Update(ctx, func(tx orgs.Tx) error { return tx.AddTeamMember(ctx, ids[0], ids[1]) })
		assert.ErrorIs(t, err, forge.ErrNotFound, "AddTeamMember with %s", name)
	}
	isMember := func(team, user forge.ID) bool {
		var in bool
		orgView(t, s, func(tx orgs.Tx) error { var err error; in, err = tx.IsTeamMember(ctx, team, user); return err })
		return in
	}
	assert.True(t, isMember(artists.ID, users["Mia"].ID))
	assert.False(t, isMember(artists.ID, users["Kai"].ID))
	assert.False(t, isMember(board.ID, users["Mia"].ID))
	teamMembers := func(team forge.ID, o forge.ListOptions) ([]string, int64) {
		var names []string
		var total int64
		orgView(t, s, func(tx orgs.Tx) error {
			list, n, err := tx.ListTeamMembers(ctx, team, o)
			require.NotNil(t, list)
			names, total = userNames(list), n
			return err
		})
		return names, total
	}
	names, total := teamMembers(artists.ID, forge.ListOptions{Page: 1, Limit: 1})
	assert.Equal(t, []string{"leo"}, names, "ordered by name ignoring case")
	assert.EqualValues(t, 2, total, "added twice, counted once")
	names, _ = teamMembers(artists.ID, forge.ListOptions{Page: 2, Limit: 1})
	assert.Equal(t, []string{"Mia"}, names)
	assert.Equal(t, 2, getTeam(t, b, artists.ID).NumMembers)
	assert.Equal(t, 0, getTeam(t, b, board.ID).NumMembers)

	err := s.Update(ctx, func(tx orgs.Tx) error { return tx.RemoveTeamMember(ctx, artists.ID, users["Kai"].ID) })
	assert.ErrorIs(t, err, forge.ErrNotFound, "removing a non-member")
	orgUpdate(t, s, func(tx orgs.Tx) error {
		if err := tx.RemoveTeamMember(ctx, artists.ID, users["leo"].ID); err != nil {
			return err
		}
		return tx.AddTeamMember(ctx, board.ID, users["Mia"].ID)
	})
	assert.False(t, isMember(artists.ID, users["leo"].ID))
	assert.Equal(t, 1, getTeam(t, b, artists.ID).NumMembers)
	names, _ = listTeams(t, b, orgs.TeamFilter{MemberID: users["Mia"].ID}, forge.ListOptions{})
	assert.Equal(t, []string{"artists", "Board"}, names)
	names, _ = listTeams(t, b, orgs.TeamFilter{MemberID: users["leo"].ID}, forge.ListOptions{})
	assert.Empty(t, names)

	// Repositories: only ready ones are listed and counted.
	zulu := orgRepo(t, b, studio, "Zulu", forge.RepoReady)
	alpha := orgRepo(t, b, studio, "alpha", forge.RepoReady)
	beta := orgRepo(t, b, studio, "Beta", forge.RepoReady)
	pending := orgRepo(t, b, studio, "pending", forge.RepoCreating)
	orgUpdate(t, s, func(tx orgs.Tx) error {
		for _, r := range []*forge.Repository{zulu, alpha, beta, pending, zulu} {
			if err := tx.AddTeamRepo(ctx, artists.ID, r.ID); err != nil {
				return err
			}
		}
		return nil
	})
	for name, ids := range map[string][2]forge.ID{"no repository": {artists.ID, 9999}, "no team": {9999, zulu.ID}} {
		err := s.Update(ctx, func(tx orgs.Tx) error { return tx.AddTeamRepo(ctx, ids[0], ids[1]) })
		assert.ErrorIs(t, err, forge.ErrNotFound, "AddTeamRepo with %s", name)
	}
	hasRepo := func(team, repo forge.ID) bool {
		var has bool
		orgView(t, s, func(tx orgs.Tx) error { var err error; has, err = tx.HasTeamRepo(ctx, team, repo); return err })
		return has
	}
	assert.True(t, hasRepo(artists.ID, zulu.ID))
	assert.True(t, hasRepo(artists.ID, pending.ID))
	assert.False(t, hasRepo(board.ID, zulu.ID))
	teamRepos := func(team forge.ID, o forge.ListOptions) ([]string, int64) {
		var names []string
		var total int64
		orgView(t, s, func(tx orgs.Tx) error {
			list, n, err := tx.ListTeamRepos(ctx, team, false, o)
			require.NotNil(t, list)
			names, total = []string{}, n
			for _, r := range list {
				names = append(names, r.Name)
			}
			return err
		})
		return names, total
	}
	names, total = teamRepos(artists.ID, forge.ListOptions{Page: 1, Limit: 2})
	assert.Equal(t, []string{"alpha", "Beta"}, names, "ordered by name ignoring case")
	assert.EqualValues(t, 3, total, "only ready repositories")
	names, _ = teamRepos(artists.ID, forge.ListOptions{Page: 2, Limit: 2})
	assert.Equal(t, []string{"Zulu"}, names)
	assert.Equal(t, 3, getTeam(t, b, artists.ID).NumRepos, "NumRepos counts what ListTeamRepos lists")
	// publicOnly: private repositories are neither listed nor counted.
	alpha.Private = true
	repoUpdate(t, b.Repos(), func(tx repos.Tx) error { return tx.UpdateRepo(ctx, alpha) })
	orgView(t, s, func(tx orgs.Tx) error {
		list, n, err := tx.ListTeamRepos(ctx, artists.ID, true, forge.ListOptions{Page: 1, Limit: 1})
		require.NoError(t, err)
		require.Len(t, list, 1)
		assert.Equal(t, "Beta", list[0].Name, "publicOnly")
		assert.EqualValues(t, 2, n, "publicOnly counts the public ones")
		all, _, err := tx.ListTeamRepos(ctx, artists.ID, false, forge.ListOptions{Page: 1, Limit: 1})
		require.NoError(t, err)
		assert.Equal(t, "alpha", all[0].Name, "without publicOnly")
		return nil
	})
	alpha.Private = false
	repoUpdate(t, b.Repos(), func(tx repos.Tx) error { return tx.UpdateRepo(ctx, alpha) })
	names, _ = listTeams(t, b, orgs.TeamFilter{RepoID: zulu.ID}, forge.ListOptions{})
	assert.Equal(t, []string{"artists"}, names)

	err = s.Update(ctx, func(tx orgs.Tx) error { return tx.RemoveTeamRepo(ctx, board.ID, zulu.ID) })
	assert.ErrorIs(t, err, forge.ErrNotFound, "removing a repository the team does not have")
	orgUpdate(t, s, func(tx orgs.Tx) error { return tx.RemoveTeamRepo(ctx, artists.ID, beta.ID) })
	assert.False(t, hasRepo(artists.ID, beta.ID))

	// Counts in lists agree with single reads.
	orgView(t, s, func(tx orgs.Tx) error {
		list, _, err := tx.ListTeams(ctx, orgs.TeamFilter{OrgID: studio.ID}, forge.ListOptions{})
		require.NoError(t, err)
		require.Len(t, list, 2)
		assert.Equal(t, [2]int{1, 2}, [2]int{list[0].NumMembers, list[0].NumRepos}, "artists")
		assert.Equal(t, [2]int{1, 0}, [2]int{list[1].NumMembers, list[1].NumRepos}, "Board")
		return nil
	})

	// The repositories of an owner.
	orgView(t, s, func(tx orgs.Tx) error {
		r, err := tx.RepoByName(ctx, studio.ID, "ZULU")
		require.NoError(t, err)
		assert.Equal(t, zulu.ID, r.ID)
		r, err = tx.RepoByName(ctx, studio.ID, "Pending")
		require.NoError(t, err)
		assert.Equal(t, forge.RepoCreating, r.Status, "RepoByName finds any status")
		_, err = tx.RepoByName(ctx, studio.ID, "none")
		assert.ErrorIs(t, err, forge.ErrNotFound)
		_, err = tx.RepoByName(ctx, users["Mia"].ID, "Zulu")
		assert.ErrorIs(t, err, forge.ErrNotFound, "another owner's")
		ids, err := tx.ListOwnerRepoIDs(ctx, studio.ID)
		require.NoError(t, err)
		assert.ElementsMatch(t, []forge.ID{zulu.ID, alpha.ID, beta.ID}, ids, "ready repositories only")
		ids, err = tx.ListOwnerRepoIDs(ctx, users["Mia"].ID)
		require.NoError(t, err)
		assert.Empty(t, ids)
		return nil
	})
}

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
	seedOrgs(t, b, orgSeed{teamMembers: []teamPair{{openTeam, ann.ID}, {closedTeam, ann.ID}, {limitedTeam, ann.ID}}})
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
