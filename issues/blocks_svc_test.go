package issues_test

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/issues"
)

// blockingStore answers blocks from a fixed list of {blocker, user}.
type blockingStore struct {
	issues.Store
	blocks [][2]forge.ID
}

func (b blockingStore) Update(ctx context.Context, fn func(issues.Tx) error) error {
	return b.Store.Update(ctx, func(tx issues.Tx) error { return fn(blockingTx{tx, b.blocks}) })
}

type blockingTx struct {
	issues.Tx
	blocks [][2]forge.ID
}

func (b blockingTx) IsBlockedByAny(_ context.Context, blockers []forge.ID, user forge.ID) (bool, error) {
	for _, k := range b.blocks {
		if k[1] == user && slices.Contains(blockers, k[0]) {
			return true, nil
		}
	}
	return false, nil
}

func TestBlockedUsers(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	alice, bob, carol, dan := e.user("alice"), e.user("bob"), e.user("carol"), e.user("dan")
	e.repo(alice, "r", false)
	e.collab(alice, "r", dan, forge.AccessModeWrite)
	e.issue(bob, "alice", "r", "bob's")
	// alice (repository owner) blocks carol; bob (poster) blocks dan
	svc, err := issues.New(issues.Config{Store: blockingStore{e.store.Issues(), [][2]forge.ID{{alice.User.ID, carol.User.ID}, {bob.User.ID, dan.User.ID}}},
		Repos: e.repos, Clock: e.clock})
	require.NoError(t, err)
	blocked := func(err error) {
		t.Helper()
		require.True(t, errors.Is(err, forge.ErrForbidden) && errors.Is(err, issues.ErrBlocked), "%v", err)
		require.Equal(t, "user is blocked by the poster or repository owner", err.Error())
	}
	_, err = svc.Create(e.ctx, carol, "alice", "r", issues.CreateIssueOption{Title: "x"})
	blocked(err)
	_, err = svc.CreateComment(e.ctx, carol, "alice", "r", 1, issues.CreateCommentOption{Body: "x"})
	blocked(err)
	_, err = svc.CreateComment(e.ctx, dan, "alice", "r", 1, issues.CreateCommentOption{Body: "x"})
	blocked(err)
	title := "renamed"
	_, err = svc.Edit(e.ctx, dan, "alice", "r", 1, issues.EditIssueOption{Title: &title})
	blocked(err)
	// others are not blocked; dan may still create issues (alice does not block him)
	_, err = svc.Create(e.ctx, dan, "alice", "r", issues.CreateIssueOption{Title: "x"})
	require.NoError(t, err)
	_, err = svc.CreateComment(e.ctx, alice, "alice", "r", 1, issues.CreateCommentOption{Body: "x"})
	require.NoError(t, err)
}
