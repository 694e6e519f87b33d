package hooks_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge/hooks"
	"github.com/hearthforge/hearth/issues"
)

// TestOutboxConsumerRetriedAlone: an event's consumers (Consume) each
// get a copy of it, written in the transaction that stores the webhook
// tasks; a consumer that fails leaves only its copy pending, is tried
// again once its claim ended (as after a crash), until it succeeds; the
// webhook task and the other consumer's work happen once.
func TestOutboxConsumerRetriedAlone(t *testing.T) {
	t.Parallel()
	e := newOutboxEnv(t)
	var mu sync.Mutex
	runs := map[string]int{}
	failures := 2
	e.disp.Consume(issues.OutboxKind, "flaky", func(ctx context.Context, data []byte) error {
		mu.Lock()
		defer mu.Unlock()
		runs["flaky"]++
		if failures > 0 {
			failures--
			return errors.New("not now")
		}
		return nil
	})
	e.disp.Consume(issues.OutboxKind, "steady", func(ctx context.Context, data []byte) error {
		mu.Lock()
		defer mu.Unlock()
		runs["steady"]++
		return nil
	})
	count := func(name string) int { mu.Lock(); defer mu.Unlock(); return runs[name] }

	_, err := e.issues.Create(e.ctx, e.alice, "alice", "proj", issues.CreateIssueOption{Title: "first"})
	require.NoError(t, err)
	assert.Equal(t, 1, e.dispatch(t), "the event: its webhook task and the consumers' copies")
	assert.Len(t, e.tasks(t), 1)
	assert.Zero(t, count("flaky"), "consumers run on their copies, after the webhooks")

	n, err := e.disp.DispatchOnce(e.ctx)
	assert.Equal(t, 2, n, "one copy per consumer")
	require.Error(t, err, "the flaky consumer failed")
	assert.Equal(t, 1, count("flaky"))
	assert.Equal(t, 1, count("steady"))
	assert.Equal(t, 0, e.dispatch(t), "the failed copy is held until its lease ends")

	for i := 2; i <= 3; i++ {
		e.clock.Step(2 * time.Minute) // the lease ended: the next pass retries
		n, err = e.disp.DispatchOnce(e.ctx)
		assert.Equal(t, 1, n, "pass %d: only the failed copy", i)
		assert.Equal(t, i, count("flaky"))
		if i < 3 {
			require.Error(t, err)
		} else {
			require.NoError(t, err)
		}
	}
	e.clock.Step(2 * time.Minute)
	assert.Equal(t, 0, e.dispatch(t), "done: never again")
	assert.Equal(t, 3, count("flaky"))
	assert.Equal(t, 1, count("steady"), "the other consumer ran once")
	assert.Len(t, e.tasks(t), 1, "the webhook task was made once")
}

// TestOutboxConsumerAfterRestart: a consumer's copy left pending by a
// process that stopped (its dispatcher gone, the consumer never ran) is
// handled by a dispatcher started later on the same database.
func TestOutboxConsumerAfterRestart(t *testing.T) {
	t.Parallel()
	e := newOutboxEnv(t)
	e.disp.Consume(issues.OutboxKind, "c", func(context.Context, []byte) error { return errors.New("stopping") })
	_, err := e.issues.Create(e.ctx, e.alice, "alice", "proj", issues.CreateIssueOption{Title: "first"})
	require.NoError(t, err)
	e.dispatch(t)
	_, err = e.disp.DispatchOnce(e.ctx)
	require.Error(t, err)

	// The next process: a dispatcher of its own whose consumer works.
	done := 0
	next, err := hooks.NewDispatcher(hooks.DispatcherConfig{Service: e.hooks, Clock: e.clock, Lease: time.Minute})
	require.NoError(t, err)
	next.Consume(issues.OutboxKind, "c", func(context.Context, []byte) error { done++; return nil })
	n, err := next.DispatchOnce(e.ctx)
	require.NoError(t, err)
	assert.Zero(t, n, "the copy is claimed until the stopped pass's lease ends")
	e.clock.Step(2 * time.Minute)
	n, err = next.DispatchOnce(e.ctx)
	require.NoError(t, err)
	assert.Equal(t, 1, n)
	assert.Equal(t, 1, done)
	assert.Len(t, e.tasks(t), 1)
}
