package notify_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/forgetest"
	"github.com/hearthforge/hearth/forge/notify"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/issues"
	"github.com/hearthforge/hearth/storage/memgit"
	"github.com/hearthforge/hearth/storage/memstore"
)

// env is notify wired to the real repository and issue services on
// memstore, as examples/forged wires them.
type env struct {
	t      *testing.T
	ctx    context.Context
	store  *memstore.Store
	repos  *repos.Service
	issues *issues.Service
	svc    *notify.Service
	clock  *forgetest.FakeClock

	// repoPorts answer whom notify tells (WatcherIDs), as the site wires.
	repoPorts *repos.Ports
}

// listener adapts issues.Listener to notify.Service.Notify.
type listener struct {
	t   *testing.T
	svc *notify.Service
}

func (l listener) IssueEvent(ctx context.Context, e issues.Event) {
	ev := notify.Event{Doer: e.Actor.UserID(), RepoID: e.Repo.ID, IssueID: e.Issue.ID, IsPull: e.Issue.IsPull}
	if e.Comment != nil {
		ev.CommentID = e.Comment.ID
	}
	assert.NoError(l.t, l.svc.Notify(ctx, ev))
}

func newEnv(t *testing.T) *env {
	t.Helper()
	e := &env{t: t, ctx: context.Background(), store: memstore.New(), clock: forgetest.NewClock()}
	var err error
	e.repos, e.repoPorts, err = repos.NewWithPorts(repos.Config{Store: e.store.Repos(), Git: memgit.New(), Clock: e.clock})
	require.NoError(t, err)
	l := &listener{t: t}
	e.issues, err = issues.New(issues.Config{Store: e.store.Issues(), Repos: e.repos, Clock: e.clock, Listeners: []issues.Listener{l}})
	require.NoError(t, err)
	e.svc, err = notify.New(notify.Config{Store: e.store.Notify(), Repos: e.repos, Watchers: e.repoPorts, Participants: e.issues, Clock: e.clock})
	require.NoError(t, err)
	l.svc = e.svc
	return e
}

func (e *env) user(name string) forge.Actor {
	e.t.Helper()
	u := forgetest.User(name)
	require.NoError(e.t, e.store.Auth().Update(e.ctx, func(tx auth.Tx) error { return tx.CreateUser(e.ctx, u, "") }))
	return forgetest.ActorFor(u)
}

func (e *env) repo(owner forge.Actor, name string, private bool) *forge.Repository {
	e.t.Helper()
	v, err := e.repos.Create(e.ctx, owner, "", repos.CreateOptions{Name: name, Private: private})
	require.NoError(e.t, err)
	return v.Repo
}

func (e *env) list(a forge.Actor, q notify.Query) []*notify.View {
	e.t.Helper()
	vs, n, err := e.svc.List(e.ctx, a, q)
	require.NoError(e.t, err)
	assert.Equal(e.t, int64(len(vs)), n)
	return vs
}

func (e *env) unread(a forge.Actor) int64 {
	e.t.Helper()
	n, err := e.svc.CountUnread(e.ctx, a)
	require.NoError(e.t, err)
	return n
}

