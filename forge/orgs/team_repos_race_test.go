package orgs_test

import (
	"context"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/orgs"
)

// hookStore runs before once, before the first Update: a change another
// request makes between a service's reads and its transaction.
type hookStore struct {
	orgs.Store
	once   sync.Once
	before func()
}

func (h *hookStore) Update(ctx context.Context, fn func(orgs.Tx) error) error {
	h.once.Do(h.before)
	return h.Store.Update(ctx, fn)
}

// An owner who stops being one between the checks and the change does not
// add or remove a team's repository on the strength of the old ownership.
func TestTeamRepoChangeRechecksOwnership(t *testing.T) {
	t.Parallel()
	for _, add := range []bool{true, false} {
		e := newEnv(t)
		own := e.user(t, "own")
		was := e.user(t, "was")
		o := e.org(t, own, "acme", "")
		e.repo(t, o, "code")
		owners, _, err := e.svc.SearchTeams(ctx, own, "acme", "owners", false, forge.ListOptions{})
		require.NoError(t, err)
		devs := e.team(t, own, "acme", orgs.CreateTeamOptions{Name: "devs", Permission: "read", Units: []string{"repo.code"}})
		for _, id := range []forge.ID{owners[0].ID, devs.ID} {
			require.NoError(t, e.svc.AddTeamMember(ctx, own, id, "was"))
		}
		if !add {
			require.NoError(t, e.svc.AddTeamRepo(ctx, own, devs.ID, "acme", "code"))
		}
		hs := &hookStore{Store: e.st.Orgs(), before: func() {
			require.NoError(t, e.svc.RemoveTeamMember(ctx, own, owners[0].ID, "was"))
		}}
		svc, err := orgs.New(orgs.Config{Store: hs, Clock: e.clock, Repos: e.repos})
		require.NoError(t, err)
		change := svc.AddTeamRepo
		if !add {
			change = svc.RemoveTeamRepo
		}
		require.Equal(t, errRepoAdmin(), change(ctx, was, devs.ID, "acme", "code"), "add %v", add)
		_, err = e.svc.TeamRepo(ctx, own, devs.ID, "acme", "code")
		require.Equal(t, add, err != nil, "the team's repositories are unchanged")
	}
}
