package gitstore_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/storage/gitstore"
)

var sig = repos.Signature{Name: "Ann", Email: "ann@example.com", When: time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)}

func TestRepositoryLifecycle(t *testing.T) {
	t.Parallel()
	for _, cli := range []bool{false, true} {
		for _, format := range []forge.ObjectFormat{forge.SHA1, forge.SHA256} {
			t.Run(fmt.Sprintf("%s/cli=%v", format, cli), func(t *testing.T) {
				t.Parallel()
				testLifecycle(t, format, cli)
			})
		}
	}
}

func testLifecycle(t *testing.T, format forge.ObjectFormat, cli bool) {
	{
		{
			ctx := context.Background()
			s, err := gitstore.OpenWith(t.TempDir(), gitstore.Options{CLIOnly: cli})
			require.NoError(t, err)
			require.NoError(t, s.Create(ctx, 7, format, "main"))
			assert.ErrorIs(t, s.Create(ctx, 7, format, "main"), forge.ErrConflict)
			_, err = s.Resolve(ctx, 7, "main")
			assert.ErrorIs(t, err, forge.ErrNotFound, "an empty repository has no branch")

			c1, err := s.Apply(ctx, 7, repos.ChangeSet{Message: "first\n", Author: sig, Committer: sig, NewBranch: "main",
				Files: []repos.FileOp{{Op: "create", Path: "README.md", Content: []byte("hello\nworld\n")},
					{Op: "create", Path: "src/a.go", Content: []byte("package a\n")}}})
			require.NoError(t, err)
			assert.Len(t, c1.ID, format.HexLen())
			assert.Equal(t, "first\n", c1.Message)
			assert.Equal(t, sig.When, c1.Author.When.UTC())
			assert.ElementsMatch(t, []repos.FileChangeStat{
				{Filename: "README.md", Status: "added", Additions: 2},
				{Filename: "src/a.go", Status: "added", Additions: 1}}, c1.Files)

			c2, err := s.Apply(ctx, 7, repos.ChangeSet{Branch: "main", Parent: c1.ID, Message: "second", Author: sig, Committer: sig,
				Files: []repos.FileOp{{Op: "update", Path: "README.md", Content: []byte("hello\nthere\n")},
					{Op: "delete", Path: "src/a.go"}}})
			require.NoError(t, err)
			assert.Equal(t, []string{c1.ID}, c2.Parents)
			assert.ElementsMatch(t, []repos.FileChangeStat{
				{Filename: "README.md", Status: "modified", Additions: 1, Deletions: 1},
				{Filename: "src/a.go", Status: "removed", Deletions: 1}}, c2.Files)

			_, err = s.Apply(ctx, 7, repos.ChangeSet{Branch: "main", Parent: c1.ID, Message: "stale", Author: sig, Committer: sig,
				Files: []repos.FileOp{{Op: "create", Path: "src/a.go", Content: []byte("x")}, {Op: "create", Path: "README.md", Content: []byte("x")}}})
			assert.ErrorIs(t, err, forge.ErrInvalid, "a write on a moved branch is checked again on its tip")
			assert.ErrorContains(t, err, "repository file already exists [path: README.md]")

			log, err := s.Log(ctx, 7, repos.LogOptions{Rev: "main", Files: true})
			require.NoError(t, err)
			require.Len(t, log, 2)
			assert.Equal(t, c2.ID, log[0].ID)
			n, err := s.CountCommits(ctx, 7, "main", "")
			require.NoError(t, err)
			assert.Equal(t, 2, n)

			tree, err := s.Tree(ctx, 7, "main", "", false)
			require.NoError(t, err)
			require.Len(t, tree, 1)
			assert.Equal(t, "README.md", tree[0].Path)
			assert.Len(t, tree[0].ID, format.HexLen())
			blob, err := s.Blob(ctx, 7, tree[0].ID)
			require.NoError(t, err)
			assert.Equal(t, "hello\nthere\n", string(blob))
			e, err := s.Entry(ctx, 7, c1.ID, "src/a.go")
			require.NoError(t, err)
			assert.Equal(t, "blob", e.Type)
			_, err = s.Entry(ctx, 7, "main", "src/a.go")
			assert.ErrorIs(t, err, forge.ErrNotFound)

			require.NoError(t, s.SetRef(ctx, 7, "refs/heads/old", c1.ID, ""))
			assert.ErrorIs(t, s.SetRef(ctx, 7, "refs/heads/old", c2.ID, ""), forge.ErrConflict)
			refs, err := s.Refs(ctx, 7)
			require.NoError(t, err)
			assert.Len(t, refs, 2)
			require.NoError(t, s.SetRef(ctx, 7, "refs/heads/old", "", c1.ID))

			var zip bytes.Buffer
			require.NoError(t, s.Archive(ctx, 7, "main", "zip", "repo", &zip))
			assert.Equal(t, "PK", zip.String()[:2])

			size, err := s.Size(ctx, 7)
			require.NoError(t, err)
			assert.Positive(t, size)
			require.NoError(t, s.Remove(ctx, 7))
			_, err = s.Size(ctx, 7)
			assert.ErrorIs(t, err, forge.ErrNotFound)
		}
	}
}

