package gitstore

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
)

// F5: a path git's update-index ignores ("Ignoring path", exit 0) fails
// the commit instead of making an empty one, even when it reaches the
// store without CleanTreePath.
func TestCommitFailsOnPathGitIgnores(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, err := Open(t.TempDir())
	require.NoError(t, err)
	require.NoError(t, s.Create(ctx, 1, forge.SHA1, "main"))
	sig := repos.Signature{Name: "a", Email: "a@example.com", When: time.Unix(1700000000, 0)}
	for _, p := range []string{"git~1/config", "d/GIT~1/x", ".git.", ".git ", ".git::$INDEX_ALLOCATION/x", ".g\u200cit/x"} {
		_, err := s.commit(ctx, 1, "", repos.ChangeSet{Message: "m", Author: sig, Committer: sig,
			Files: []repos.FileOp{{Op: "create", Path: "ok.txt", Content: []byte("x")}, {Op: "create", Path: p, Content: []byte("x")}}})
		assert.ErrorIs(t, err, forge.ErrInvalid, "%q", p)
		assert.ErrorContains(t, err, "path contains a malformed path component", "%q", p)
	}
	id, err := s.commit(ctx, 1, "", repos.ChangeSet{Message: "m", Author: sig, Committer: sig,
		Files: []repos.FileOp{{Op: "create", Path: "ok.txt", Content: []byte("x")}}})
	require.NoError(t, err)
	assert.Len(t, id, 40)
}
