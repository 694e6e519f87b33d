package hooks_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/forgetest"
	"github.com/hearthforge/hearth/forge/hooks"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/issues"
	"github.com/hearthforge/hearth/storage/memgit"
	"github.com/hearthforge/hearth/storage/sqlite"
)

// outboxEnv is a SQLite database with a repository alice/proj, an issue
// tracker appending its events to the outbox, a webhook service and a
// dispatcher whose handler queues the issues event of created issues.
type outboxEnv struct {
	ctx    context.Context
	db     *sqlite.DB
	clock  *forgetest.FakeClock
	hooks  *hooks.Service
	sinks  *sinks
	issues *issues.Service
	disp   *hooks.Dispatcher
	wake   hooks.Wake
	alice  forge.Actor
	hook   *hooks.Hook
}

func newOutboxEnv(t *testing.T) *outboxEnv {
	t.Helper()
	ctx := context.Background()
	db, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "hearth.db"))
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	e := &outboxEnv{ctx: ctx, db: db, clock: forgetest.NewClock(), wake: hooks.NewWake()}
	rs, rp, err := repos.NewWithPorts(repos.Config{Store: db.Repos(), Git: memgit.New(), Clock: e.clock})
	require.NoError(t, err)
	e.hooks, e.sinks, err = newSinks(hooks.Config{Store: db.Hooks(), Clock: e.clock, Repos: rs, RootURL: testRoot}, rp)
	require.NoError(t, err)
	e.issues, err = issues.New(issues.Config{Store: db.Issues(), Repos: rs, Clock: e.clock, Outbox: e.wake})
	require.NoError(t, err)
	e.disp, err = hooks.NewDispatcher(hooks.DispatcherConfig{Service: e.hooks, Clock: e.clock, Wake: e.wake, Lease: time.Minute})
	require.NoError(t, err)
	e.disp.Handle(issues.OutboxKind, func(ctx context.Context, data []byte) error {
		ev, err := issues.UnmarshalEvent(data)
		if err != nil || ev.Kind != issues.EventCreate {
			return err
		}
		return e.sinks.issueChanged(ctx, ev.Actor, issueView(ev.Repo, ev.Issue, nil), hooks.ActionOpened)
	})
	u := forgetest.User("alice")
	require.NoError(t, db.Auth().Update(ctx, func(tx auth.Tx) error { return tx.CreateUser(ctx, u, "") }))
	e.alice = forgetest.ActorFor(u)
	_, err = rs.Create(ctx, e.alice, "", repos.CreateOptions{Name: "proj"})
	require.NoError(t, err)
	e.hook, err = e.hooks.Create(ctx, e.alice, hooks.RepoHooks("alice", "proj"), hooks.CreateOptions{
		Type: hooks.TypeForgejo, Config: hooks.Settings{"url": "https://receiver.example/h", "content_type": "json"},
		Events: []string{"issues"}, Active: true})
	require.NoError(t, err)
	return e
}

func (e *outboxEnv) tasks(t *testing.T) []*hooks.Task {
	t.Helper()
	list, _, err := e.hooks.Tasks(e.ctx, e.alice, hooks.RepoHooks("alice", "proj"), e.hook.ID, forge.ListOptions{})
	require.NoError(t, err)
	return list
}

func (e *outboxEnv) dispatch(t *testing.T) int {
	t.Helper()
	n, err := e.disp.DispatchOnce(e.ctx)
	require.NoError(t, err)
	return n
}

// TestOutboxIssueEvent: an issue created appends its event in its
// transaction and signals the dispatcher; the hook task exists only once
// the dispatcher has processed the event, and a second pass makes none.
func TestOutboxIssueEvent(t *testing.T) {
	t.Parallel()
	e := newOutboxEnv(t)
	_, err := e.issues.Create(e.ctx, e.alice, "alice", "proj", issues.CreateIssueOption{Title: "first"})
	require.NoError(t, err)
	select {
	case <-e.wake:
	default:
		t.Fatal("the dispatcher was not signalled")
	}
	assert.Empty(t, e.tasks(t), "nothing queued before the dispatcher runs")
	assert.Equal(t, 1, e.dispatch(t))
	list := e.tasks(t)
	require.Len(t, list, 1)
	assert.Equal(t, "issues", list[0].Event)
	assert.Contains(t, string(list[0].Payload), `"title":"first"`)
	assert.Contains(t, string(list[0].Payload), `"action":"opened"`)
	assert.Equal(t, 0, e.dispatch(t))
	assert.Len(t, e.tasks(t), 1, "an event makes its tasks once")
}

