package gitstore_test

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/storage/gitstore"
)

// newRepo opens a store with repository 1 holding one commit on main.
func newRepo(t *testing.T, cli bool) (*gitstore.Store, *repos.Commit) {
	t.Helper()
	ctx := context.Background()
	s, err := gitstore.OpenWith(t.TempDir(), gitstore.Options{CLIOnly: cli})
	require.NoError(t, err)
	require.NoError(t, s.Create(ctx, 1, forge.SHA1, "main"))
	c, err := s.Apply(ctx, 1, repos.ChangeSet{NewBranch: "main", Message: "init", Author: sig, Committer: sig,
		Files: []repos.FileOp{{Op: "create", Path: "README.md", Content: []byte("hi\n")}}})
	require.NoError(t, err)
	return s, c
}

// tmpFiles lists what is left in the store's temporary directory.
func tmpFiles(t *testing.T, s *gitstore.Store) []string {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(s.Root(), ".tmp"))
	if os.IsNotExist(err) {
		return nil
	}
	require.NoError(t, err)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

// TestConcurrentApply: writers of different files to one branch, all
// checked against the same tip, all succeed and the branch holds every file.
func TestConcurrentApply(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, base := newRepo(t, false)
	const writers = 8
	var wg sync.WaitGroup
	errs := make([]error, writers)
	for i := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = s.Apply(ctx, 1, repos.ChangeSet{Branch: "main", Parent: base.ID, Message: fmt.Sprintf("w%d", i),
				Author: sig, Committer: sig, Files: []repos.FileOp{{Op: "create", Path: fmt.Sprintf("f%d.txt", i), Content: []byte("x")}}})
		}()
	}
	wg.Wait()
	for i, err := range errs {
		assert.NoError(t, err, "writer %d", i)
	}
	tree, err := s.Tree(ctx, 1, "main", "", false)
	require.NoError(t, err)
	assert.Len(t, tree, writers+1)
	n, err := s.CountCommits(ctx, 1, "main", "")
	require.NoError(t, err)
	assert.Equal(t, writers+1, n)
	assert.Empty(t, tmpFiles(t, s), "index files are removed")

	// A dependent write checked against the old tip is refused on the new one.
	_, err = s.Apply(ctx, 1, repos.ChangeSet{Branch: "main", Parent: base.ID, Message: "dup", Author: sig, Committer: sig,
		Files: []repos.FileOp{{Op: "create", Path: "f0.txt", Content: []byte("y")}}})
	assert.ErrorContains(t, err, "repository file already exists [path: f0.txt]")
}

// TestApplyRefusesPaths: Apply writes only paths repos.CleanTreePath
// accepts as they are, so no path (or from path) can inject an index entry.
func TestApplyRefusesPaths(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, base := newRepo(t, true)
	blob, err := s.Entry(ctx, 1, "main", "README.md")
	require.NoError(t, err)
	for _, f := range []repos.FileOp{
		{Op: "create", Path: "a/../README.md"},
		{Op: "create", Path: ".git/config"},
		{Op: "create", Path: "a\nb"},
		{Op: "create", Path: "/abs"},
		{Op: "create", Path: ""},
		{Op: "update", Path: "new", FromPath: "README.md\x00120000 " + blob.ID + "\x00link"},
		{Op: "update", Path: "new", FromPath: "README.md\n120000 " + blob.ID + "\tlink"},
	} {
		_, err := s.Apply(ctx, 1, repos.ChangeSet{Branch: "main", Parent: base.ID, Message: "m", Author: sig, Committer: sig, Files: []repos.FileOp{f}})
		assert.ErrorIs(t, err, forge.ErrInvalid, "%q %q", f.Path, f.FromPath)
	}
	// A failure inside git leaves no index file either.
	_, err = s.Apply(ctx, 1, repos.ChangeSet{Branch: "main", Parent: base.ID, Message: "m", Author: sig, Committer: sig,
		Files: []repos.FileOp{{Op: "bogus", Path: "x"}}})
	assert.Error(t, err)
	_, err = s.Apply(ctx, 1, repos.ChangeSet{Branch: "main", Parent: base.ID, Message: "m", Author: repos.Signature{Name: "a\nb", Email: "e"}, Committer: sig,
		Files: []repos.FileOp{{Op: "create", Path: "x"}}})
	assert.ErrorIs(t, err, forge.ErrInvalid)
	n, err := s.CountCommits(ctx, 1, "main", "")
	require.NoError(t, err)
	assert.Equal(t, 1, n, "nothing was committed")
	assert.Empty(t, tmpFiles(t, s))
}

// TestLastCommitsAgreesWithLog: one walk gives each entry the commit a
// per-entry `git log -1 -- path` gives.
func TestLastCommitsAgreesWithLog(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, cli := range []bool{false, true} {
		s, _ := newRepo(t, cli)
		for i := range 6 {
			files := []repos.FileOp{{Op: "create", Path: fmt.Sprintf("d/f%d", i), Content: []byte("x")}}
			if i%2 == 1 {
				files = append(files, repos.FileOp{Op: "create", Path: fmt.Sprintf("d/sub/g%d", i), Content: []byte("y")})
			}
			_, err := s.Apply(ctx, 1, repos.ChangeSet{Branch: "main", Message: "c", Author: sig, Committer: sig, Files: files})
			require.NoError(t, err)
		}
		for _, dir := range []string{"", "d", "d/sub"} {
			entries, err := s.Tree(ctx, 1, "main", dir, false)
			require.NoError(t, err)
			var names []string
			for _, e := range entries {
				names = append(names, e.Name)
			}
			got, err := s.LastCommits(ctx, 1, "main", dir, names)
			require.NoError(t, err)
			require.Len(t, got, len(names))
			for _, e := range entries {
				log, err := s.Log(ctx, 1, repos.LogOptions{Rev: "main", Path: e.Path, Limit: 1})
				require.NoError(t, err)
				assert.Equal(t, log[0].ID, got[e.Name], "%s (cli=%v)", e.Path, cli)
			}
		}
	}
}

// TestOpenBlobStreams: what raw does with an 80 MB file (its entry, its
// object, its content) allocates a few MB, not 80.
func TestOpenBlobStreams(t *testing.T) {
	ctx := context.Background()
	for _, cli := range []bool{false, true} {
		s, _ := newRepo(t, cli)
		big := []byte(strings.Repeat("0123456789abcdef", 80<<16)) // 80 MiB
		_, err := s.Apply(ctx, 1, repos.ChangeSet{Branch: "main", Message: "big", Author: sig, Committer: sig,
			Files: []repos.FileOp{{Op: "create", Path: "big.bin", Content: big}}})
		require.NoError(t, err)
		big = nil

		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		e, err := s.Entry(ctx, 1, "main", "big.bin")
		require.NoError(t, err)
		typ, size, err := s.Object(ctx, 1, e.ID)
		require.NoError(t, err)
		r, n, err := s.OpenBlob(ctx, 1, e.ID)
		require.NoError(t, err)
		copied, err := io.Copy(io.Discard, r)
		require.NoError(t, err)
		require.NoError(t, r.Close())
		runtime.ReadMemStats(&after)
		assert.Equal(t, int64(80<<20), e.Size)
		assert.Equal(t, "blob", typ)
		assert.Equal(t, int64(80<<20), size)
		assert.Equal(t, int64(80<<20), n)
		assert.Equal(t, int64(80<<20), copied)
		assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(4<<20), "cli=%v", cli)
	}
}
