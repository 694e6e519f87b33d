package memgit_test

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/storage/gitstore"
	"github.com/hearthforge/hearth/storage/memgit"
)

// TestSameObjectsAsGit makes the same commits and tags with memgit and with
// the git command line (storage/gitstore) and compares the ids: memgit's
// commits, trees, blobs and tag objects are git's, byte for byte.
func TestSameObjectsAsGit(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	disk, err := gitstore.OpenWith(t.TempDir(), gitstore.Options{CLIOnly: true})
	require.NoError(t, err)
	backends := []repos.Git{memgit.New(), disk}
	when := time.Date(2024, 5, 6, 7, 8, 9, 0, time.FixedZone("CEST", 2*3600))
	sig := repos.Signature{Name: "Ann Example", Email: "ann@example.com", When: when}
	changes := []repos.ChangeSet{
		{NewBranch: "main", Message: "first\n", Author: sig, Committer: sig, Files: []repos.FileOp{
			{Op: "create", Path: "README.md", Content: []byte("hello\n")},
			{Op: "create", Path: "a/b/c.txt", Content: []byte("c")},
			{Op: "create", Path: "a.txt", Content: []byte("sorts before a/ in a tree")},
			{Op: "create", Path: "a-b", Content: []byte{0, 1, 2}},
		}},
		{Branch: "main", Message: "second, no newline", Author: sig, Committer: sig, Files: []repos.FileOp{
			{Op: "delete", Path: "a/b/c.txt"},
			{Op: "update", FromPath: "README.md", Path: "docs/README.md", Content: []byte("hello\nagain\n")},
		}},
		{Branch: "main", NewBranch: "empty", Message: "everything goes\n", Author: sig, Committer: sig, Files: []repos.FileOp{
			{Op: "delete", Path: "a.txt"}, {Op: "delete", Path: "a-b"}, {Op: "delete", Path: "docs/README.md"},
		}},
	}
	var got [2][]string
	for i, g := range backends {
		require.NoError(t, g.Create(ctx, 1, forge.SHA1, "main"))
		for _, c := range changes {
			commit, err := g.Apply(ctx, 1, c)
			require.NoError(t, err)
			got[i] = append(got[i], commit.ID, commit.Tree)
			assert.NotNil(t, commit.Files)
		}
		require.NoError(t, g.CreateTag(ctx, 1, "v1", "main", "Version 1  \n\n", sig))
		// git's default cleanup (git tag -a -m, as Forgejo): comments,
		// trailing spaces, blank runs and blank ends go; a newline ends it.
		for i, msg := range []string{"\n\n  lead\t \r\n#c\n\n\n\nmid\n \n\nend", "# only a comment", "no newline", "a\x0bb\x0c"} {
			require.NoError(t, g.CreateTag(ctx, 1, fmt.Sprintf("clean%d", i), "main", msg, sig))
		}
		refs, err := g.Refs(ctx, 1)
		require.NoError(t, err)
		for _, r := range refs {
			got[i] = append(got[i], r.Name, r.Target)
		}
		log, err := g.Log(ctx, 1, repos.LogOptions{Rev: "empty", Files: true})
		require.NoError(t, err)
		for _, c := range log {
			for _, f := range c.Files {
				got[i] = append(got[i], f.Filename, f.Status, string(rune('0'+f.Additions)), string(rune('0'+f.Deletions)))
			}
		}
	}
	assert.Equal(t, got[1], got[0], "memgit (left) and git (right)")
}

// TestSamePatchesAsGit compares memgit's diffs and patches with git's for
// text changes: they match byte for byte but for format-patch's signature
// (git's version, "memgit" here).
func TestSamePatchesAsGit(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	disk, err := gitstore.OpenWith(t.TempDir(), gitstore.Options{CLIOnly: true})
	require.NoError(t, err)
	sig := repos.Signature{Name: "Ann Example", Email: "ann@example.com", When: time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)}
	lines := func(from, to int, edit map[int]string) []byte {
		var b strings.Builder
		for i := from; i <= to; i++ {
			if s, ok := edit[i]; ok {
				b.WriteString(s)
				continue
			}
			fmt.Fprintf(&b, "line %d\n", i)
		}
		return []byte(b.String())
	}
	changes := []repos.ChangeSet{
		{NewBranch: "main", Message: "first\n", Author: sig, Committer: sig, Files: []repos.FileOp{
			{Op: "create", Path: "long.txt", Content: lines(1, 40, nil)},
			{Op: "create", Path: "src/deep/dir/a.go", Content: []byte("package dir\n")},
			{Op: "create", Path: "no-newline", Content: []byte("last")},
			{Op: "create", Path: "logo.png", Content: []byte{0x89, 'P', 'N', 'G', 0, 1, 2, 3}},
		}},
		{Branch: "main", Message: "binary only\n", Author: sig, Committer: sig, Files: []repos.FileOp{
			{Op: "update", Path: "logo.png", Content: []byte{0x89, 'P', 'N', 'G', 0, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9}},
			{Op: "create", Path: "empty", Content: nil},
		}},
		{Branch: "main", Message: "Second: two hunks\n\nWith a body\nof two lines.\n", Author: sig, Committer: sig, Files: []repos.FileOp{
			{Op: "update", Path: "long.txt", Content: lines(1, 42, map[int]string{3: "three\n", 30: "", 31: "thirty-one\nextra\n"})},
			{Op: "update", Path: "no-newline", Content: []byte("last\n")},
			{Op: "delete", Path: "src/deep/dir/a.go"},
			{Op: "create", Path: "a-very/long/path/that/goes/on/and/on/and/on/until/the/stat/must/shorten/it.txt",
				Content: lines(1, 100, nil)},
		}},
	}
	mem := memgit.New()
	for _, g := range []repos.Git{mem, disk} {
		require.NoError(t, g.Create(ctx, 1, forge.SHA1, "main"))
		for _, c := range changes {
			_, err := g.Apply(ctx, 1, c)
			require.NoError(t, err)
		}
	}
	unsign := func(s string) string {
		i := strings.LastIndex(s, "\n-- \n")
		if i < 0 {
			return s
		}
		return s[:i]
	}
	// The patch of a binary file differs: git writes a "GIT binary
	// patch" (compressed, so not reproducible byte for byte), memgit the
	// diff's "Binary files ... differ"; the mail header and diffstat agree.
	head := func(s string) string {
		h, _, _ := strings.Cut(s, "\ndiff --git")
		return h
	}
	for _, tc := range []struct {
		rev    string
		binary bool
	}{{"main", false}, {"main~1", true}, {"main~2", true}} {
		for _, kind := range []string{"diff", "patch"} {
			var want, got bytes.Buffer
			require.NoError(t, disk.Patch(ctx, 1, tc.rev, kind, &want))
			require.NoError(t, mem.Patch(ctx, 1, tc.rev, kind, &got))
			if kind == "patch" && tc.binary {
				assert.Equal(t, head(want.String()), head(got.String()), "%s %s", tc.rev, kind)
				continue
			}
			assert.Equal(t, unsign(want.String()), unsign(got.String()), "%s %s", tc.rev, kind)
		}
	}
}