// TestOutboxRolledBack: whichever statement of an issue's creation fails,
// the issue and its event are rolled back together: nothing is claimed,
// nothing queued; once the creation succeeds, its one event is.
func TestOutboxRolledBack(t *testing.T) {
	t.Parallel()
	e := newOutboxEnv(t)
	for k := int64(1); ; k++ {
		require.Less(t, k, int64(200), "the creation never succeeded")
		e.db.FailStatement(k)
		_, err := e.issues.Create(e.ctx, e.alice, "alice", "proj", issues.CreateIssueOption{Title: "t"})
		armed := e.db.Armed()
		e.db.FailStatement(0)
		if armed {
			// No k-th statement: the creation ran whole.
			require.NoError(t, err)
			require.Greater(t, k, int64(5), "every statement of the creation failed once")
			break
		}
		require.ErrorIs(t, err, sqlite.ErrInjected, "statement %d", k)
		_, err = e.issues.Get(e.ctx, e.alice, "alice", "proj", 1)
		require.ErrorIs(t, err, forge.ErrNotFound, "statement %d: no issue", k)
		assert.Equal(t, 0, e.dispatch(t), "statement %d: no event", k)
		assert.Empty(t, e.tasks(t), "statement %d", k)
	}
	assert.Equal(t, 1, e.dispatch(t))
	assert.Len(t, e.tasks(t), 1)
}

// TestOutboxCrashBetweenClaimAndDone: a pass that claimed an event and
// failed before marking it processed (a statement of the transaction that
// stores the tasks fails, as a crash would end it) stores nothing; the
// event stays claimed until the lease ends, is then processed once, and
// never again.
func TestOutboxCrashBetweenClaimAndDone(t *testing.T) {
	t.Parallel()
	e := newOutboxEnv(t)
	_, err := e.issues.Create(e.ctx, e.alice, "alice", "proj", issues.CreateIssueOption{Title: "crash"})
	require.NoError(t, err)
	// The claim is two statements (select, claim); the third is the first
	// of the transaction storing the tasks and marking the event done.
	e.db.FailStatement(3)
	n, err := e.disp.DispatchOnce(e.ctx)
	assert.False(t, e.db.Armed(), "the fault fired")
	e.db.FailStatement(0)
	assert.Equal(t, 1, n, "claimed")
	require.ErrorIs(t, err, sqlite.ErrInjected)
	assert.Empty(t, e.tasks(t), "nothing stored by the failed pass")
	assert.Equal(t, 0, e.dispatch(t), "held by the claim until the lease ends")

	e.clock.Step(2 * time.Minute)
	assert.Equal(t, 1, e.dispatch(t), "claimed again once the lease ended")
	assert.Len(t, e.tasks(t), 1)
	e.clock.Step(2 * time.Minute)
	assert.Equal(t, 0, e.dispatch(t))
	assert.Len(t, e.tasks(t), 1, "delivered once, never twice")

	// Processed events are pruned once older than Keep (a day).
	pruned, err := e.disp.Prune(e.ctx)
	require.NoError(t, err)
	assert.Zero(t, pruned, "kept a day")
	e.clock.Step(25 * time.Hour)
	pruned, err = e.disp.Prune(e.ctx)
	require.NoError(t, err)
	assert.Equal(t, int64(1), pruned)
}

