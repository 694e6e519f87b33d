package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
)

// testSocial covers collaborators, watchers and stargazers: order, paging,
// counters, the list filters built on them, and cascades.
func testSocial(t *testing.T, b Backend) {
	ctx := context.Background()
	s := b.Repos()
	owner := newUser(t, b, "olga")
	var users []*forge.User
	for _, n := range []string{"Zed", "amy", "Bea"} {
		users = append(users, newUser(t, b, n))
	}
	zed, amy, bea := users[0], users[1], users[2]
	r := newRepo(t, b, owner, "social")
	r2 := newRepo(t, b, owner, "quiet")
	at := time.Date(2024, 9, 1, 0, 0, 0, 0, time.UTC)

	repoUpdate(t, s, func(tx repos.Tx) error {
		for i, u := range users {
			if err := tx.SetCollaborator(ctx, r.ID, u.ID, forge.AccessModeRead); err != nil {
				return err
			}
			if err := tx.SetWatch(ctx, r.ID, u.ID, repos.WatchAuto, at); err != nil {
				return err
			}
			// Stars in the reverse order of ids: stargazers list by star time.
			if err := tx.SetStar(ctx, r.ID, u.ID, true, at.Add(-time.Duration(i)*time.Minute)); err != nil {
				return err
			}
		}
		if err := tx.SetStar(ctx, r.ID, zed.ID, true, at); err != nil { // again: no change
			return err
		}
		return tx.SetCollaborator(ctx, r.ID, amy.ID, forge.AccessModeAdmin) // an update
	})
	for name, fn := range map[string]func(tx repos.Tx) error{
		"collaborator on no repository": func(tx repos.Tx) error { return tx.SetCollaborator(ctx, 9999, amy.ID, forge.AccessModeRead) },
		"collaborator who is no user":   func(tx repos.Tx) error { return tx.SetCollaborator(ctx, r.ID, 9999, forge.AccessModeRead) },
		"watch of no repository":        func(tx repos.Tx) error { return tx.SetWatch(ctx, 9999, amy.ID, repos.WatchNormal, at) },
		"star of no repository":         func(tx repos.Tx) error { return tx.SetStar(ctx, 9999, amy.ID, true, at) },
	} {
		assert.ErrorIs(t, s.Update(ctx, fn), forge.ErrNotFound, name)
	}

	require.NoError(t, s.View(ctx, func(tx repos.Tx) error {
		got, err := tx.RepoByID(ctx, r.ID)
		require.NoError(t, err)
		assert.Equal(t, 3, got.NumStars)
		assert.Equal(t, 3, got.NumWatches)

		cs, total, err := tx.ListCollaborators(ctx, r.ID, forge.ListOptions{Page: 1, Limit: 2})
		require.NoError(t, err)
		assert.EqualValues(t, 3, total)
		require.Len(t, cs, 2)
		assert.Equal(t, []string{"amy", "Bea"}, []string{cs[0].User.Name, cs[1].User.Name}, "by name, ignoring case")
		assert.Equal(t, forge.AccessModeAdmin, cs[0].Mode)
		cs, _, _ = tx.ListCollaborators(ctx, r.ID, forge.ListOptions{Page: 2, Limit: 2})
		require.Len(t, cs, 1)
		assert.Equal(t, "Zed", cs[0].User.Name)

		ws, total, err := tx.ListWatchers(ctx, r.ID, forge.ListOptions{Page: 1, Limit: 10})
		require.NoError(t, err)
		assert.EqualValues(t, 3, total)
		assert.Equal(t, []string{"Zed", "amy", "Bea"}, userNames(ws), "by id")
		ws, total, err = tx.ListWatchers(ctx, r2.ID, forge.ListOptions{Page: 1, Limit: 10})
		require.NoError(t, err)
		assert.Zero(t, total)
		assert.NotNil(t, ws)

		gs, _, err := tx.ListStargazers(ctx, r.ID, forge.ListOptions{Page: 1, Limit: 10})
		require.NoError(t, err)
		assert.Equal(t, []string{"Bea", "amy", "Zed"}, userNames(gs), "by the time they starred")
		ok, err := tx.IsStarred(ctx, r.ID, amy.ID)
		require.NoError(t, err)
		assert.True(t, ok)

		all := forge.ListOptions{Page: 1, Limit: 10}
		list, _, _ := tx.ListRepos(ctx, repos.RepoFilter{StarredBy: amy.ID}, all)
		assert.Equal(t, []forge.ID{r.ID}, repoIDs(list))
		list, _, _ = tx.ListRepos(ctx, repos.RepoFilter{WatchedBy: bea.ID}, all)
		assert.Equal(t, []forge.ID{r.ID}, repoIDs(list))
		list, _, _ = tx.ListRepos(ctx, repos.RepoFilter{OwnerID: owner.ID, Sort: "alpha"}, all)
		assert.Equal(t, []forge.ID{r2.ID, r.ID}, repoIDs(list), "quiet before social")
		list, _, _ = tx.ListRepos(ctx, repos.RepoFilter{OwnerID: owner.ID, Sort: "stars"}, all)
		assert.Equal(t, []forge.ID{r.ID, r2.ID}, repoIDs(list), "most stars first")
		list, _, _ = tx.ListRepos(ctx, repos.RepoFilter{OwnerID: owner.ID, Sort: "newest"}, all)
		assert.Equal(t, []forge.ID{r2.ID, r.ID}, repoIDs(list))
		list, _, _ = tx.ListRepos(ctx, repos.RepoFilter{OwnerID: owner.ID, Sort: "alpha", Order: "desc"}, all)
		assert.Equal(t, []forge.ID{r.ID, r2.ID}, repoIDs(list))
		list, total, _ = tx.ListRepos(ctx, repos.RepoFilter{OwnerID: owner.ID}, forge.ListOptions{Page: 2, Limit: 1})
		assert.EqualValues(t, 2, total)
		assert.Equal(t, []forge.ID{r2.ID}, repoIDs(list))
		list, _, _ = tx.ListRepos(ctx, repos.RepoFilter{OwnerID: owner.ID}, forge.ListOptions{Page: 5, Limit: 1})
		assert.NotNil(t, list)
		assert.Empty(t, list)
		return nil
	}))

	// Don't-watch and none are not watching; removing keeps the counters.
	repoUpdate(t, s, func(tx repos.Tx) error {
		if err := tx.SetWatch(ctx, r.ID, zed.ID, repos.WatchDont, at); err != nil {
			return err
		}
		if err := tx.SetWatch(ctx, r.ID, amy.ID, repos.WatchNone, at); err != nil {
			return err
		}
		if err := tx.SetStar(ctx, r.ID, amy.ID, false, at); err != nil {
			return err
		}
		return tx.DeleteCollaborator(ctx, r.ID, amy.ID)
	})
	err := s.Update(ctx, func(tx repos.Tx) error { return tx.DeleteCollaborator(ctx, r.ID, amy.ID) })
	assert.ErrorIs(t, err, forge.ErrNotFound)
	require.NoError(t, s.View(ctx, func(tx repos.Tx) error {
		got, err := tx.RepoByID(ctx, r.ID)
		require.NoError(t, err)
		assert.Equal(t, 2, got.NumStars)
		assert.Equal(t, 1, got.NumWatches)
		m, when, err := tx.Watch(ctx, r.ID, amy.ID)
		require.NoError(t, err)
		assert.Equal(t, repos.WatchNone, m)
		assert.True(t, when.IsZero())
		m, _, _ = tx.Watch(ctx, r.ID, zed.ID)
		assert.Equal(t, repos.WatchDont, m)
		mode, err := tx.CollaboratorMode(ctx, r.ID, amy.ID)
		require.NoError(t, err)
		assert.Equal(t, forge.AccessNone, mode)
		list, _, _ := tx.ListRepos(ctx, repos.RepoFilter{WatchedBy: zed.ID}, forge.ListOptions{Page: 1, Limit: 10})
		assert.Empty(t, list, "don't-watch is not watching")
		return nil
	}))

	// Deleting a user deletes its collaborations, watches and stars.
	require.NoError(t, b.Auth().Update(ctx, func(tx auth.Tx) error { return tx.DeleteUser(ctx, bea.ID) }))
	require.NoError(t, s.View(ctx, func(tx repos.Tx) error {
		_, n, _ := tx.ListCollaborators(ctx, r.ID, forge.ListOptions{Page: 1, Limit: 10})
		assert.EqualValues(t, 1, n)
		_, n, _ = tx.ListStargazers(ctx, r.ID, forge.ListOptions{Page: 1, Limit: 10})
		assert.EqualValues(t, 1, n)
		_, n, _ = tx.ListWatchers(ctx, r.ID, forge.ListOptions{Page: 1, Limit: 10})
		assert.EqualValues(t, 0, n)
		return nil
	}))
}
