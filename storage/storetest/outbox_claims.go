package storetest

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge/hooks"
	"github.com/hearthforge/hearth/issues"
)

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
