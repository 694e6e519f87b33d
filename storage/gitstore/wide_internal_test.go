package gitstore

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
)

// wideRepo makes repository 1 of s with one commit on main holding
// dirs×files files (every file the same small Go blob), built with git's
// plumbing (mktree) and packed, and returns the commit and its tree.
func wideRepo(tb testing.TB, s *Store, dirs, files int) (commit, tree string) {
	tb.Helper()
	ctx := context.Background()
	require.NoError(tb, s.Create(ctx, 1, forge.SHA1, "main"))
	run := func(stdin string, args ...string) string {
		out, err := s.run(ctx, 1, []byte(stdin), nil, args...)
		require.NoError(tb, err)
		return strings.TrimSpace(string(out))
	}
	blob := run("package x\n\nfunc F() {}\n", "hash-object", "-w", "--stdin")
	var dir strings.Builder
	for i := range files {
		fmt.Fprintf(&dir, "100644 blob %s\tf%05d.go\x00", blob, i)
	}
	sub := run(dir.String(), "mktree", "-z")
	var root strings.Builder
	for i := range dirs {
		fmt.Fprintf(&root, "040000 tree %s\td%04d\x00", sub, i)
	}
	tree = run(root.String(), "mktree", "-z")
	env := []string{"GIT_AUTHOR_NAME=a", "GIT_AUTHOR_EMAIL=a@example.com", "GIT_COMMITTER_NAME=a", "GIT_COMMITTER_EMAIL=a@example.com"}
	out, err := s.run(ctx, 1, []byte("wide\n"), env, "commit-tree", tree, "-F", "-")
	require.NoError(tb, err)
	commit = strings.TrimSpace(string(out))
	require.NoError(tb, s.SetRef(ctx, 1, "refs/heads/main", commit, ""))
	run("", "repack", "-adq") // packed, as pushed repositories are
	return commit, tree
}

// BenchmarkWideTree lists a 20,000-file tree recursively: as before F7
// (go-git, one object header read per entry, all entries kept) and as now
// (one streamed `git ls-tree -r -t -l -z`, one page kept).
func BenchmarkWideTree(b *testing.B) {
	s, err := Open(b.TempDir())
	require.NoError(b, err)
	_, tree := wideRepo(b, s, 200, 100)
	ctx := context.Background()
	b.Run("before/gogit", func(b *testing.B) {
		for b.Loop() {
			r := s.open(1)
			t, err := goTreeAt(r, tree, "")
			require.NoError(b, err)
			entries, err := goTree(r, t, "", true)
			require.NoError(b, err)
			require.Len(b, entries, 20200)
		}
	})
	b.Run("after/walk-page", func(b *testing.B) {
		for b.Loop() {
			// As TreePage with per_page=1: count all, keep one.
			var page []repos.TreeEntry
			n := 0
			for e, err := range s.WalkTree(ctx, 1, tree, true) {
				require.NoError(b, err)
				if n < 1 {
					page = append(page, e)
				}
				n++
			}
			require.Equal(b, 20200, n)
			require.Len(b, page, 1)
		}
	})
}

// BenchmarkWideLanguages computes the languages of the same tree: before
// (the go-git listing, summed), now uncached (one stream) and cached.
func BenchmarkWideLanguages(b *testing.B) {
	s, err := Open(b.TempDir())
	require.NoError(b, err)
	_, tree := wideRepo(b, s, 200, 100)
	ctx := context.Background()
	b.Run("before/gogit", func(b *testing.B) {
		for b.Loop() {
			r := s.open(1)
			t, err := goTreeAt(r, tree, "")
			require.NoError(b, err)
			entries, err := goTree(r, t, "", true)
			require.NoError(b, err)
			out := map[string]int64{}
			for _, e := range entries {
				if lang := repos.LanguageOf(e.Path); e.Type == "blob" && lang != "" {
					out[lang] += e.Size
				}
			}
			require.Len(b, out, 1)
		}
	})
	b.Run("after/uncached", func(b *testing.B) {
		for b.Loop() {
			out, err := repos.LanguageStats(s.WalkTree(ctx, 1, tree, true))
			require.NoError(b, err)
			require.Len(b, out, 1)
		}
	})
	b.Run("after/cached", func(b *testing.B) {
		for b.Loop() {
			out, err := s.Languages(ctx, 1, tree)
			require.NoError(b, err)
			require.Len(b, out, 1)
		}
	})
}

