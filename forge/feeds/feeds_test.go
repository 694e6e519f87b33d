package feeds_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/feeds"
	"github.com/hearthforge/hearth/forge/forgetest"
	"github.com/hearthforge/hearth/forge/orgs"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/storage/memgit"
	"github.com/hearthforge/hearth/storage/memstore"
)

// TestOpTypeNamesAreForgejos pins the op types to Forgejo's ActionType
// numbers and names (models/activities/action.go), read from there.
func TestOpTypeNamesAreForgejos(t *testing.T) {
	t.Parallel()
	forgejo := map[int]string{1: "create_repo", 2: "rename_repo", 3: "star_repo", 4: "watch_repo", 5: "commit_repo",
		6: "create_issue", 7: "create_pull_request", 8: "transfer_repo", 9: "push_tag", 10: "comment_issue",
		11: "merge_pull_request", 12: "close_issue", 13: "reopen_issue", 14: "close_pull_request",
		15: "reopen_pull_request", 16: "delete_tag", 17: "delete_branch", 18: "mirror_sync_push",
		19: "mirror_sync_create", 20: "mirror_sync_delete", 21: "approve_pull_request", 22: "reject_pull_request",
		23: "comment_pull", 24: "publish_release", 25: "pull_review_dismissed", 26: "pull_request_ready_for_review",
		27: "auto_merge_pull_request", 0: "action-0", 28: "action-28"}
	for n, name := range forgejo {
		assert.Equal(t, name, feeds.OpType(n).String(), n)
	}
	assert.Equal(t, feeds.OpType(24), feeds.OpPublishRelease)
	assert.Equal(t, feeds.OpType(17), feeds.OpDeleteBranch)
}

// env is the feed service on memstore with the real repository,
// organisation and account services.
type env struct {
	t     *testing.T
	ctx   context.Context
	store *memstore.Store
	repos *repos.Service
	svc   *feeds.Service
	ports *feeds.Ports
}

func newEnv(t *testing.T) *env {
	t.Helper()
	e := &env{t: t, ctx: context.Background(), store: memstore.New()}
	clock := forgetest.NewClock()
	var repoPorts *repos.Ports
	var err error
	e.repos, repoPorts, err = repos.NewWithPorts(repos.Config{Store: e.store.Repos(), Git: memgit.New(), Clock: clock})
	require.NoError(t, err)
	orgSvc, err := orgs.New(orgs.Config{Store: e.store.Orgs(), Repos: e.repos, Clock: clock})
	require.NoError(t, err)
	accounts, err := auth.New(auth.Config{Store: e.store.Auth(), Clock: clock, Orgs: orgs.NewVisibility(e.store.Orgs())})
	require.NoError(t, err)
	e.svc, e.ports, err = feeds.NewWithPorts(feeds.Config{Store: e.store.Feeds(), Repos: e.repos, Accounts: accounts,
		Orgs: orgSvc, Watchers: repoPorts, Clock: clock})
	require.NoError(t, err)
	return e
}

func (e *env) user(name string) forge.Actor {
	e.t.Helper()
	u := forgetest.User(name)
	require.NoError(e.t, e.store.Auth().Update(e.ctx, func(tx auth.Tx) error { return tx.CreateUser(e.ctx, u, "") }))
	return forgetest.ActorFor(u)
}

// ops are the op types of a user's feed as the user reads it.
func (e *env) ops(a forge.Actor, name string) []string {
	e.t.Helper()
	v, err := e.svc.UserFeed(e.ctx, a, name, feeds.Query{})
	require.NoError(e.t, err)
	out := []string{}
	for _, ac := range v.Actions {
		out = append(out, ac.OpType.String())
	}
	return out
}

// TestRecordIsIdempotentPerEvent: an outbox consumer retried after it
// wrote (a crash before the event was marked done) writes nothing twice;
// another event is recorded.
func TestRecordIsIdempotentPerEvent(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	alice := e.user("alice")
	v, err := e.repos.Create(e.ctx, alice, "", repos.CreateOptions{Name: "r"})
	require.NoError(t, err)
	ev := feeds.Event{EventID: 7, Doer: alice.User.ID, Repo: v.Repo, Acts: []feeds.Act{{OpType: feeds.OpCommitRepo, RefName: "refs/heads/main"}}}
	require.NoError(t, e.ports.Record(e.ctx, ev))
	require.NoError(t, e.ports.Record(e.ctx, ev))
	assert.Equal(t, []string{"commit_repo"}, e.ops(alice, "alice"), "the same event once")
	ev.EventID = 8
	require.NoError(t, e.ports.Record(e.ctx, ev))
	assert.Len(t, e.ops(alice, "alice"), 2)
}

// TestRecordReachesWhoMayRead: the doer, the organisation owning the
// repository and each watcher who may read the action's unit receive
// it; a watcher who lost access to a private repository does not.
func TestRecordReachesWhoMayRead(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	alice, bob, carol := e.user("alice"), e.user("bob"), e.user("carol")
	v, err := e.repos.Create(e.ctx, alice, "", repos.CreateOptions{Name: "p", Private: true})
	require.NoError(t, err)
	for _, who := range []string{"bob", "carol"} {
		require.NoError(t, e.repos.AddCollaborator(e.ctx, alice, "alice", "p", who, forge.AccessModeRead))
	}
	for _, who := range []forge.Actor{bob, carol} {
		_, err := e.repos.Watch(e.ctx, who, "alice", "p")
		require.NoError(t, err)
	}
	require.NoError(t, e.repos.RemoveCollaborator(e.ctx, alice, "alice", "p", "carol"))
	no := false
	_, err = e.repos.Edit(e.ctx, alice, "alice", "p", repos.EditOptions{HasIssues: &no})
	require.NoError(t, err)

	require.NoError(t, e.ports.Record(e.ctx, feeds.Event{EventID: 1, Doer: alice.User.ID, Repo: v.Repo,
		Acts: []feeds.Act{{OpType: feeds.OpCommitRepo}, {OpType: feeds.OpCreateIssue, Content: "1|t"}}}))
	assert.Equal(t, []string{"create_issue", "commit_repo"}, e.ops(alice, "alice"), "the doer gets every action")
	assert.Equal(t, []string{"commit_repo"}, e.ops(bob, "bob"), "a reader of the code, not of the disabled issues")
	assert.Empty(t, e.ops(carol, "carol"), "no access left, no row")
}
