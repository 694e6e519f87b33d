package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/orgs"
	"github.com/hearthforge/hearth/forge/repos"
)

// The repos.Tx reads of memberships and team grants the repository
// permission needs, and the team rows of repositories.

func privateOrg(u *forge.User) { u.Visibility = forge.VisibilityPrivate }

// testRepoTeamsWithoutOrgs: with no membership nor team, the reads are
// empty (never nil) and the writes refuse missing teams.
func testRepoTeamsWithoutOrgs(t *testing.T, b Backend) {
	ctx := context.Background()
	s := b.Repos()
	org := newOrg(t, b, "lonely")
	u := newUser(t, b, "loner")
	r := newRepo(t, b, org, "solo")
	require.NoError(t, s.View(ctx, func(tx repos.Tx) error {
		m, err := tx.OrgMemberships(ctx, u.ID, []forge.ID{org.ID, 9999})
		require.NoError(t, err)
		assert.NotNil(t, m)
		assert.Empty(t, m)
		m, err = tx.OrgMemberships(ctx, u.ID, nil)
		require.NoError(t, err)
		assert.NotNil(t, m)
		g, err := tx.TeamGrants(ctx, u.ID, []forge.ID{r.ID, 9999})
		require.NoError(t, err)
		assert.NotNil(t, g)
		assert.Empty(t, g)
		g, err = tx.TeamGrants(ctx, u.ID, nil)
		require.NoError(t, err)
		assert.NotNil(t, g)
		teams, err := tx.OrgTeams(ctx, org.ID, 0)
		require.NoError(t, err)
		assert.NotNil(t, teams)
		assert.Empty(t, teams)
		return nil
	}))
	// A restricted user lists what it owns or collaborates on, nothing
	// public.
	rita := newUser(t, b, "rrita", func(u *forge.User) { u.Restricted = true })
	own := newRepo(t, b, rita, "mine")
	shared := newRepo(t, b, u, "shared")
	repoUpdate(t, s, func(tx repos.Tx) error { return tx.SetCollaborator(ctx, shared.ID, rita.ID, forge.AccessModeRead) })
	require.NoError(t, s.View(ctx, func(tx repos.Tx) error {
		list, _, err := tx.ListRepos(ctx, repos.RepoFilter{VisibleTo: rita.ID, Restricted: true}, forge.ListOptions{Page: 1, Limit: 10})
		require.NoError(t, err)
		assert.ElementsMatch(t, []forge.ID{own.ID, shared.ID}, repoIDs(list))
		list, _, err = tx.ListRepos(ctx, repos.RepoFilter{VisibleTo: rita.ID}, forge.ListOptions{Page: 1, Limit: 10})
		require.NoError(t, err)
		assert.ElementsMatch(t, []forge.ID{own.ID, shared.ID, r.ID}, repoIDs(list), "without Restricted, public ones too")
		list, _, err = tx.ListRepos(ctx, repos.RepoFilter{Restricted: true}, forge.ListOptions{Page: 1, Limit: 10})
		require.NoError(t, err)
		assert.Empty(t, list, "restricted and anonymous: nothing")
		return nil
	}))

	err := s.Update(ctx, func(tx repos.Tx) error { return tx.AddRepoTeams(ctx, r.ID, []forge.ID{9999}) })
	assert.ErrorIs(t, err, forge.ErrNotFound, "a missing team")
	repoUpdate(t, s, func(tx repos.Tx) error {
		if err := tx.AddRepoTeams(ctx, r.ID, nil); err != nil {
			return err
		}
		return tx.DeleteRepoTeams(ctx, r.ID)
	})
}

