package issues_test

import (
	"context"
	"slices"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/hooks"
	"github.com/hearthforge/hearth/issues"
)

// recorder reads the issue events the service appended to the outbox of
// its store, through a hooks.Dispatcher as the site's consumers
// (webhooks, notifications) receive them: what they hold is what
// committed.
type recorder struct {
	t      testing.TB
	d      *hooks.Dispatcher
	mu     sync.Mutex
	events []issues.Event
}

// newRecorder reads the outbox of store.
func newRecorder(t testing.TB, store hooks.Store) *recorder {
	t.Helper()
	hs, err := hooks.New(hooks.Config{Store: store})
	require.NoError(t, err)
	d, err := hooks.NewDispatcher(hooks.DispatcherConfig{Service: hs})
	require.NoError(t, err)
	r := &recorder{t: t, d: d}
	d.Handle(issues.OutboxKind, func(_ context.Context, data []byte) error {
		e, err := issues.UnmarshalEvent(data)
		require.NoError(t, err)
		r.mu.Lock()
		defer r.mu.Unlock()
		r.events = append(r.events, e)
		return nil
	})
	return r
}

// all returns every event committed so far, in order.
func (r *recorder) all() []issues.Event {
	r.t.Helper()
	require.NoError(r.t, r.d.Drain(context.Background()))
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.events)
}

// reset forgets the events committed so far.
func (r *recorder) reset() {
	r.all()
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = nil
}

func (r *recorder) kinds() []issues.EventKind {
	var out []issues.EventKind
	for _, e := range r.all() {
		out = append(out, e.Kind)
	}
	return out
}

// TestCommittedEventsReachTheOutbox: each change appends its events to the
// outbox in its transaction; a refused change appends none.
func TestCommittedEventsReachTheOutbox(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	rec := newRecorder(t, e.store.Hooks())
	svc, ports, err := issues.NewWithPorts(issues.Config{Store: e.store.Issues(), Repos: e.repos, Clock: e.clock})
	require.NoError(t, err)
	alice, bob := e.user("alice"), e.user("bob")
	e.repo(alice, "proj", false)

	_, err = svc.Create(e.ctx, bob, "alice", "proj", issues.CreateIssueOption{Title: " "})
	require.Error(t, err)
	assert.Empty(t, rec.kinds(), "a refused creation tells nothing")

	v, err := svc.Create(e.ctx, bob, "alice", "proj", issues.CreateIssueOption{Title: "crash"})
	require.NoError(t, err)
	c, err := svc.CreateComment(e.ctx, alice, "alice", "proj", 1, issues.CreateCommentOption{Body: "seen"})
	require.NoError(t, err)
	title := "crash!"
	_, err = svc.Edit(e.ctx, bob, "alice", "proj", 1, issues.EditIssueOption{Title: &title})
	require.NoError(t, err)
	closed, open := issues.StateClosed, issues.StateOpen
	_, err = svc.Edit(e.ctx, bob, "alice", "proj", 1, issues.EditIssueOption{State: &closed})
	require.NoError(t, err)
	_, err = svc.Edit(e.ctx, bob, "alice", "proj", 1, issues.EditIssueOption{State: &closed})
	require.NoError(t, err)
	_, err = svc.Edit(e.ctx, alice, "alice", "proj", 1, issues.EditIssueOption{State: &open})
	require.NoError(t, err)
	assert.Equal(t, []issues.EventKind{issues.EventCreate, issues.EventComment, issues.EventEdit, issues.EventClose, issues.EventReopen}, rec.kinds(),
		"a title edit tells EventEdit; a close of a closed issue tells nothing")
	ev := rec.all()
	assert.Equal(t, bob.User.ID, ev[0].Actor.UserID())
	assert.Equal(t, v.Issue.ID, ev[0].Issue.ID)
	assert.Equal(t, c.Comment.ID, ev[1].Comment.ID)
	require.NotNil(t, ev[2].Detail)
	require.NotNil(t, ev[2].Detail.OldTitle)
	assert.Equal(t, "crash", *ev[2].Detail.OldTitle)
	assert.Nil(t, ev[2].Detail.OldBody)
	assert.Equal(t, "crash!", ev[2].Issue.Title)
	assert.Equal(t, alice.User.ID, ev[4].Actor.UserID())

	got, err := ports.Participants(e.ctx, v.Issue.ID)
	require.NoError(t, err)
	assert.ElementsMatch(t, []forge.ID{alice.User.ID, bob.User.ID}, got, "the poster and the commenter")
	_, err = ports.Participants(e.ctx, 999)
	assert.ErrorIs(t, err, forge.ErrNotFound)
}