// TestGoGitAgreesWithCLI reads the same SHA-1 repository in process and
// through the command line and compares every answer.
func TestGoGitAgreesWithCLI(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	gg, err := gitstore.Open(dir)
	require.NoError(t, err)
	cli, err := gitstore.OpenWith(dir, gitstore.Options{CLIOnly: true})
	require.NoError(t, err)
	require.NoError(t, gg.Create(ctx, 1, forge.SHA1, "main"))
	_, err = gg.Apply(ctx, 1, repos.ChangeSet{NewBranch: "main", Message: "m", Author: sig, Committer: sig, Files: []repos.FileOp{
		{Op: "create", Path: "a.txt", Content: []byte("a")}, {Op: "create", Path: "d/b.txt", Content: []byte("bb")},
		{Op: "create", Path: "d/e/c.txt", Content: []byte("ccc")}}})
	require.NoError(t, err)
	require.NoError(t, gg.SetRef(ctx, 1, "refs/tags/v1", mustResolve(t, gg, "main"), ""))
	require.NoError(t, gg.SetRef(ctx, 1, "refs/heads/dev", mustResolve(t, gg, "main"), ""))

	r1, err1 := gg.Refs(ctx, 1)
	r2, err2 := cli.Refs(ctx, 1)
	require.NoError(t, errors.Join(err1, err2))
	assert.Equal(t, r2, r1)
	for _, rec := range []bool{false, true} {
		for _, dir := range []string{"", "d"} {
			t1, err1 := gg.Tree(ctx, 1, "main", dir, rec)
			t2, err2 := cli.Tree(ctx, 1, "main", dir, rec)
			require.NoError(t, errors.Join(err1, err2))
			assert.Equal(t, t2, t1, "tree %q recursive=%v", dir, rec)
		}
	}
	for _, p := range []string{"", "a.txt", "d", "d/e/c.txt"} {
		e1, err1 := gg.Entry(ctx, 1, "main", p)
		e2, err2 := cli.Entry(ctx, 1, "main", p)
		require.NoError(t, errors.Join(err1, err2))
		assert.Equal(t, e2, e1, "entry %q", p)
		if e1.Type == "blob" {
			b1, err1 := gg.Blob(ctx, 1, e1.ID)
			b2, err2 := cli.Blob(ctx, 1, e1.ID)
			require.NoError(t, errors.Join(err1, err2))
			assert.Equal(t, b2, b1)
		}
		typ1, size1, err1 := gg.Object(ctx, 1, e1.ID)
		typ2, size2, err2 := cli.Object(ctx, 1, e1.ID)
		require.NoError(t, errors.Join(err1, err2))
		assert.Equal(t, []any{typ2, size2}, []any{typ1, size1})
	}
	for _, s := range []*gitstore.Store{gg, cli} {
		_, err := s.Entry(ctx, 1, "main", "nope")
		assert.ErrorIs(t, err, forge.ErrNotFound)
		_, err = s.Blob(ctx, 1, "0123456789012345678901234567890123456789")
		assert.ErrorIs(t, err, forge.ErrNotFound)
		_, err = s.Tree(ctx, 1, "nope", "", false)
		assert.ErrorIs(t, err, forge.ErrNotFound)
	}
}

func mustResolve(t *testing.T, s *gitstore.Store, rev string) string {
	id, err := s.Resolve(context.Background(), 1, rev)
	require.NoError(t, err)
	return id
}