// testRepoTeams seeds organisations, members and teams through the
// backend's orgs.Store and reads them through repos.Tx.
func testRepoTeams(t *testing.T, b Backend) {
	os := b.Orgs()
	ctx := context.Background()
	s := b.Repos()
	acme := newOrg(t, b, "acme", privateOrg)
	other := newOrg(t, b, "other")
	ann := newUser(t, b, "tann")
	bob := newUser(t, b, "tbob")
	priv := newRepo(t, b, acme, "priv")
	repoUpdate(t, s, func(tx repos.Tx) error {
		r, err := tx.RepoByID(ctx, priv.ID)
		if err != nil {
			return err
		}
		r.Private = true
		return tx.UpdateRepo(ctx, r)
	})
	pub := newRepo(t, b, acme, "pub")
	elsewhere := newRepo(t, b, other, "elsewhere")

	writers := &forge.Team{OrgID: acme.ID, Name: "writers", Mode: forge.AccessModeWrite,
		Units: map[forge.Unit]forge.AccessMode{forge.UnitCode: forge.AccessModeWrite, forge.UnitIssues: forge.AccessModeRead}}
	triage := &forge.Team{OrgID: acme.ID, Name: "triage", Mode: forge.AccessModeRead, CanCreateOrgRepo: true,
		Units: map[forge.Unit]forge.AccessMode{forge.UnitIssues: forge.AccessModeWrite}}
	all := &forge.Team{OrgID: acme.ID, Name: "all", Mode: forge.AccessModeRead, IncludesAllRepos: true,
		Units: map[forge.Unit]forge.AccessMode{}}
	foreign := &forge.Team{OrgID: other.ID, Name: "foreign", Mode: forge.AccessModeAdmin,
		Units: map[forge.Unit]forge.AccessMode{forge.UnitCode: forge.AccessModeAdmin}}
	seedOrgs(t, b, orgSeed{
		teams:       []*forge.Team{writers, triage, all, foreign},
		members:     []forge.Membership{{OrgID: acme.ID, UserID: ann.ID}, {OrgID: other.ID, UserID: ann.ID}},
		teamMembers: []teamPair{{writers, ann.ID}, {triage, ann.ID}, {foreign, ann.ID}},
		// A team row of another organisation on acme's repository (left
		// by a transfer) grants nothing.
		teamRepos: []teamPair{{writers, priv.ID}, {triage, priv.ID}, {triage, pub.ID}, {foreign, priv.ID}},
	})
	require.NoError(t, s.View(ctx, func(tx repos.Tx) error {
		m, err := tx.OrgMemberships(ctx, ann.ID, []forge.ID{acme.ID, other.ID, ann.ID})
		require.NoError(t, err)
		assert.Equal(t, map[forge.ID]bool{acme.ID: true, other.ID: true}, m)
		m, err = tx.OrgMemberships(ctx, bob.ID, []forge.ID{acme.ID, other.ID})
		require.NoError(t, err)
		assert.Empty(t, m)

		g, err := tx.TeamGrants(ctx, ann.ID, []forge.ID{priv.ID, pub.ID, elsewhere.ID})
		require.NoError(t, err)
		assert.Equal(t, map[forge.ID][]forge.TeamGrant{
			priv.ID: {
				{TeamID: writers.ID, Mode: forge.AccessModeWrite, Units: writers.Units},
				{TeamID: triage.ID, Mode: forge.AccessModeRead, Units: triage.Units},
			},
			pub.ID: {{TeamID: triage.ID, Mode: forge.AccessModeRead, Units: triage.Units}},
		}, g)
		g, err = tx.TeamGrants(ctx, bob.ID, []forge.ID{priv.ID, pub.ID})
		require.NoError(t, err)
		assert.Empty(t, g, "bob is in no team")

		teams, err := tx.OrgTeams(ctx, acme.ID, 0)
		require.NoError(t, err)
		require.Len(t, teams, 3)
		assert.Equal(t, []string{"writers", "triage", "all"}, []string{teams[0].Name, teams[1].Name, teams[2].Name}, "by id")
		assert.True(t, teams[2].IncludesAllRepos)
		assert.True(t, teams[1].CanCreateOrgRepo)
		assert.Equal(t, acme.ID, teams[0].OrgID)
		assert.Equal(t, writers.Units, teams[0].Units)
		assert.Equal(t, map[forge.Unit]forge.AccessMode{}, teams[2].Units)
		mine, err := tx.OrgTeams(ctx, acme.ID, ann.ID)
		require.NoError(t, err)
		require.Len(t, mine, 2)
		assert.Equal(t, writers.ID, mine[0].ID)
		assert.Equal(t, triage.ID, mine[1].ID)
		none, err := tx.OrgTeams(ctx, acme.ID, bob.ID)
		require.NoError(t, err)
		assert.Empty(t, none)

		// Listing: ann sees acme's private repository through her teams;
		// bob sees none of a private organisation's repositories.
		list, _, err := tx.ListRepos(ctx, repos.RepoFilter{OwnerID: acme.ID, VisibleTo: ann.ID}, forge.ListOptions{Page: 1, Limit: 10})
		require.NoError(t, err)
		assert.ElementsMatch(t, []forge.ID{priv.ID, pub.ID}, repoIDs(list))
		list, _, err = tx.ListRepos(ctx, repos.RepoFilter{OwnerID: acme.ID, VisibleTo: bob.ID}, forge.ListOptions{Page: 1, Limit: 10})
		require.NoError(t, err)
		assert.Empty(t, list)
		return nil
	}))

	// A member without a team sees the public repositories of a private
	// organisation, not its private ones.
	require.NoError(t, os.Update(ctx, func(tx orgs.Tx) error {
		return tx.SetMember(ctx, forge.Membership{OrgID: acme.ID, UserID: bob.ID})
	}))
	require.NoError(t, s.View(ctx, func(tx repos.Tx) error {
		list, _, err := tx.ListRepos(ctx, repos.RepoFilter{OwnerID: acme.ID, VisibleTo: bob.ID}, forge.ListOptions{Page: 1, Limit: 10})
		require.NoError(t, err)
		assert.Equal(t, []forge.ID{pub.ID}, repoIDs(list))
		return nil
	}))

	repoUpdate(t, s, func(tx repos.Tx) error {
		return tx.AddRepoTeams(ctx, pub.ID, []forge.ID{all.ID, writers.ID, writers.ID})
	})
	repoUpdate(t, s, func(tx repos.Tx) error { return tx.AddRepoTeams(ctx, pub.ID, []forge.ID{writers.ID}) })
	err := s.Update(ctx, func(tx repos.Tx) error { return tx.AddRepoTeams(ctx, 9999, []forge.ID{all.ID}) })
	assert.ErrorIs(t, err, forge.ErrNotFound, "a missing repository")
	has := func(team, repo forge.ID) bool {
		var ok bool
		require.NoError(t, os.View(ctx, func(tx orgs.Tx) error {
			var err error
			ok, err = tx.HasTeamRepo(ctx, team, repo)
			return err
		}))
		return ok
	}
	assert.True(t, has(all.ID, pub.ID))
	assert.True(t, has(writers.ID, pub.ID))

	repoUpdate(t, s, func(tx repos.Tx) error { return tx.DeleteRepoTeams(ctx, pub.ID) })
	assert.False(t, has(all.ID, pub.ID))
	assert.False(t, has(triage.ID, pub.ID))
	assert.True(t, has(triage.ID, priv.ID), "other repositories keep their teams")

	// Deleting a repository removes its team rows.
	repoUpdate(t, s, func(tx repos.Tx) error { return tx.DeleteRepo(ctx, priv.ID) })
	assert.False(t, has(writers.ID, priv.ID))
	assert.False(t, has(foreign.ID, priv.ID))
}

