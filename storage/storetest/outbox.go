package storetest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/hooks"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/issues"
)

// testOutbox: events appended in a domain's transaction (issues, repos,
// hooks) are pending, oldest first, with their kind, data and time; a rolled-back
// transaction appends nothing; a claim hides the events it holds from
// other claims until it ends; FinishOutbox marks an event processed once,
// only under its current claim.
func testOutbox(t *testing.T, b Backend) {
	ctx := context.Background()
	s := b.Hooks()
	at := time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)
	require.NoError(t, b.Issues().Update(ctx, func(tx issues.Tx) error {
		return tx.AppendOutbox(ctx, "issues", []byte(`{"Kind":"create"}`), at)
	}))
	boom := errors.New("rolled back")
	err := b.Issues().Update(ctx, func(tx issues.Tx) error {
		if err := tx.AppendOutbox(ctx, "issues", []byte(`{"Kind":"gone"}`), at); err != nil {
			return err
		}
		return boom
	})
	require.ErrorIs(t, err, boom)
	require.NoError(t, b.Repos().Update(ctx, func(tx repos.Tx) error {
		return tx.AppendOutbox(ctx, "repo.created", []byte(`{"id":7}`), at.Add(time.Second))
	}))
	hookUpdate(t, s, func(tx hooks.Tx) error { return tx.AppendOutbox(ctx, "push", nil, at.Add(2*time.Second)) })

	claim := func(name string, now time.Time, limit int) []*hooks.OutboxEvent {
		t.Helper()
		var list []*hooks.OutboxEvent
		hookUpdate(t, s, func(tx hooks.Tx) error {
			var err error
			list, err = tx.ClaimOutbox(ctx, name, now, now.Add(time.Minute), limit)
			return err
		})
		return list
	}
	finish := func(id forge.ID, name string) error {
		return s.Update(ctx, func(tx hooks.Tx) error { return tx.FinishOutbox(ctx, id, name, at.Add(time.Hour)) })
	}

	now := at.Add(10 * time.Second)
	first := claim("a", now, 2)
	require.Len(t, first, 2)
	assert.Equal(t, "issues", first[0].Kind)
	assert.JSONEq(t, `{"Kind":"create"}`, string(first[0].Data))
	assert.Equal(t, at, first[0].Created)
	assert.Equal(t, "a", first[0].Claim)
	assert.Equal(t, now.Add(time.Minute), first[0].ClaimUntil)
	assert.True(t, first[0].Done.IsZero())
	assert.Equal(t, "repo.created", first[1].Kind)
	assert.JSONEq(t, `{"id":7}`, string(first[1].Data))
	assert.Less(t, first[0].ID, first[1].ID)

	// The claimed events are hidden from another claim until it ends.
	second := claim("b", now, 10)
	require.Len(t, second, 1)
	assert.Equal(t, "push", second[0].Kind)
	assert.Empty(t, second[0].Data)
	assert.Greater(t, second[0].ID, first[1].ID)

	require.NoError(t, finish(first[0].ID, "a"))
	assert.ErrorIs(t, finish(first[0].ID, "a"), forge.ErrConflict, "processed twice")
	assert.ErrorIs(t, finish(first[1].ID, "b"), forge.ErrConflict, "another pass's claim")
	assert.ErrorIs(t, finish(first[1].ID+1000, "a"), forge.ErrNotFound)
	assert.Empty(t, claim("c", now.Add(30*time.Second), 10), "claims still held")

	// Once the claims have ended, the pending events are claimed again;
	// the processed one never is, and the old claim cannot finish.
	later := now.Add(2 * time.Minute)
	again := claim("d", later, 10)
	require.Len(t, again, 2)
	assert.Equal(t, []forge.ID{first[1].ID, second[0].ID}, []forge.ID{again[0].ID, again[1].ID})
	assert.ErrorIs(t, finish(first[1].ID, "a"), forge.ErrConflict, "claim ended")
	require.NoError(t, finish(first[1].ID, "d"))
	require.NoError(t, finish(second[0].ID, "d"))
	assert.Empty(t, claim("e", later.Add(time.Hour), 10))

	// Pruning deletes the events processed before the time given: all
	// three were processed at at+1h.
	prune := func(before time.Time) int64 {
		t.Helper()
		var n int64
		hookUpdate(t, s, func(tx hooks.Tx) error {
			var err error
			n, err = tx.PruneOutbox(ctx, before)
			return err
		})
		return n
	}
	hookUpdate(t, s, func(tx hooks.Tx) error { return tx.AppendOutbox(ctx, "pending", []byte(`{}`), at) })
	assert.Equal(t, int64(0), prune(at.Add(time.Hour)), "processed at that time, not before")
	assert.Equal(t, int64(3), prune(at.Add(2*time.Hour)))
	assert.ErrorIs(t, finish(first[0].ID, "a"), forge.ErrNotFound, "pruned")
	left := claim("f", later.Add(time.Hour), 10)
	require.Len(t, left, 1, "a pending event is never pruned")
	assert.Equal(t, "pending", left[0].Kind)
}

// testOutboxClaims: several dispatchers (several servers on one database)
// draining the outbox at once on the store's own claim path (ClaimOutbox
// and FinishOutbox: SKIP LOCKED on PostgreSQL, the one writer on SQLite)
// hand every event to its handler once and to each consumer once, and
// leave nothing pending.
func testOutboxClaims(t *testing.T, b Backend) {
	ctx := context.Background()
	const events, dispatchers = 40, 4
	at := time.Now()
	for i := range events {
		require.NoError(t, b.Issues().Update(ctx, func(tx issues.Tx) error {
			return tx.AppendOutbox(ctx, "claims", fmt.Appendf(nil, `{"n":%d}`, i), at)
		}))
	}
	svc, err := hooks.New(hooks.Config{Store: b.Hooks()})
	require.NoError(t, err)
	var mu sync.Mutex
	handled, consumed := map[string]int{}, map[string]int{}
	count := func(m map[string]int) hooks.OutboxHandler {
		return func(_ context.Context, data []byte) error {
			mu.Lock()
			defer mu.Unlock()
			m[string(data)]++
			return nil
		}
	}
	var wg sync.WaitGroup
	errs := make(chan error, dispatchers)
	for range dispatchers {
		d, err := hooks.NewDispatcher(hooks.DispatcherConfig{Service: svc, Batch: 3})
		require.NoError(t, err)
		d.Handle("claims", count(handled))
		d.Consume("claims", "counter", count(consumed))
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs <- d.Drain(ctx)
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		assert.NoError(t, err)
	}
	// A dispatcher that found nothing while another held the last claims
	// stopped early: one more pass takes what those left.
	d, err := hooks.NewDispatcher(hooks.DispatcherConfig{Service: svc})
	require.NoError(t, err)
	d.Handle("claims", count(handled))
	d.Consume("claims", "counter", count(consumed))
	require.NoError(t, d.Drain(ctx))
	require.Len(t, handled, events)
	require.Len(t, consumed, events)
	for data, n := range handled {
		assert.Equal(t, 1, n, "event %s handled", data)
		assert.Equal(t, 1, consumed[data], "event %s consumed", data)
	}
}
