package repos_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/storage/memgit"
)

// F1: ResolveRef takes the branch, then the tag, then a full commit id;
// short ids only when asked; never git's own name guessing (where a tag
// wins over a branch).
func TestResolveRef(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	g := memgit.New()
	require.NoError(t, g.Create(ctx, 1, forge.SHA1, "main"))
	sig := repos.Signature{Name: "a", Email: "a@example.com", When: time.Unix(1700000000, 0)}
	c1, err := g.Apply(ctx, 1, repos.ChangeSet{NewBranch: "main", Message: "1", Author: sig, Committer: sig,
		Files: []repos.FileOp{{Op: "create", Path: "a", Content: []byte("1")}}})
	require.NoError(t, err)
	c2, err := g.Apply(ctx, 1, repos.ChangeSet{Branch: "main", NewBranch: "web", Message: "2", Author: sig, Committer: sig,
		Files: []repos.FileOp{{Op: "create", Path: "b", Content: []byte("2")}}})
	require.NoError(t, err)
	require.NoError(t, g.SetRef(ctx, 1, "refs/tags/main", c2.ID, ""))        // a tag named like a branch
	require.NoError(t, g.CreateTag(ctx, 1, "v1", c2.ID, "annotated", sig))   // peeled to c2
	require.NoError(t, g.SetRef(ctx, 1, "refs/heads/"+c2.ID[:8], c1.ID, "")) // a branch named like a short id

	for _, tt := range []struct {
		rev        string
		short      bool
		kind, full string
		commit     string
	}{
		{"main", false, repos.RefKindBranch, "refs/heads/main", c1.ID},
		{"refs/heads/main", false, repos.RefKindBranch, "refs/heads/main", c1.ID},
		{"refs/tags/main", false, repos.RefKindTag, "refs/tags/main", c2.ID},
		{"web", false, repos.RefKindBranch, "refs/heads/web", c2.ID},
		{"v1", false, repos.RefKindTag, "refs/tags/v1", c2.ID},
		{c2.ID, false, repos.RefKindCommit, c2.ID, c2.ID},
		{c2.ID[:8], false, repos.RefKindBranch, "refs/heads/" + c2.ID[:8], c1.ID},
		{c1.ID[:10], true, repos.RefKindCommit, c1.ID, c1.ID},
		{c1.ID[:10], false, "", "", ""},
		{c1.ID[:3], true, "", "", ""},
		{"nope", true, "", "", ""},
		{"", true, "", "", ""},
		{"-n", true, "", "", ""},
		{"refs/heads/nope", true, "", "", ""},
		{"main~1", true, "", "", ""},
	} {
		got, err := repos.ResolveRef(ctx, g, 1, tt.rev, tt.short)
		if tt.kind == "" {
			assert.ErrorIs(t, err, forge.ErrNotFound, "%q", tt.rev)
			continue
		}
		require.NoError(t, err, "%q", tt.rev)
		assert.Equal(t, repos.ResolvedRef{Name: tt.rev, Kind: tt.kind, Full: tt.full, Commit: tt.commit}, *got, "%q", tt.rev)
	}
}