// testTransferTeams: a pending transfer keeps its team ids in order,
// Transfer and Transfers return them, a replacing transfer replaces them,
// a deleted team leaves them, an unknown team is refused; TeamOrgs maps
// team ids to their organisation.
func testTransferTeams(t *testing.T, b Backend) {
	ctx := context.Background()
	s := b.Repos()
	ann, r, r2 := newUserRepos(t, b, "ann", "tool", "other")
	acme, zeta := newOrg(t, b, "acme"), newOrg(t, b, "zeta")
	t1, t2, t3 := newTeam(t, b, acme, "one"), newTeam(t, b, acme, "two"), newTeam(t, b, zeta, "three")
	at := time.Date(2024, 7, 1, 0, 0, 0, 0, time.UTC)

	require.NoError(t, s.View(ctx, func(tx repos.Tx) error {
		m, err := tx.TeamOrgs(ctx, []forge.ID{t1.ID, t3.ID, 99999})
		assert.Equal(t, map[forge.ID]forge.ID{t1.ID: acme.ID, t3.ID: zeta.ID}, m)
		require.NoError(t, err)
		m, err = tx.TeamOrgs(ctx, nil)
		assert.NotNil(t, m)
		assert.Empty(t, m)
		return err
	}))

	repoUpdate(t, s, func(tx repos.Tx) error {
		if err := tx.SetTransfer(ctx, &repos.Transfer{RepoID: r.ID, Doer: ann, Recipient: acme, Created: at,
			TeamIDs: []forge.ID{t2.ID, t1.ID}}); err != nil {
			return err
		}
		return tx.SetTransfer(ctx, &repos.Transfer{RepoID: r2.ID, Doer: ann, Recipient: acme, Created: at})
	})
	teamsOf := func() (single []forge.ID, batch map[forge.ID][]forge.ID) {
		require.NoError(t, s.View(ctx, func(tx repos.Tx) error {
			tr, err := tx.Transfer(ctx, r.ID)
			require.NoError(t, err)
			single = tr.TeamIDs
			m, err := tx.Transfers(ctx, []forge.ID{r.ID, r2.ID})
			require.NoError(t, err)
			batch = map[forge.ID][]forge.ID{}
			for id, tr := range m {
				batch[id] = tr.TeamIDs
			}
			return nil
		}))
		return single, batch
	}
	single, batch := teamsOf()
	assert.Equal(t, []forge.ID{t2.ID, t1.ID}, single, "kept in order")
	assert.Equal(t, []forge.ID{t2.ID, t1.ID}, batch[r.ID])
	assert.Empty(t, batch[r2.ID])
	assert.Contains(t, batch, r2.ID)

	// An unknown team is refused and nothing changes.
	err := s.Update(ctx, func(tx repos.Tx) error {
		return tx.SetTransfer(ctx, &repos.Transfer{RepoID: r.ID, Doer: ann, Recipient: acme, Created: at,
			TeamIDs: []forge.ID{t1.ID, 99999}})
	})
	assert.ErrorIs(t, err, forge.ErrNotFound)
	single, _ = teamsOf()
	assert.Equal(t, []forge.ID{t2.ID, t1.ID}, single)

	// A deleted team leaves the transfer.
	orgUpdate(t, b.Orgs(), func(tx orgs.Tx) error { return tx.DeleteTeam(ctx, t2.ID) })
	single, _ = teamsOf()
	assert.Equal(t, []forge.ID{t1.ID}, single)

	// A replacing transfer replaces the teams; a deleted transfer forgets them.
	repoUpdate(t, s, func(tx repos.Tx) error {
		return tx.SetTransfer(ctx, &repos.Transfer{RepoID: r.ID, Doer: ann, Recipient: zeta, Created: at, TeamIDs: []forge.ID{t3.ID}})
	})
	single, _ = teamsOf()
	assert.Equal(t, []forge.ID{t3.ID}, single)
	repoUpdate(t, s, func(tx repos.Tx) error {
		if err := tx.DeleteTransfer(ctx, r.ID); err != nil {
			return err
		}
		return tx.SetTransfer(ctx, &repos.Transfer{RepoID: r.ID, Doer: ann, Recipient: zeta, Created: at})
	})
	single, _ = teamsOf()
	assert.Empty(t, single)
}
