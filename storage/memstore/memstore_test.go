package memstore_test

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/forgetest"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/storage/memstore"
	"github.com/hearthforge/hearth/storage/storetest"
)

var _ storetest.Backend = (*memstore.Store)(nil)

func TestConformance(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T) storetest.Backend { return memstore.New() })
}

func TestReturnedValuesAreCopies(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := memstore.New()
	u := forgetest.User("ann")
	require.NoError(t, s.Auth().Update(ctx, func(tx auth.Tx) error { return tx.CreateUser(ctx, u, "") }))
	r := &forge.Repository{OwnerID: u.ID, Name: "r", Topics: []string{"a"}, InternalTracker: &forge.InternalTracker{}}
	require.NoError(t, s.Repos().Update(ctx, func(tx repos.Tx) error { return tx.CreateRepo(ctx, r) }))
	r.Topics[0], r.InternalTracker.EnableTimeTracker, r.Name = "changed", true, "changed" // the caller's value

	require.NoError(t, s.Repos().View(ctx, func(tx repos.Tx) error {
		got, err := tx.RepoByID(ctx, r.ID)
		require.NoError(t, err)
		assert.Equal(t, "r", got.Name)
		assert.Equal(t, []string{"a"}, got.Topics, "the store keeps its own copy of what it was given")
		assert.False(t, got.InternalTracker.EnableTimeTracker)
		got.Topics[0], got.InternalTracker.EnableTimeTracker = "mutated", true
		again, err := tx.RepoByID(ctx, r.ID)
		require.NoError(t, err)
		assert.Equal(t, []string{"a"}, again.Topics, "a returned value is the caller's copy")
		assert.False(t, again.InternalTracker.EnableTimeTracker)
		return nil
	}))
}

func TestViewIsASnapshotAndReadOnly(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := memstore.New()
	inView, release := make(chan struct{}), make(chan struct{})
	done := make(chan error)
	go func() {
		done <- s.Auth().View(ctx, func(tx auth.Tx) error {
			close(inView)
			<-release // a writer commits meanwhile
			if _, err := tx.UserByName(ctx, "bob"); !errors.Is(err, forge.ErrNotFound) {
				return errors.New("a View saw a write committed after it began")
			}
			if err := tx.CreateUser(ctx, forgetest.User("carl"), ""); err == nil {
				return errors.New("a View wrote")
			}
			return nil
		})
	}()
	<-inView
	require.NoError(t, s.Auth().Update(ctx, func(tx auth.Tx) error { return tx.CreateUser(ctx, forgetest.User("bob"), "") }),
		"writers do not wait for readers")
	close(release)
	require.NoError(t, <-done)
}

func TestTxUnusableAfterItEnds(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := memstore.New()
	var kept auth.Tx
	require.NoError(t, s.Auth().Update(ctx, func(tx auth.Tx) error { kept = tx; return nil }))
	assert.Error(t, kept.CreateUser(ctx, forgetest.User("late"), ""))
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	assert.ErrorIs(t, s.Auth().Update(cancelled, func(auth.Tx) error { return nil }), context.Canceled)
}

func TestPanicLeavesNothing(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := memstore.New()
	assert.Panics(t, func() {
		_ = s.Auth().Update(ctx, func(tx auth.Tx) error {
			_ = tx.CreateUser(ctx, forgetest.User("ghost"), "")
			panic("boom")
		})
	})
	require.NoError(t, s.Auth().View(ctx, func(tx auth.Tx) error {
		_, err := tx.UserByName(ctx, "ghost")
		assert.ErrorIs(t, err, forge.ErrNotFound)
		return nil
	}))
	// The writer lock was released.
	require.NoError(t, s.Auth().Update(ctx, func(tx auth.Tx) error { return tx.CreateUser(ctx, forgetest.User("real"), "") }))
}

// Concurrent increments of a counter never lose an update: writers are
// serialised (run with -race).
func TestConcurrentWriters(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := memstore.New()
	u := forgetest.User("ann")
	require.NoError(t, s.Auth().Update(ctx, func(tx auth.Tx) error { return tx.CreateUser(ctx, u, "") }))
	const n = 50
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			assert.NoError(t, s.Auth().Update(ctx, func(tx auth.Tx) error {
				v, err := tx.UserByID(ctx, u.ID)
				if err != nil {
					return err
				}
				v.MaxRepoCreation++
				return tx.UpdateUser(ctx, v)
			}))
			assert.NoError(t, s.Auth().View(ctx, func(tx auth.Tx) error { _, err := tx.UserByID(ctx, u.ID); return err }))
		})
	}
	wg.Wait()
	require.NoError(t, s.Auth().View(ctx, func(tx auth.Tx) error {
		v, err := tx.UserByID(ctx, u.ID)
		require.NoError(t, err)
		assert.EqualValues(t, n-1, v.MaxRepoCreation)
		return nil
	}))
}
