package hooks_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/hooks"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/issues"
	"github.com/hearthforge/hearth/storage/memgit"
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

// flakySize is memgit whose Size fails while failing is above zero, as
// the size walk failed under concurrent pushes.
type flakySize struct {
	*memgit.Store
	mu      sync.Mutex
	failing int
}

func (g *flakySize) Size(ctx context.Context, id forge.ID) (int64, error) {
	g.mu.Lock()
	fail := g.failing > 0
	if fail {
		g.failing--
	}
	g.mu.Unlock()
	if fail {
		return 0, errors.New("size walk failed")
	}
	return g.Store.Size(ctx, id)
}

// TestRefMoveSurvivesAFailedRefresh: a commit whose refresh fails (in the
// request and in the consumer's first pass) is still recorded, its push
// webhook made, and the repository's size brought up to date by the
// outbox's refresh consumer (repos.Ports.HandleRefMoves) on a later pass.
func TestRefMoveSurvivesAFailedRefresh(t *testing.T) {
	t.Parallel()
	e := newOutboxEnv(t)
	g := &flakySize{Store: memgit.New()}
	rs, ports, err := repos.NewWithPorts(repos.Config{Store: e.db.Repos(), Git: g, Clock: e.clock, Outbox: e.wake})
	require.NoError(t, err)
	e.disp.Handle(repos.OutboxPush, func(ctx context.Context, data []byte) error {
		ev, err := repos.UnmarshalOutbox(data)
		if err != nil {
			return err
		}
		var ups []hooks.RefUpdate
		for _, u := range ev.Updates {
			ups = append(ups, hooks.RefUpdate{Ref: u.Ref, OldID: u.OldID, NewID: u.NewID})
		}
		return e.sinks.pushed(ctx, ev.Actor, ev.Repo, ups)
	})
	e.disp.Consume(repos.OutboxPush, "refresh", ports.HandleRefMoves)
	_, err = rs.Create(e.ctx, e.alice, "", repos.CreateOptions{Name: "code"})
	require.NoError(t, err)
	h, err := e.hooks.Create(e.ctx, e.alice, hooks.RepoHooks("alice", "code"), hooks.CreateOptions{
		Type: hooks.TypeForgejo, Config: hooks.Settings{"url": "https://receiver.example/p", "content_type": "json"},
		Events: []string{"push"}, Active: true})
	require.NoError(t, err)
	for e.dispatch(t) > 0 { // the creation's event
	}

	g.failing = 2 // the request's refresh and the consumer's first pass
	_, _, _, err = rs.ChangeFiles(e.ctx, e.alice, "alice", "code", repos.ChangeFilesOptions{Message: "add",
		Files: []repos.FileChange{{Op: "create", Path: "a.txt", Content: []byte("some content")}}})
	require.NoError(t, err, "the commit landed: a failed refresh is no failed write")
	v, err := rs.Get(e.ctx, e.alice, "alice", "code")
	require.NoError(t, err)
	assert.True(t, v.Repo.Empty, "not refreshed yet")

	assert.Equal(t, 1, e.dispatch(t), "the push event: its webhook task")
	tasks, _, err := e.hooks.Tasks(e.ctx, e.alice, hooks.RepoHooks("alice", "code"), h.ID, forge.ListOptions{})
	require.NoError(t, err)
	require.Len(t, tasks, 1)
	assert.Equal(t, "push", tasks[0].Event)
	_, err = e.disp.DispatchOnce(e.ctx)
	require.Error(t, err, "the refresh consumer failed once")
	e.clock.Step(2 * time.Minute)
	assert.Equal(t, 1, e.dispatch(t), "retried after the lease")
	v, err = rs.Get(e.ctx, e.alice, "alice", "code")
	require.NoError(t, err)
	assert.False(t, v.Repo.Empty, "refreshed by the consumer")
	assert.Positive(t, v.Repo.Size)
	tasks, _, err = e.hooks.Tasks(e.ctx, e.alice, hooks.RepoHooks("alice", "code"), h.ID, forge.ListOptions{})
	require.NoError(t, err)
	assert.Len(t, tasks, 1, "the webhook was not made again")
}