func TestWatcherAndParticipantGetThreadsNotTheActor(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	alice, bob, carol := e.user("alice"), e.user("bob"), e.user("carol")
	e.repo(alice, "proj", false)
	_, err := e.repos.Watch(e.ctx, bob, "alice", "proj")
	require.NoError(t, err)

	is, err := e.issues.Create(e.ctx, carol, "alice", "proj", issues.CreateIssueOption{Title: "crash"})
	require.NoError(t, err)
	assert.Empty(t, e.list(carol, notify.Query{}), "the poster acted: no thread")
	got := e.list(bob, notify.Query{})
	require.Len(t, got, 1, "a watcher gets a thread of a new issue")
	assert.Equal(t, notify.StatusUnread, got[0].Thread.Status)
	assert.Equal(t, notify.Subject{RepoID: is.Repo.ID, Index: 1, Title: "crash"}, got[0].Subject)
	require.Len(t, e.list(alice, notify.Query{}), 1, "the owner watches its repository")

	// bob reads it; alice comments: carol (the poster) gets a thread, bob's
	// comes back unread pointing at the comment, alice (the actor) gets none new.
	_, err = e.svc.MarkThread(e.ctx, bob, got[0].Thread.ID, notify.StatusRead)
	require.NoError(t, err)
	assert.Zero(t, e.unread(bob))
	e.clock.Step(time.Minute)
	c, err := e.issues.CreateComment(e.ctx, alice, "alice", "proj", 1, issues.CreateCommentOption{Body: "on it"})
	require.NoError(t, err)
	cv := e.list(carol, notify.Query{})
	require.Len(t, cv, 1, "the participant gets a thread of a new comment")
	assert.Equal(t, c.Comment.ID, cv[0].Thread.CommentID)
	bv := e.list(bob, notify.Query{})
	require.Len(t, bv, 1)
	assert.Equal(t, notify.StatusUnread, bv[0].Thread.Status)
	assert.Equal(t, c.Comment.ID, bv[0].Thread.CommentID)
	assert.Equal(t, alice.User.ID, bv[0].Thread.UpdatedBy)
	av := e.list(alice, notify.Query{})
	require.Len(t, av, 1)
	assert.Zero(t, av[0].Thread.CommentID, "the actor's own thread is not touched")

	// carol closes it: alice and bob are told, carol is not.
	e.clock.Step(time.Minute)
	closed := issues.StateClosed
	_, err = e.issues.Edit(e.ctx, carol, "alice", "proj", 1, issues.EditIssueOption{State: &closed})
	require.NoError(t, err)
	assert.Equal(t, e.clock.Now().Unix(), e.list(alice, notify.Query{})[0].Thread.Updated.Unix())
	assert.Equal(t, int64(1), e.unread(carol))
	assert.True(t, e.list(bob, notify.Query{})[0].Subject.IsClosed)
}

func TestLostAccessHidesThreads(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	alice, bob := e.user("alice"), e.user("bob")
	e.repo(alice, "secret", true)
	require.NoError(t, e.repos.AddCollaborator(e.ctx, alice, "alice", "secret", "bob", forge.AccessModeRead))
	_, err := e.repos.Watch(e.ctx, bob, "alice", "secret")
	require.NoError(t, err)
	_, err = e.issues.Create(e.ctx, alice, "alice", "secret", issues.CreateIssueOption{Title: "leak"})
	require.NoError(t, err)
	got := e.list(bob, notify.Query{})
	require.Len(t, got, 1)
	id := got[0].Thread.ID

	require.NoError(t, e.repos.RemoveCollaborator(e.ctx, alice, "alice", "secret", "bob"))
	assert.Empty(t, e.list(bob, notify.Query{All: true}), "no thread of a repository bob may not read")
	assert.Zero(t, e.unread(bob))
	_, err = e.svc.Thread(e.ctx, bob, id)
	assert.ErrorIs(t, err, forge.ErrNotFound)
	_, err = e.svc.MarkThread(e.ctx, bob, id, notify.StatusRead)
	assert.ErrorIs(t, err, forge.ErrNotFound)
	marked, err := e.svc.Mark(e.ctx, bob, notify.Query{All: true}, notify.StatusRead)
	require.NoError(t, err)
	assert.Empty(t, marked)

	// A new event does not reach bob either, even though he still watches.
	_, err = e.issues.CreateComment(e.ctx, alice, "alice", "secret", 1, issues.CreateCommentOption{Body: "more"})
	require.NoError(t, err)
	require.NoError(t, e.repos.AddCollaborator(e.ctx, alice, "alice", "secret", "bob", forge.AccessModeRead))
	v, err := e.svc.Thread(e.ctx, bob, id)
	require.NoError(t, err, "access back: the old thread shows again")
	assert.Zero(t, v.Thread.CommentID, "the comment made while bob could not read was not notified")
}

