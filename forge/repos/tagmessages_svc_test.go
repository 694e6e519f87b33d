package repos_test

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/forgetest"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/storage/memgit"
	"github.com/hearthforge/hearth/storage/memstore"
)

// countingGit is memgit (a repos.MessageReader) counting the per-object
// reads a tag list must not make.
type countingGit struct {
	*memgit.Store
	tags, logs, messages atomic.Int64
}

func (g *countingGit) Tag(ctx context.Context, repo forge.ID, oid string) (*repos.AnnotatedTag, error) {
	g.tags.Add(1)
	return g.Store.Tag(ctx, repo, oid)
}

func (g *countingGit) Log(ctx context.Context, repo forge.ID, o repos.LogOptions) ([]*repos.Commit, error) {
	g.logs.Add(1)
	return g.Store.Log(ctx, repo, o)
}

func (g *countingGit) Messages(ctx context.Context, repo forge.ID, ids []string) (map[string]string, error) {
	g.messages.Add(1)
	return g.Store.Messages(ctx, repo, ids)
}

// plainGit hides MessageReader: the service reads per object.
type plainGit struct{ repos.Git }

// Issue 8 item 21: a page of tags reads its messages in one pass (no read
// per tag), and a Git without MessageReader gives the same messages.
func TestListTagsOnePass(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	lists := map[string][]*repos.Tag{}
	for _, kind := range []string{"one pass", "per object"} {
		cg := &countingGit{Store: memgit.New()}
		var git repos.Git = cg
		if kind == "per object" {
			git = plainGit{cg}
		}
		store := memstore.New()
		svc, err := repos.New(repos.Config{Store: store.Repos(), Git: git, Clock: forgetest.NewClock()})
		require.NoError(t, err)
		e := &memEnv{svc: svc, store: store}
		alice := e.user(t, "alice")
		_, err = svc.Create(ctx, alice, "", repos.CreateOptions{Name: "proj", AutoInit: true})
		require.NoError(t, err)
		for i := range 6 {
			msg := ""
			if i%2 == 0 {
				msg = fmt.Sprintf("  release %d  \n# comment\n", i)
			}
			_, _, err := svc.CreateTag(ctx, alice, "alice", "proj", fmt.Sprintf("v%d", i), "", msg)
			require.NoError(t, err)
		}
		cg.tags.Store(0)
		cg.logs.Store(0)
		cg.messages.Store(0)
		_, tags, total, err := svc.ListTags(ctx, alice, "alice", "proj", forge.ListOptions{Page: 1, Limit: 50})
		require.NoError(t, err)
		assert.EqualValues(t, 6, total)
		if kind == "one pass" {
			assert.EqualValues(t, 1, cg.messages.Load(), "one read for the page")
			assert.Zero(t, cg.tags.Load()+cg.logs.Load(), "no read per tag")
		}
		lists[kind] = tags
	}
	require.Len(t, lists["one pass"], 6)
	assert.Equal(t, lists["per object"], lists["one pass"])
	for _, tg := range lists["one pass"] {
		if tg.ID != tg.Commit {
			assert.Regexp(t, `^  release \d\n$`, tg.Message, "git's cleanup: %s", tg.Name)
		} else {
			assert.NotEmpty(t, tg.Message, "a lightweight tag has its commit's message: %s", tg.Name)
		}
	}
}