// TestOutboxRepoEvents: with an outbox, repositories created and deleted
// append their events in their transactions; the dispatcher turns them
// into the repository events of the owner's hooks, each once.
func TestOutboxRepoEvents(t *testing.T) {
	t.Parallel()
	e := newOutboxEnv(t)
	rs, err := repos.New(repos.Config{Store: e.db.Repos(), Git: memgit.New(), Clock: e.clock, Outbox: e.wake})
	require.NoError(t, err)
	for _, kind := range []string{repos.OutboxRepoCreated, repos.OutboxRepoDeleted} {
		e.disp.Handle(kind, func(ctx context.Context, data []byte) error {
			ev, err := repos.UnmarshalOutbox(data)
			if err != nil {
				return err
			}
			if kind == repos.OutboxRepoCreated {
				return e.sinks.repoCreated(ctx, ev.Actor, ev.Repo)
			}
			return e.sinks.repoDeleted(ctx, ev.Actor, ev.Repo)
		})
	}
	h, err := e.hooks.Create(e.ctx, e.alice, hooks.UserHooks(), hooks.CreateOptions{Type: hooks.TypeForgejo,
		Config: hooks.Settings{"url": "https://receiver.example/u", "content_type": "json"}, Events: []string{"repository"}, Active: true})
	require.NoError(t, err)
	_, err = rs.Create(e.ctx, e.alice, "", repos.CreateOptions{Name: "second"})
	require.NoError(t, err)
	require.NoError(t, rs.Delete(e.ctx, e.alice, "alice", "second"))
	assert.Equal(t, 2, e.dispatch(t))
	assert.Equal(t, 0, e.dispatch(t))
	list, _, err := e.hooks.Tasks(e.ctx, e.alice, hooks.UserHooks(), h.ID, forge.ListOptions{})
	require.NoError(t, err)
	require.Len(t, list, 2)
	var actions []string
	for _, k := range list {
		assert.Equal(t, "repository", k.Event)
		assert.Contains(t, string(k.Payload), `"name":"second"`)
		var p struct{ Action string }
		require.NoError(t, json.Unmarshal(k.Payload, &p))
		actions = append(actions, p.Action)
	}
	assert.ElementsMatch(t, []string{"created", "deleted"}, actions)
}

// TestOutboxTwoDispatchers: two dispatchers sharing the database (two
// servers) running at once process every event once between them; Run
// is woken by the commits' signal (its poll is an hour).
func TestOutboxTwoDispatchers(t *testing.T) {
	t.Parallel()
	e := newOutboxEnv(t)
	const n = 12
	ctx, cancel := context.WithCancel(e.ctx)
	defer cancel()
	other, err := hooks.NewDispatcher(hooks.DispatcherConfig{Service: e.hooks, Clock: e.clock, Wake: e.wake,
		PollInterval: time.Hour, Batch: 2})
	require.NoError(t, err)
	first, err := hooks.NewDispatcher(hooks.DispatcherConfig{Service: e.hooks, Clock: e.clock, Wake: e.wake,
		PollInterval: time.Hour, Batch: 3})
	require.NoError(t, err)
	for _, d := range []*hooks.Dispatcher{first, other} {
		d.Handle(issues.OutboxKind, func(ctx context.Context, data []byte) error {
			ev, err := issues.UnmarshalEvent(data)
			if err != nil || ev.Kind != issues.EventCreate {
				return err
			}
			return e.sinks.issueChanged(ctx, ev.Actor, issueView(ev.Repo, ev.Issue, nil), hooks.ActionOpened)
		})
	}
	done := make(chan error, 2)
	for _, d := range []*hooks.Dispatcher{first, other} {
		go func() { done <- d.Run(ctx) }()
	}
	for i := range n {
		_, err := e.issues.Create(e.ctx, e.alice, "alice", "proj", issues.CreateIssueOption{Title: "issue " + string(rune('a'+i))})
		require.NoError(t, err)
	}
	deadline := time.Now().Add(20 * time.Second)
	for len(e.tasks(t)) < n && time.Now().Before(deadline) {
		e.wake.Signal() // a poll for the one that lost the race for the signal
		runtime.Gosched()
	}
	cancel()
	require.NoError(t, <-done)
	require.NoError(t, <-done)
	list, _, err := e.hooks.Tasks(e.ctx, e.alice, hooks.RepoHooks("alice", "proj"), e.hook.ID, forge.ListOptions{Limit: 50})
	require.NoError(t, err)
	assert.Len(t, list, n, "each event made its task once")
	assert.Equal(t, 0, e.dispatch(t), "nothing left")
}