func TestFiltersAndMarks(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	alice, bob := e.user("alice"), e.user("bob")
	e.repo(alice, "a", false)
	e.repo(alice, "b", false)
	for _, r := range []string{"a", "b"} {
		_, err := e.repos.Watch(e.ctx, bob, "alice", r)
		require.NoError(t, err)
	}
	t0 := e.clock.Now()
	for i, r := range []string{"a", "a", "b"} {
		e.clock.Step(10 * time.Second)
		_, err := e.issues.Create(e.ctx, alice, "alice", r, issues.CreateIssueOption{Title: "t" + string(rune('0'+i))})
		require.NoError(t, err)
	}
	all := e.list(bob, notify.Query{Statuses: []notify.Status{notify.StatusUnread, notify.StatusPinned}})
	require.Len(t, all, 3)
	assert.Equal(t, "t2", all[0].Subject.Title, "most recently updated first")
	assert.Len(t, e.list(bob, notify.Query{Owner: "alice", Repo: "a", Statuses: []notify.Status{notify.StatusUnread}}), 2)
	assert.Len(t, e.list(bob, notify.Query{All: true, Sources: []notify.Source{notify.SourcePull}}), 0)
	assert.Len(t, e.list(bob, notify.Query{All: true, Since: t0.Add(10 * time.Second)}), 2, "since is strict")
	assert.Len(t, e.list(bob, notify.Query{All: true, Before: t0.Add(20 * time.Second)}), 1, "before is strict")
	page2, n, err := e.svc.List(e.ctx, bob, notify.Query{All: true, ListOptions: forge.ListOptions{Page: 2, Limit: 2}})
	require.NoError(t, err)
	assert.Equal(t, int64(3), n)
	require.Len(t, page2, 1)
	assert.Equal(t, "t0", page2[0].Subject.Title)

	pinned, err := e.svc.MarkThread(e.ctx, bob, all[2].Thread.ID, notify.StatusPinned)
	require.NoError(t, err)
	assert.Equal(t, notify.StatusPinned, pinned.Thread.Status)
	assert.Equal(t, int64(2), e.unread(bob))
	// PUT /repos/alice/a/notifications: the unread ones of a only.
	marked, err := e.svc.Mark(e.ctx, bob, notify.Query{Owner: "alice", Repo: "a", Statuses: []notify.Status{notify.StatusUnread}}, notify.StatusRead)
	require.NoError(t, err)
	require.Len(t, marked, 1)
	assert.Equal(t, "t1", marked[0].Subject.Title)
	assert.Equal(t, int64(1), e.unread(bob))
	assert.Len(t, e.list(bob, notify.Query{Statuses: []notify.Status{notify.StatusRead}}), 1)

	_, err = e.svc.Thread(e.ctx, alice, all[0].Thread.ID)
	assert.ErrorIs(t, err, forge.ErrForbidden, "another user's thread")
	_, _, err = e.svc.List(e.ctx, forge.Anonymous, notify.Query{})
	assert.ErrorIs(t, err, forge.ErrUnauthenticated)
	_, err = e.svc.Thread(e.ctx, bob, 999)
	assert.ErrorIs(t, err, forge.ErrNotFound)
	_, _, err = e.svc.List(e.ctx, forgetest.TokenActor(bob.User, "read:issue"), notify.Query{})
	assert.ErrorIs(t, err, forge.ErrForbidden, "the notification scope is needed")
	_, err = e.svc.Mark(e.ctx, forgetest.TokenActor(bob.User, "read:notification"), notify.Query{}, notify.StatusRead)
	assert.True(t, errors.Is(err, forge.ErrForbidden), "marking needs write:notification")
}

func TestAssigneeIsAParticipant(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	alice, dave, carol := e.user("alice"), e.user("dave"), e.user("carol")
	e.repo(alice, "proj", false)
	require.NoError(t, e.repos.AddCollaborator(e.ctx, alice, "alice", "proj", "dave", forge.AccessModeWrite))
	require.NoError(t, e.repos.Unwatch(e.ctx, dave, "alice", "proj"))
	_, err := e.issues.Create(e.ctx, alice, "alice", "proj", issues.CreateIssueOption{Title: "x"})
	require.NoError(t, err)
	assert.Empty(t, e.list(dave, notify.Query{}), "dave does not watch")
	_, err = e.issues.Edit(e.ctx, alice, "alice", "proj", 1, issues.EditIssueOption{Assignees: []string{"dave"}})
	require.NoError(t, err)
	_, err = e.issues.CreateComment(e.ctx, carol, "alice", "proj", 1, issues.CreateCommentOption{Body: "hi"})
	require.NoError(t, err)
	assert.Len(t, e.list(dave, notify.Query{}), 1, "an assignee takes part in the issue")
}
