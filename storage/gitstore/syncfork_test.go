package gitstore_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
)

// TestForkBehindAndSyncForkRef: what fork sync reads of the parent and
// the fast-forward it writes into the fork, checked with git itself.
func TestForkBehindAndSyncForkRef(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newPullFixture(t, forge.SHA1)
	s := f.s
	require.NoError(t, s.Fork(ctx, 1, 2))
	m2 := apply(t, s, 1, repos.ChangeSet{Branch: "main", Message: "main two\n", Files: []repos.FileOp{file("create", "d.txt", "d\n")}})

	for _, c := range []struct {
		fork, head string
		in         bool
		behind     int
	}{
		{f.c0.ID, m2.ID, true, 2},
		{f.m1.ID, m2.ID, true, 1},
		{m2.ID, m2.ID, true, 0},
		{f.f2.ID, m2.ID, false, 0},                  // diverged
		{strings.Repeat("ab", 20), m2.ID, false, 0}, // unknown to the parent
	} {
		in, behind, err := s.ForkBehind(ctx, 1, c.fork, c.head)
		require.NoError(t, err)
		assert.Equal(t, c.in, in, "%s..%s", c.fork, c.head)
		assert.Equal(t, c.behind, behind, "%s..%s", c.fork, c.head)
	}
	_, _, err := s.ForkBehind(ctx, 1, f.c0.ID, strings.Repeat("cd", 20))
	assert.True(t, errors.Is(err, forge.ErrNotFound), "%v", err)

	fork := s.Path(2)
	// The fork lacks m2 until the sync fetches it.
	assert.Equal(t, f.m1.ID, git(t, fork, "rev-parse", "refs/heads/main"))
	// A stale old id: the compare-and-swap refuses, nothing moves.
	err = s.SyncForkRef(ctx, 1, 2, "refs/heads/main", m2.ID, f.c0.ID)
	assert.True(t, errors.Is(err, forge.ErrConflict), "%v", err)
	assert.Equal(t, f.m1.ID, git(t, fork, "rev-parse", "refs/heads/main"))
	// Not a fast-forward: refused.
	err = s.SyncForkRef(ctx, 1, 2, "refs/heads/feature", m2.ID, f.f2.ID)
	assert.True(t, errors.Is(err, forge.ErrConflict), "%v", err)
	assert.Equal(t, f.f2.ID, git(t, fork, "rev-parse", "refs/heads/feature"))
	// The fast-forward.
	require.NoError(t, s.SyncForkRef(ctx, 1, 2, "refs/heads/main", m2.ID, f.m1.ID))
	assert.Equal(t, m2.ID, git(t, fork, "rev-parse", "refs/heads/main"))
	assert.Equal(t, "d\n", git(t, fork, "show", "refs/heads/main:d.txt")+"\n")
	git(t, fork, "fsck", "--no-dangling")
}
