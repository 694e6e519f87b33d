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

// testRepoLifecycle covers what a repository goes through after creation:
// edits and renames, forks and their counter, pending transfers, and the
// user lookups repos.Tx offers.
func testRepoLifecycle(t *testing.T, b Backend) {
	ctx := context.Background()
	s := b.Repos()
	ann := newUser(t, b, "Anna")
	bob := newUser(t, b, "bobo")
	r := newRepo(t, b, ann, "orig")
	taken := newRepo(t, b, ann, "Taken")

	require.NoError(t, s.View(ctx, func(tx repos.Tx) error {
		checkUserReads(t, tx, ann, bob)
		return nil
	}))

	// UpdateRepo writes every field; names stay unique per owner.
	edited := *r
	edited.Name, edited.Description, edited.Private, edited.Archived = "Renamed", "d", true, true
	edited.ArchivedAt, edited.Updated = r.Created.Add(time.Hour), r.Created.Add(time.Hour)
	edited.Topics, edited.ExternalWiki = []string{"x", "y"}, &forge.ExternalWiki{URL: "https://wiki.example"}
	repoUpdate(t, s, func(tx repos.Tx) error { e := edited; return tx.UpdateRepo(ctx, &e) })
	err := s.Update(ctx, func(tx repos.Tx) error { e := edited; e.Name = "TAKEN"; return tx.UpdateRepo(ctx, &e) })
	assert.ErrorIs(t, err, forge.ErrConflict)
	err = s.Update(ctx, func(tx repos.Tx) error { e := edited; e.ID = 9999; e.Name = "ghost"; return tx.UpdateRepo(ctx, &e) })
	assert.ErrorIs(t, err, forge.ErrNotFound)
	require.NoError(t, s.View(ctx, func(tx repos.Tx) error {
		got, err := tx.RepoByName(ctx, ann.ID, "renamed")
		require.NoError(t, err)
		assert.Equal(t, &edited, got)
		_, err = tx.RepoByName(ctx, ann.ID, "orig")
		assert.ErrorIs(t, err, forge.ErrNotFound)
		return nil
	}))

	// Forks: ForkOf lists them, RecountForks keeps the counter.
	var forks []*forge.Repository
	for _, owner := range []*forge.User{bob, ann} {
		f := &forge.Repository{OwnerID: owner.ID, Name: "fork", ForkID: r.ID, DefaultBranch: "main",
			Topics: []string{}, Created: r.Created, Updated: r.Created}
		repoUpdate(t, s, func(tx repos.Tx) error {
			if err := tx.CreateRepo(ctx, f); err != nil {
				return err
			}
			return tx.RecountForks(ctx, r.ID)
		})
		forks = append(forks, f)
	}
	require.NoError(t, s.View(ctx, func(tx repos.Tx) error {
		got, err := tx.RepoByID(ctx, r.ID)
		require.NoError(t, err)
		assert.Equal(t, 2, got.NumForks)
		list, total, err := tx.ListRepos(ctx, repos.RepoFilter{ForkOf: r.ID, AllVisible: true}, forge.ListOptions{Page: 1, Limit: 10})
		require.NoError(t, err)
		assert.EqualValues(t, 2, total)
		assert.Equal(t, []forge.ID{forks[0].ID, forks[1].ID}, repoIDs(list))
		return nil
	}))
	repoUpdate(t, s, func(tx repos.Tx) error {
		if err := tx.DeleteRepo(ctx, forks[0].ID); err != nil {
			return err
		}
		return tx.RecountForks(ctx, r.ID)
	})
	require.NoError(t, s.View(ctx, func(tx repos.Tx) error {
		got, err := tx.RepoByID(ctx, r.ID)
		require.NoError(t, err)
		assert.Equal(t, 1, got.NumForks)
		return nil
	}))

	// Pending transfers: one per repository, replaced by the next.
	at := time.Date(2024, 7, 1, 0, 0, 0, 0, time.UTC)
	require.NoError(t, s.View(ctx, func(tx repos.Tx) error {
		_, err := tx.Transfer(ctx, r.ID)
		assert.ErrorIs(t, err, forge.ErrNotFound)
		return nil
	}))
	repoUpdate(t, s, func(tx repos.Tx) error {
		return tx.SetTransfer(ctx, &repos.Transfer{RepoID: r.ID, Doer: ann, Recipient: bob, Created: at})
	})
	repoUpdate(t, s, func(tx repos.Tx) error {
		return tx.SetTransfer(ctx, &repos.Transfer{RepoID: r.ID, Doer: bob, Recipient: ann, Created: at.Add(time.Hour)})
	})
	err = s.Update(ctx, func(tx repos.Tx) error {
		return tx.SetTransfer(ctx, &repos.Transfer{RepoID: 9999, Doer: ann, Recipient: bob, Created: at})
	})
	assert.ErrorIs(t, err, forge.ErrNotFound, "a transfer needs an existing repository")
	require.NoError(t, s.View(ctx, func(tx repos.Tx) error {
		tr, err := tx.Transfer(ctx, r.ID)
		require.NoError(t, err)
		assert.Equal(t, r.ID, tr.RepoID)
		assert.Equal(t, bob.ID, tr.Doer.ID)
		assert.Equal(t, ann.ID, tr.Recipient.ID)
		assert.Equal(t, at.Add(time.Hour), tr.Created)
		return nil
	}))
	repoUpdate(t, s, func(tx repos.Tx) error { return tx.DeleteTransfer(ctx, r.ID) })
	repoUpdate(t, s, func(tx repos.Tx) error { return tx.DeleteTransfer(ctx, r.ID) }) // none: no error
	require.NoError(t, s.View(ctx, func(tx repos.Tx) error {
		_, err := tx.Transfer(ctx, r.ID)
		assert.ErrorIs(t, err, forge.ErrNotFound)
		return nil
	}))
	// A transfer goes with its recipient.
	repoUpdate(t, s, func(tx repos.Tx) error {
		return tx.SetTransfer(ctx, &repos.Transfer{RepoID: taken.ID, Doer: ann, Recipient: bob, Created: at})
	})
	repoUpdate(t, s, func(tx repos.Tx) error { return tx.DeleteRepo(ctx, forks[1].ID) })
	require.NoError(t, b.Auth().Update(ctx, func(tx auth.Tx) error { return tx.DeleteUser(ctx, bob.ID) }))
	require.NoError(t, s.View(ctx, func(tx repos.Tx) error {
		_, err := tx.Transfer(ctx, taken.ID)
		assert.ErrorIs(t, err, forge.ErrNotFound, "deleting a user deletes the transfers to it")
		return nil
	}))
}

func repoIDs(list []*forge.Repository) []forge.ID {
	return pluck(list, func(r *forge.Repository) forge.ID { return r.ID })
}
