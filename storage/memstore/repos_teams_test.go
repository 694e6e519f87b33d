package memstore

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/forgetest"
	"github.com/hearthforge/hearth/forge/repos"
)

// TestRepoTeamsInMemory seeds the organisation state directly (memstore's
// orgs.Store comes from another package of work) and checks the repos.Tx
// team reads, ListRepos' visibility and DeleteRepo's cascade, as the
// SQLite schema's foreign keys do.
func TestRepoTeamsInMemory(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := New()
	org := forgetest.User("acme", func(u *forge.User) { u.Type, u.Visibility = forge.UserTypeOrganization, forge.VisibilityPrivate })
	ann := forgetest.User("ann")
	bob := forgetest.User("bob")
	require.NoError(t, s.Auth().Update(ctx, func(tx auth.Tx) error {
		for _, u := range []*forge.User{org, ann, bob} {
			if err := tx.CreateUser(ctx, u, ""); err != nil {
				return err
			}
		}
		return nil
	}))
	priv := &forge.Repository{OwnerID: org.ID, Name: "priv", Private: true, DefaultBranch: "main", ObjectFormat: forge.SHA1}
	pub := &forge.Repository{OwnerID: org.ID, Name: "pub", DefaultBranch: "main", ObjectFormat: forge.SHA1}
	require.NoError(t, s.Repos().Update(ctx, func(rt repos.Tx) error {
		for _, r := range []*forge.Repository{priv, pub} {
			if err := rt.CreateRepo(ctx, r); err != nil {
				return err
			}
		}
		m := rt.(*tx)
		m.st.teams[1] = forge.Team{ID: 1, OrgID: org.ID, Name: "devs", Mode: forge.AccessModeWrite,
			Units: map[forge.Unit]forge.AccessMode{forge.UnitCode: forge.AccessModeWrite}}
		m.st.teams[2] = forge.Team{ID: 2, OrgID: org.ID, Name: "all", Mode: forge.AccessModeRead, IncludesAllRepos: true}
		m.st.teamUsers[teamUser{1, ann.ID}] = struct{}{}
		m.st.orgMembers[orgUser{org.ID, ann.ID}] = false
		m.st.orgMembers[orgUser{org.ID, bob.ID}] = false
		return rt.AddRepoTeams(ctx, priv.ID, []forge.ID{1, 2})
	}))
	require.NoError(t, s.Repos().View(ctx, func(rt repos.Tx) error {
		g, err := rt.TeamGrants(ctx, ann.ID, []forge.ID{priv.ID, pub.ID})
		require.NoError(t, err)
		require.Len(t, g[priv.ID], 1)
		assert.Equal(t, forge.ID(1), g[priv.ID][0].TeamID)
		assert.Equal(t, forge.AccessModeWrite, g[priv.ID][0].Units[forge.UnitCode])
		g[priv.ID][0].Units[forge.UnitCode] = forge.AccessNone // a copy
		again, _ := rt.TeamGrants(ctx, ann.ID, []forge.ID{priv.ID})
		assert.Equal(t, forge.AccessModeWrite, again[priv.ID][0].Units[forge.UnitCode])

		list, _, err := rt.ListRepos(ctx, repos.RepoFilter{VisibleTo: ann.ID}, forge.ListOptions{Page: 1, Limit: 10})
		require.NoError(t, err)
		assert.Len(t, list, 2, "ann: the private repository through her team, the public one as a member")
		list, _, err = rt.ListRepos(ctx, repos.RepoFilter{VisibleTo: bob.ID}, forge.ListOptions{Page: 1, Limit: 10})
		require.NoError(t, err)
		require.Len(t, list, 1)
		assert.Equal(t, pub.ID, list[0].ID)
		return nil
	}))
	require.NoError(t, s.Repos().Update(ctx, func(rt repos.Tx) error { return rt.DeleteRepo(ctx, priv.ID) }))
	require.NoError(t, s.Repos().View(ctx, func(rt repos.Tx) error {
		assert.Empty(t, rt.(*tx).st.teamRepos, "team rows go with the repository")
		return nil
	}))
}
