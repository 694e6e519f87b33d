package storetest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/forgetest"
	"github.com/hearthforge/hearth/forge/repos"
)

// visibilitySeeds seed the random worlds of testVisibility; a failure names
// its seed, and the same seed builds the same world.
var visibilitySeeds = []uint64{1, 2, 3, 20261123}

// testVisibility is a property test of ListRepos' visibility filter: in
// random worlds of owners (public, limited, private, or written with no
// visibility), repositories (public
// or private) and collaborators (read, write, admin), for every actor
// (anonymous, users, site administrators, tokens limited to public
// resources), ListRepos with the filter the repos service derives from the
// actor returns exactly the repositories on which the domain rule
// repos.Permission grants the actor read access.
func testVisibility(t *testing.T, open func(t *testing.T) Backend) {
	for _, seed := range visibilitySeeds {
		t.Run(fmt.Sprint("seed=", seed), func(t *testing.T) {
			t.Parallel()
			checkVisibility(t, open(t), rand.New(rand.NewPCG(seed, seed)))
		})
	}
}

type world struct {
	users  []*forge.User
	repos  []*forge.Repository
	collab map[[2]forge.ID]forge.AccessMode // repo, user
}

func buildWorld(t *testing.T, b Backend, rnd *rand.Rand) *world {
	ctx := context.Background()
	w := &world{collab: map[[2]forge.ID]forge.AccessMode{}}
	// "" is a user written with no visibility: stored as the default.
	visibilities := []forge.Visibility{forge.VisibilityPublic, forge.VisibilityLimited, forge.VisibilityPrivate, ""}
	for i := range 4 + rnd.IntN(6) {
		u := newUser(t, b, fmt.Sprintf("user%d", i), func(u *forge.User) {
			u.Visibility = visibilities[rnd.IntN(len(visibilities))]
			u.IsAdmin = rnd.IntN(5) == 0
			if rnd.IntN(4) == 0 {
				u.Type = forge.UserTypeOrganization
			}
		})

		w.users = append(w.users, u)
	}
	at := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	modes := []forge.AccessMode{forge.AccessModeRead, forge.AccessModeWrite, forge.AccessModeAdmin}
	require.NoError(t, b.Repos().Update(ctx, func(tx repos.Tx) error {
		for i := range 20 + rnd.IntN(60) {
			owner := w.users[rnd.IntN(len(w.users))]
			r := &forge.Repository{OwnerID: owner.ID, Name: fmt.Sprintf("repo%d", i), Private: rnd.IntN(2) == 0,
				DefaultBranch: "main", Topics: []string{}, Created: at, Updated: at}
			if err := tx.CreateRepo(ctx, r); err != nil {
				return err
			}
			w.repos = append(w.repos, r)
			for _, u := range w.users {
				if u.ID != owner.ID && rnd.IntN(6) == 0 {
					m := modes[rnd.IntN(len(modes))]
					if err := tx.SetCollaborator(ctx, r.ID, u.ID, m); err != nil {
						return err
					}
					w.collab[[2]forge.ID{r.ID, u.ID}] = m
				}
			}
		}
		return nil
	}))
	return w
}

// filterFor is the visibility part of the filter repos.Service.List builds
// for an actor.
func filterFor(actor forge.Actor) repos.RepoFilter {
	f := repos.RepoFilter{VisibleTo: actor.UserID(), AllVisible: actor.IsSiteAdmin()}
	if actor.Scoped && actor.Scope.PublicOnly {
		f.VisibleTo, f.AllVisible = 0, false
	}
	return f
}

func checkVisibility(t *testing.T, b Backend, rnd *rand.Rand) {
	ctx := context.Background()
	w := buildWorld(t, b, rnd)
	// The rule reads the owners as stored.
	owners := map[forge.ID]*forge.User{}
	require.NoError(t, b.Repos().View(ctx, func(tx repos.Tx) error {
		for _, u := range w.users {
			stored, err := tx.UserByID(ctx, u.ID)
			if err != nil {
				return err
			}
			require.True(t, stored.Visibility.Valid(), "%s: stored visibility %q", u.Name, stored.Visibility)
			owners[u.ID] = stored
		}
		return nil
	}))
	actors := map[string]forge.Actor{"anonymous": {}}
	for _, u := range w.users {
		actors[u.Name] = forgetest.ActorFor(u)
		actors[u.Name+" (public-only token)"] = forgetest.TokenActor(u, "public-only", "read:repository")
	}
	for name, actor := range actors {
		var want []forge.ID
		for _, r := range w.repos {
			collab := w.collab[[2]forge.ID{r.ID, actor.UserID()}]
			if repos.Permission(actor, r, owners[r.OwnerID], collab) >= forge.AccessModeRead {
				want = append(want, r.ID)
			}
		}
		var got []forge.ID
		require.NoError(t, b.Repos().View(ctx, func(tx repos.Tx) error {
			for page := 1; ; page++ {
				list, total, err := tx.ListRepos(ctx, filterFor(actor), forge.ListOptions{Page: page, Limit: forge.MaxPageSize})
				if err != nil {
					return err
				}
				got = append(got, repoIDs(list)...)
				if len(list) < forge.MaxPageSize {
					require.EqualValues(t, len(got), total, "%s: the total counts every match", name)
					return nil
				}
			}
		}))
		slices.Sort(got)
		if !slices.Equal(want, got) {
			t.Errorf("%s: ListRepos returns %v, repos.Permission grants read on %v", name, got, want)
		}
	}
}