// F7: Languages is computed once per tree id and kept in a bounded LRU; a
// negative size disables the cache.
func TestLanguagesCachedPerTree(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, err := OpenWith(t.TempDir(), Options{LanguageCacheEntries: 1})
	require.NoError(t, err)
	_, tree := wideRepo(t, s, 2, 3)
	want := map[string]int64{"Go": 6 * int64(len("package x\n\nfunc F() {}\n"))}
	got, err := s.Languages(ctx, 1, tree)
	require.NoError(t, err)
	assert.Equal(t, want, got)
	assert.Equal(t, 1, s.langs.len())
	// Served from the cache even once git could no longer list the tree.
	require.NoError(t, os.Rename(filepath.Join(s.Path(1), "objects"), filepath.Join(s.Path(1), "objects.away")))
	got, err = s.Languages(ctx, 1, tree)
	require.NoError(t, err)
	assert.Equal(t, want, got)
	require.NoError(t, os.Rename(filepath.Join(s.Path(1), "objects.away"), filepath.Join(s.Path(1), "objects")))
	// Bounded: another tree evicts it.
	sub := ""
	for e, err := range s.WalkTree(ctx, 1, tree, false) {
		require.NoError(t, err)
		sub = e.ID
		break
	}
	_, err = s.Languages(ctx, 1, sub)
	require.NoError(t, err)
	assert.Equal(t, 1, s.langs.len())

	off, err := OpenWith(t.TempDir(), Options{LanguageCacheEntries: -1})
	require.NoError(t, err)
	_, tree = wideRepo(t, off, 1, 1)
	_, err = off.Languages(ctx, 1, tree)
	require.NoError(t, err)
	assert.Equal(t, 0, off.langs.len())
}

// F7: with MaxArchives 1 a second archive waits for the first's turn (or
// for its context), and cached archives are served again from disk.
func TestArchiveTurnsAndCache(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, err := OpenWith(t.TempDir(), Options{MaxArchives: 1, CacheArchives: true})
	require.NoError(t, err)
	commit, _ := wideRepo(t, s, 2, 2)

	release, err := s.archiveTurn(ctx) // the one turn is taken
	require.NoError(t, err)
	cctx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- s.Archive(cctx, 1, commit, "zip", "wide", io.Discard) }()
	waitFor(t, func() bool { return s.archiveWaiting.Load() == 1 })
	cancel()
	assert.ErrorIs(t, <-done, context.Canceled)

	var first bytes.Buffer
	go func() { done <- s.Archive(ctx, 1, commit, "zip", "wide", &first) }()
	waitFor(t, func() bool { return s.archiveWaiting.Load() == 1 })
	release()
	require.NoError(t, <-done)
	require.NotZero(t, first.Len())

	files, err := filepath.Glob(filepath.Join(s.archiveDir(1), commit+"-*.zip"))
	require.NoError(t, err)
	require.Len(t, files, 1, "cached on disk")
	// Served from the cache: with the turn taken, it still answers.
	release, err = s.archiveTurn(ctx)
	require.NoError(t, err)
	var second bytes.Buffer
	require.NoError(t, s.Archive(ctx, 1, commit, "zip", "wide", &second))
	release()
	assert.Equal(t, first.Bytes(), second.Bytes())
	tmp, err := filepath.Glob(filepath.Join(s.archiveDir(1), ".tmp-*"))
	require.NoError(t, err)
	assert.Empty(t, tmp, "no temporary file left")

	require.NoError(t, s.Remove(ctx, 1))
	_, err = os.Stat(s.archiveDir(1))
	assert.True(t, os.IsNotExist(err), "Remove deletes the cached archives")
}

// waitFor polls cond until it holds, failing after a deadline.
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not reached before the deadline")
		}
		time.Sleep(time.Millisecond)
	}
}
