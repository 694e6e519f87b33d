package gitstore_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/storage/gitstore"
)

// Issue 8 items 15 and 21: tag names never reach git as options, and an
// annotated tag's message gets git's default cleanup, as Forgejo's
// git tag -a -m.
func TestCreateTagNamesAndMessages(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, err := gitstore.Open(t.TempDir())
	require.NoError(t, err)
	require.NoError(t, s.Create(ctx, 1, forge.SHA1, "main"))
	who := repos.Signature{Name: "T", Email: "t@example.com", When: time.Unix(1700000000, 0).UTC()}
	_, err = s.Apply(ctx, 1, repos.ChangeSet{Message: "init\n", Author: who, Committer: who, NewBranch: "main",
		Files: []repos.FileOp{{Op: "create", Path: "f", Content: []byte("x\n")}}})
	require.NoError(t, err)

	for _, name := range []string{"-n", "-o", "--list", "-d", "HEAD", "refs/tags/x", "a..b", "a b", "x.lock"} {
		for _, msg := range []string{"", "annotated"} {
			err := s.CreateTag(ctx, 1, name, "main", msg, who)
			assert.ErrorIs(t, err, forge.ErrInvalid, "tag %q (message %q)", name, msg)
		}
	}
	refs, err := s.Refs(ctx, 1)
	require.NoError(t, err)
	for _, r := range refs {
		assert.Equal(t, "refs/heads/main", r.Name, "no tag was created")
	}

	for name, tc := range map[string]struct{ msg, want string }{
		"v1": {"no newline", "no newline\n"}, "v2": {"two lines\n# a comment\n", "two lines\n"}, "v3": {"\n  spaced  \n\n", "  spaced\n"}} {
		require.NoError(t, s.CreateTag(ctx, 1, name, "main", tc.msg, who))
		refs, err := s.Refs(ctx, 1)
		require.NoError(t, err)
		for _, r := range refs {
			if r.Name == "refs/tags/"+name {
				tag, err := s.Tag(ctx, 1, r.Target)
				require.NoError(t, err)
				assert.Equal(t, tc.want, tag.Message, name)
				assert.Equal(t, name, tag.Name)
			}
		}
	}
}
