package repos_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/storage/memgit"
)

// refLog records the ref moves push listeners are told of, one line per
// update: "<actor> <repo> <ref> <old> <new>" with ids shortened to "0"
// (all zeros) or "id".
type refLog struct {
	mu    sync.Mutex
	lines []string
}

func (l *refLog) AfterPush(_ context.Context, actor forge.Actor, r *forge.Repository, updates []repos.RefUpdate) {
	l.mu.Lock()
	defer l.mu.Unlock()
	short := func(id string) string {
		switch {
		case strings.Trim(id, "0") == "" && len(id) == 40:
			return "0"
		case len(id) == 40:
			return "id"
		}
		return "bad:" + id
	}
	for _, u := range updates {
		l.lines = append(l.lines, strings.Join([]string{actor.User.Name, r.FullName(), u.Ref, short(u.OldID), short(u.NewID)}, " "))
	}
}

func (l *refLog) take() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := l.lines
	l.lines = nil
	return out
}

// TestEveryRepoRefMoveIsRecorded: without an outbox, each ref-moving
// method of the repository service tells the push listeners of exactly
// the refs it moved, by the actor, with git's all-zero id on a created
// or deleted ref's missing side (as a push): the contents API, the branch
// API (create, rename, delete), the tag API (create, delete), a release
// creating its tag. Release deletion keeps its tag and moves nothing.
func TestEveryRepoRefMoveIsRecorded(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	log := &refLog{}
	e := newMemEnv(t, func(c *repos.Config) { c.PushListeners = []repos.PushListener{log} })
	alice := e.user(t, "alice")
	e.repo(t, alice, "proj", false)

	_, _, _, err := e.svc.ChangeFiles(ctx, alice, "alice", "proj", repos.ChangeFilesOptions{Message: "first",
		Files: []repos.FileChange{{Op: "create", Path: "a.txt", Content: []byte("a")}}})
	require.NoError(t, err)
	assert.Equal(t, []string{"alice alice/proj refs/heads/main 0 id"}, log.take(), "the first commit")
	_, _, _, err = e.svc.ChangeFiles(ctx, alice, "alice", "proj", repos.ChangeFilesOptions{Message: "second",
		Files: []repos.FileChange{{Op: "create", Path: "b.txt", Content: []byte("b")}}})
	require.NoError(t, err)
	assert.Equal(t, []string{"alice alice/proj refs/heads/main id id"}, log.take(), "a commit")
	_, _, _, err = e.svc.ChangeFiles(ctx, alice, "alice", "proj", repos.ChangeFilesOptions{Message: "side", NewBranch: "side",
		Files: []repos.FileChange{{Op: "create", Path: "c.txt", Content: []byte("c")}}})
	require.NoError(t, err)
	assert.Equal(t, []string{"alice alice/proj refs/heads/side 0 id"}, log.take(), "a commit on a new branch")

	_, _, err = e.svc.CreateBranch(ctx, alice, "alice", "proj", "b1", "main")
	require.NoError(t, err)
	assert.Equal(t, []string{"alice alice/proj refs/heads/b1 0 id"}, log.take(), "branch created")
	require.NoError(t, e.svc.RenameBranch(ctx, alice, "alice", "proj", "b1", "b2"))
	assert.Equal(t, []string{"alice alice/proj refs/heads/b1 id 0", "alice alice/proj refs/heads/b2 0 id"}, log.take(), "branch renamed")
	require.NoError(t, e.svc.DeleteBranch(ctx, alice, "alice", "proj", "b2"))
	assert.Equal(t, []string{"alice alice/proj refs/heads/b2 id 0"}, log.take(), "branch deleted")

	_, _, err = e.svc.CreateTag(ctx, alice, "alice", "proj", "v1", "main", "")
	require.NoError(t, err)
	assert.Equal(t, []string{"alice alice/proj refs/tags/v1 0 id"}, log.take(), "tag created")
	require.NoError(t, e.svc.DeleteTag(ctx, alice, "alice", "proj", "v1"))
	assert.Equal(t, []string{"alice alice/proj refs/tags/v1 id 0"}, log.take(), "tag deleted")

	tag, target := "r1", "main"
	_, rel, err := e.svc.CreateRelease(ctx, alice, "alice", "proj", repos.ReleaseOptions{TagName: &tag, Target: &target})
	require.NoError(t, err)
	assert.Equal(t, []string{"alice alice/proj refs/tags/r1 0 id"}, log.take(), "release creating its tag")
	require.NoError(t, e.svc.DeleteRelease(ctx, alice, "alice", "proj", rel.ID, ""))
	assert.Empty(t, log.take(), "a release deleted keeps its tag")
}

// TestPushListenersNeedNoOutbox: push listeners run in the request only
// without an outbox; with one, ref moves reach their consumers through it
// alone, so New refuses both.
func TestPushListenersNeedNoOutbox(t *testing.T) {
	t.Parallel()
	_, err := repos.New(repos.Config{Store: newMemEnv(t).store.Repos(), Git: memgit.New(),
		Outbox: signals{}, PushListeners: []repos.PushListener{&refLog{}}})
	assert.ErrorIs(t, err, forge.ErrInvalid)
}

// signals is an Outbox that ignores the signals.
type signals struct{}

func (signals) Signal() {}
