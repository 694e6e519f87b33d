package memgit_test

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/storage/gitstore"
	"github.com/hearthforge/hearth/storage/memgit"
)

// TestSameArchivesAsGit compares the entries of memgit's archives with
// git archive's: names, types, modes, times and contents, in order.
func TestSameArchivesAsGit(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	disk, err := gitstore.OpenWith(t.TempDir(), gitstore.Options{CLIOnly: true})
	require.NoError(t, err)
	mem := memgit.New()
	sig := repos.Signature{Name: "Ann", Email: "ann@example.com", When: time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)}
	for _, g := range []repos.Git{mem, disk} {
		require.NoError(t, g.Create(ctx, 1, forge.SHA1, "main"))
		_, err := g.Apply(ctx, 1, repos.ChangeSet{NewBranch: "main", Message: "m\n", Author: sig, Committer: sig,
			Files: []repos.FileOp{
				{Op: "create", Path: "README.md", Content: []byte("hello\n")},
				{Op: "create", Path: "a/b/c.txt", Content: []byte("c\n")},
				{Op: "create", Path: "a.txt", Content: []byte("a\n")},
				{Op: "create", Path: "empty", Content: nil},
			}})
		require.NoError(t, err)
	}
	for _, format := range []string{"tar.gz", "zip"} {
		var want, got bytes.Buffer
		require.NoError(t, disk.Archive(ctx, 1, "main", format, "repo-main", &want))
		require.NoError(t, mem.Archive(ctx, 1, "main", format, "repo-main", &got))
		assert.Equal(t, entries(t, format, want.Bytes()), entries(t, format, got.Bytes()), format)
	}
}

func entries(t *testing.T, format string, b []byte) []string {
	t.Helper()
	var out []string
	if format == "zip" {
		zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
		require.NoError(t, err)
		out = append(out, "comment "+zr.Comment)
		for _, f := range zr.File {
			rc, err := f.Open()
			require.NoError(t, err)
			content, err := io.ReadAll(rc)
			require.NoError(t, err)
			rc.Close()
			out = append(out, fmt.Sprintf("%s %v %s %q", f.Name, f.Mode(), f.Modified.UTC(), content))
		}
		return out
	}
	gz, err := gzip.NewReader(bytes.NewReader(b))
	require.NoError(t, err)
	tr := tar.NewReader(gz)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return out
		}
		require.NoError(t, err)
		content, err := io.ReadAll(tr)
		require.NoError(t, err)
		out = append(out, fmt.Sprintf("%s %c %o %s %s/%s %v %q", h.Name, h.Typeflag, h.Mode, h.ModTime.UTC(), h.Uname, h.Gname,
			h.PAXRecords, content))
	}
}
