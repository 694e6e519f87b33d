package issues_test

import (
	"context"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/issues"
)

// recorder is an issues.Listener that keeps what it is told.
type recorder struct {
	mu     sync.Mutex
	events []issues.Event
}

func (r *recorder) IssueEvent(_ context.Context, e issues.Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, e)
}

func (r *recorder) kinds() []issues.EventKind {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []issues.EventKind
	for _, e := range r.events {
		out = append(out, e.Kind)
	}
	return out
}

func TestListenersAreToldOfCommittedEvents(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	rec := &recorder{}
	svc, err := issues.New(issues.Config{Store: e.store.Issues(), Repos: e.repos, Clock: e.clock, Listeners: []issues.Listener{rec}})
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
	rec.mu.Lock()
	defer rec.mu.Unlock()
	assert.Equal(t, bob.User.ID, rec.events[0].Actor.UserID())
	assert.Equal(t, v.Issue.ID, rec.events[0].Issue.ID)
	assert.Equal(t, c.Comment.ID, rec.events[1].Comment.ID)
	require.NotNil(t, rec.events[2].Detail)
	require.NotNil(t, rec.events[2].Detail.OldTitle)
	assert.Equal(t, "crash", *rec.events[2].Detail.OldTitle)
	assert.Nil(t, rec.events[2].Detail.OldBody)
	assert.Equal(t, "crash!", rec.events[2].Issue.Title)
	assert.Equal(t, alice.User.ID, rec.events[4].Actor.UserID())

	got, err := svc.Participants(e.ctx, v.Issue.ID)
	require.NoError(t, err)
	assert.ElementsMatch(t, []forge.ID{alice.User.ID, bob.User.ID}, got, "the poster and the commenter")
	_, err = svc.Participants(e.ctx, 999)
	assert.ErrorIs(t, err, forge.ErrNotFound)
}
