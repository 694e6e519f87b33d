package gittest

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
)

func testCreate(t *testing.T, e *env) {
	e.create(1)
	assert.ErrorIs(t, e.g.Create(e.ctx, 1, e.format, "main"), forge.ErrConflict, "a repository is created once")
	assert.ErrorIs(t, e.g.Create(e.ctx, 2, forge.ObjectFormat("md5"), "main"), forge.ErrInvalid)
	_, err := e.g.Resolve(e.ctx, 1, "main")
	assert.ErrorIs(t, err, forge.ErrNotFound, "an empty repository has no branch")
	refs, err := e.g.Refs(e.ctx, 1)
	require.NoError(t, err)
	assert.Empty(t, refs)
	n, err := e.g.Size(e.ctx, 1)
	require.NoError(t, err)
	assert.GreaterOrEqual(t, n, int64(0))
}

func testMissingRepository(t *testing.T, e *env) {
	const missing = 99
	notFound := func(what string, err error) {
		t.Helper()
		assert.ErrorIs(t, err, forge.ErrNotFound, what)
	}
	_, err := e.g.Size(e.ctx, missing)
	notFound("Size", err)
	_, err = e.g.Refs(e.ctx, missing)
	notFound("Refs", err)
	_, err = e.g.Resolve(e.ctx, missing, "main")
	notFound("Resolve", err)
	_, err = e.g.Log(e.ctx, missing, repos.LogOptions{Rev: "main"})
	notFound("Log", err)
	_, err = e.g.CountCommits(e.ctx, missing, "main", "")
	notFound("CountCommits", err)
	_, err = e.g.Tree(e.ctx, missing, "main", "", false)
	notFound("Tree", err)
	_, err = e.g.Entry(e.ctx, missing, "main", "")
	notFound("Entry", err)
	zero := strings.Repeat("0", e.format.HexLen())
	_, _, err = e.g.Object(e.ctx, missing, zero)
	notFound("Object", err)
	_, err = e.g.Blob(e.ctx, missing, zero)
	notFound("Blob", err)
	_, err = e.g.Tag(e.ctx, missing, zero)
	notFound("Tag", err)
	_, err = e.g.Apply(e.ctx, missing, repos.ChangeSet{NewBranch: "main", Message: "m", Author: sig, Committer: sig,
		Files: []repos.FileOp{{Op: "create", Path: "a", Content: []byte("a")}}})
	notFound("Apply", err)
	notFound("SetRef", e.g.SetRef(e.ctx, missing, "refs/heads/x", zero, "*"))
	_, _, err = e.g.OpenBlob(e.ctx, missing, zero)
	notFound("OpenBlob", err)
	_, err = e.g.LastCommits(e.ctx, missing, "main", "", []string{"README.md"})
	notFound("LastCommits", err)
	notFound("CreateTag", e.g.CreateTag(e.ctx, missing, "v1", "main", "", sig))
	notFound("Fork", e.g.Fork(e.ctx, missing, 100))
	notFound("Patch", e.g.Patch(e.ctx, missing, "main", "diff", io.Discard))
	notFound("Archive", e.g.Archive(e.ctx, missing, "main", "zip", "x", io.Discard))
}

func testApply(t *testing.T, e *env) {
	h := e.history(1)
	hexLen := e.format.HexLen()

	assert.Len(t, h.c1.ID, hexLen)
	assert.Len(t, h.c1.Tree, hexLen)
	assert.Empty(t, h.c1.Parents, "the first commit has no parent")
	assert.Equal(t, "first\n", h.c1.Message)
	assert.Equal(t, sig.Name, h.c1.Author.Name)
	assert.Equal(t, sig.Email, h.c1.Author.Email)
	assert.True(t, sig.When.Equal(h.c1.Author.When), "author time %v", h.c1.Author.When)
	assert.True(t, sig.When.Equal(h.c1.Committer.When), "committer time %v", h.c1.Committer.When)
	assert.ElementsMatch(t, []repos.FileChangeStat{
		{Filename: "README.md", Status: "added", Additions: 2},
		{Filename: "src/a.go", Status: "added", Additions: 1},
		{Filename: "src/lib/b.go", Status: "added", Additions: 3},
	}, h.c1.Files)

	assert.Equal(t, []string{h.c1.ID}, h.c2.Parents)
	assert.Equal(t, "second\n\nbody line\n", h.c2.Message)
	assert.True(t, later(time.Hour).When.Equal(h.c2.Committer.When), "committer time %v", h.c2.Committer.When)
	assert.ElementsMatch(t, []repos.FileChangeStat{
		{Filename: "README.md", Status: "modified", Additions: 1, Deletions: 1},
		{Filename: "src/a.go", Status: "removed", Deletions: 1},
		{Filename: "docs/guide.md", Status: "added", Additions: 1},
	}, h.c2.Files)

	assert.ElementsMatch(t, []repos.FileChangeStat{
		{Filename: "docs/guide.md", Status: "removed", Deletions: 1},
		{Filename: "docs/manual.md", Status: "added", Additions: 1},
	}, h.c3.Files, "a rename is a removal and an addition")

	tip, err := e.g.Resolve(e.ctx, 1, "main")
	require.NoError(t, err)
	assert.Equal(t, h.c3.ID, tip)
	entry, err := e.g.Entry(e.ctx, 1, "main", "docs/manual.md")
	require.NoError(t, err)
	content, err := e.g.Blob(e.ctx, 1, entry.ID)
	require.NoError(t, err)
	assert.Equal(t, "# Manual\n", string(content))
	_, err = e.g.Entry(e.ctx, 1, "main", "docs/guide.md")
	assert.ErrorIs(t, err, forge.ErrNotFound, "the renamed file is gone")

	// NewBranch starts from Branch and leaves it where it was.
	c4, err := e.g.Apply(e.ctx, 1, repos.ChangeSet{Branch: "main", NewBranch: "feature", Parent: h.c3.ID, Message: "feature\n",
		Author: sig, Committer: sig, Files: []repos.FileOp{{Op: "create", Path: "src/lib/c.go", Content: []byte("package lib\n")}}})
	require.NoError(t, err)
	assert.Equal(t, []string{h.c3.ID}, c4.Parents)
	feature, err := e.g.Resolve(e.ctx, 1, "feature")
	require.NoError(t, err)
	assert.Equal(t, c4.ID, feature)
	tip, err = e.g.Resolve(e.ctx, 1, "main")
	require.NoError(t, err)
	assert.Equal(t, h.c3.ID, tip, "NewBranch does not move Branch")

	// Apply with an empty Parent skips the check.
	c5, err := e.g.Apply(e.ctx, 1, repos.ChangeSet{Branch: "feature", Message: "more\n", Author: sig, Committer: sig,
		Files: []repos.FileOp{{Op: "update", Path: "src/lib/c.go", Content: []byte("package lib\n\n// C.\n")}}})
	require.NoError(t, err)
	assert.Equal(t, []string{c4.ID}, c5.Parents)
	assert.Equal(t, []repos.FileChangeStat{{Filename: "src/lib/c.go", Status: "modified", Additions: 2}}, c5.Files)

	// Binary files count no lines.
	bin, err := e.g.Apply(e.ctx, 1, repos.ChangeSet{Branch: "feature", Message: "binary\n", Author: sig, Committer: sig,
		Files: []repos.FileOp{{Op: "create", Path: "img.bin", Content: []byte{0x89, 'P', 'N', 'G', 0, 0, 1, '\n', 2}}}})
	require.NoError(t, err)
	assert.Equal(t, []repos.FileChangeStat{{Filename: "img.bin", Status: "added"}}, bin.Files)

	// Deleting every file leaves an empty tree.
	var all []repos.FileOp
	for _, p := range []string{"README.md", "docs/manual.md", "src/lib/b.go"} {
		all = append(all, repos.FileOp{Op: "delete", Path: p})
	}
	empty, err := e.g.Apply(e.ctx, 1, repos.ChangeSet{Branch: "main", NewBranch: "empty", Message: "empty\n", Author: sig,
		Committer: sig, Files: all})
	require.NoError(t, err)
	assert.Len(t, empty.Files, 3)
	tree, err := e.g.Tree(e.ctx, 1, "empty", "", true)
	require.NoError(t, err)
	assert.Empty(t, tree)
}

func testApplyErrors(t *testing.T, e *env) {
	h := e.history(1)
	apply := func(c repos.ChangeSet) error {
		c.Message, c.Author, c.Committer = "x\n", sig, sig
		if c.Files == nil {
			c.Files = []repos.FileOp{{Op: "create", Path: "x", Content: []byte("x\n")}}
		}
		_, err := e.g.Apply(e.ctx, 1, c)
		return err
	}
	assert.ErrorIs(t, apply(repos.ChangeSet{Branch: "nope"}), forge.ErrNotFound, "a missing branch")
	assert.ErrorIs(t, apply(repos.ChangeSet{Branch: "main", NewBranch: "main"}), forge.ErrConflict, "NewBranch exists")
	// Paths are written only as repos.CleanTreePath accepts them, unchanged:
	// one it would clean up is refused too, as Path and as FromPath.
	for _, p := range []string{"", "/", ".git/config", ".git", ".GIT/config", "a/.git/x", "a\nb", "a\x00b", "a/../README.md",
		"./x", "a//b", "a/", "/abs", "README.md\x00120000 " + h.c1.Tree + "\x00link"} {
		assert.ErrorIs(t, apply(repos.ChangeSet{Branch: "main", Files: []repos.FileOp{{Op: "create", Path: p, Content: []byte("x")}}}),
			forge.ErrInvalid, "path %q", p)
		if p != "" { // an empty FromPath is no move
			assert.ErrorIs(t, apply(repos.ChangeSet{Branch: "main", Files: []repos.FileOp{{Op: "update", Path: "moved", FromPath: p,
				Content: []byte("x")}}}), forge.ErrInvalid, "from path %q", p)
		}
	}
	assert.ErrorIs(t, apply(repos.ChangeSet{Branch: "main", Files: []repos.FileOp{{Op: "chmod", Path: "x"}}}), forge.ErrInvalid)
	tip, err := e.g.Resolve(e.ctx, 1, "main")
	require.NoError(t, err)
	assert.Equal(t, h.c3.ID, tip, "failed writes leave the branch alone")
	n, err := e.g.CountCommits(e.ctx, 1, "main", "")
	require.NoError(t, err)
	assert.Equal(t, 3, n)
}

// testApplyMovedBranch: a change checked against an older commit of its
// branch is committed on the branch's tip when every file's precondition
// (repos.CheckFileOp: FileOp.SHA, existence) still holds there, and is
// refused with CheckFileOp's error otherwise.
func testApplyMovedBranch(t *testing.T, e *env) {
	h := e.history(1)
	blobAt := func(rev, p string) string {
		t.Helper()
		en, err := e.g.Entry(e.ctx, 1, rev, p)
		require.NoError(t, err)
		return en.ID
	}
	staleReadme, readme, b := blobAt(h.c1.ID, "README.md"), blobAt("main", "README.md"), blobAt(h.c1.ID, "src/lib/b.go")
	apply := func(files ...repos.FileOp) (*repos.Commit, error) {
		return e.g.Apply(e.ctx, 1, repos.ChangeSet{Branch: "main", Parent: h.c1.ID, Message: "late\n", Author: sig,
			Committer: sig, Files: files})
	}

	_, err := apply(repos.FileOp{Op: "update", Path: "README.md", SHA: staleReadme, Content: []byte("x\n")})
	assert.ErrorIs(t, err, forge.ErrInvalid)
	assert.ErrorContains(t, err, "sha does not match [given: "+staleReadme+", expected: "+readme+"]")
	_, err = apply(repos.FileOp{Op: "delete", Path: "README.md", SHA: staleReadme})
	assert.ErrorContains(t, err, "sha does not match")
	_, err = apply(repos.FileOp{Op: "update", Path: "src/a.go", SHA: blobAt(h.c1.ID, "src/a.go"), Content: []byte("x\n")})
	assert.ErrorIs(t, err, forge.ErrNotFound, "src/a.go was deleted since")
	assert.ErrorContains(t, err, "repository file does not exist [path: src/a.go]")
	_, err = apply(repos.FileOp{Op: "create", Path: "docs/manual.md", Content: []byte("x\n")})
	assert.ErrorIs(t, err, forge.ErrInvalid, "docs/manual.md was created since")
	assert.ErrorContains(t, err, "repository file already exists [path: docs/manual.md]")
	_, err = apply(repos.FileOp{Op: "create", Path: "README.md/x", Content: []byte("x\n")},
		repos.FileOp{Op: "create", Path: "new.txt", Content: []byte("x\n")})
	assert.ErrorIs(t, err, forge.ErrInvalid)
	assert.ErrorContains(t, err, "a file exists where you’re trying to create a subdirectory [path: README.md]")
	tip, err := e.g.Resolve(e.ctx, 1, "main")
	require.NoError(t, err)
	assert.Equal(t, h.c3.ID, tip, "refused writes leave the branch alone")

	// Preconditions that hold on the tip: committed there.
	c, err := apply(repos.FileOp{Op: "update", Path: "README.md", SHA: readme, Content: []byte("late\n")},
		repos.FileOp{Op: "delete", Path: "src/lib/b.go", SHA: b},
		repos.FileOp{Op: "create", Path: "late.txt", Content: []byte("late\n")})
	require.NoError(t, err)
	assert.Equal(t, []string{h.c3.ID}, c.Parents, "committed on the moved branch's tip")
	tip, err = e.g.Resolve(e.ctx, 1, "main")
	require.NoError(t, err)
	assert.Equal(t, c.ID, tip)
	tree, err := e.g.Tree(e.ctx, 1, "main", "", true)
	require.NoError(t, err)
	var paths []string
	for _, en := range tree {
		if en.Type == "blob" {
			paths = append(paths, en.Path)
		}
	}
	assert.ElementsMatch(t, []string{"README.md", "docs/manual.md", "late.txt"}, paths, "c3's files are kept")

	// Without a moved branch the SHAs are the caller's business (the
	// service checked them against Parent).
	_, err = e.g.Apply(e.ctx, 1, repos.ChangeSet{Branch: "main", Parent: c.ID, Message: "m\n", Author: sig, Committer: sig,
		Files: []repos.FileOp{{Op: "update", Path: "late.txt", SHA: "whatever", Content: []byte("again\n")}}})
	require.NoError(t, err)
}

// testApplyConcurrent races writers on one branch, all checked against the
// same parent: writers of different files all succeed (writes to one
// repository are serialised and re-checked on the moved tip); of writers
// creating the same file exactly one wins, the others are refused as
// Forgejo refuses a create over an existing file. No commit is lost.
func testApplyConcurrent(t *testing.T, e *env) {
	h := e.history(1)
	const writers = 8
	race := func(path func(i int) string) []error {
		tip, err := e.g.Resolve(e.ctx, 1, "main")
		require.NoError(t, err)
		var wg sync.WaitGroup
		errs := make([]error, writers)
		for i := range writers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, errs[i] = e.g.Apply(e.ctx, 1, repos.ChangeSet{Branch: "main", Parent: tip, Message: "race\n",
					Author: sig, Committer: sig,
					Files: []repos.FileOp{{Op: "create", Path: path(i), Content: []byte(strings.Repeat("x", i+1))}}})
			}()
		}
		wg.Wait()
		return errs
	}

	for i, err := range race(func(i int) string { return "f" + strconv.Itoa(i) + ".txt" }) {
		assert.NoError(t, err, "writer %d of a different file", i)
	}
	n, err := e.g.CountCommits(e.ctx, 1, "main", "")
	require.NoError(t, err)
	assert.Equal(t, 3+writers, n)
	tree, err := e.g.Tree(e.ctx, 1, "main", "", false)
	require.NoError(t, err)
	assert.Len(t, tree, 3+writers, "README.md, docs, src and every writer's file")
	log, err := e.g.Log(e.ctx, 1, repos.LogOptions{Rev: "main", Limit: writers + 1})
	require.NoError(t, err)
	assert.Equal(t, h.c3.ID, log[writers].ID, "the writers' commits form a line on c3")

	won := 0
	for _, err := range race(func(int) string { return "race.txt" }) {
		if err == nil {
			won++
		} else {
			assert.ErrorIs(t, err, forge.ErrInvalid)
			assert.ErrorContains(t, err, "repository file already exists [path: race.txt]")
		}
	}
	assert.Equal(t, 1, won)
	n, err = e.g.CountCommits(e.ctx, 1, "main", "")
	require.NoError(t, err)
	assert.Equal(t, 4+writers, n)
}

// testLastCommits: for each name, the last commit touching dir/name at rev,
// found in one call; names never touched (or absent) are left out.
func testLastCommits(t *testing.T, e *env) {
	h := e.history(1)
	last := func(rev, dir string, names ...string) map[string]string {
		t.Helper()
		m, err := e.g.LastCommits(e.ctx, 1, rev, dir, names)
		require.NoError(t, err)
		return m
	}
	assert.Equal(t, map[string]string{"README.md": h.c2.ID, "src": h.c2.ID, "docs": h.c3.ID},
		last("main", "", "README.md", "src", "docs", "nope"))
	assert.Equal(t, map[string]string{"README.md": h.c1.ID, "src": h.c1.ID}, last(h.c1.ID, "", "README.md", "src", "docs"),
		"at c1; docs did not exist yet")
	assert.Equal(t, map[string]string{"lib": h.c1.ID}, last("main", "src", "lib"), "src changed in c2, src/lib did not")
	assert.Equal(t, map[string]string{"lib": h.c1.ID}, last("main", "/src/", "lib"), "dir's slashes are trimmed")
	assert.Equal(t, map[string]string{"b.go": h.c1.ID}, last("main", "src/lib", "b.go"))
	require.NoError(t, e.g.CreateTag(e.ctx, 1, "v1", h.c3.ID, "Release\n", sig))
	assert.Equal(t, map[string]string{"manual.md": h.c3.ID}, last("v1", "docs", "manual.md"), "rev may be an annotated tag")
	assert.Empty(t, last("main", "nope", "x"), "a missing directory")
	assert.Empty(t, last("main", ""), "no names")

	// A later commit elsewhere does not count; one on the name does.
	c4, err := e.g.Apply(e.ctx, 1, repos.ChangeSet{Branch: "main", Parent: h.c3.ID, Message: "b\n", Author: sig,
		Committer: later(3 * time.Hour), Files: []repos.FileOp{{Op: "update", Path: "src/lib/b.go", Content: []byte("package lib\n")}}})
	require.NoError(t, err)
	assert.Equal(t, map[string]string{"README.md": h.c2.ID, "src": c4.ID, "docs": h.c3.ID},
		last("main", "", "README.md", "src", "docs"))
	assert.Equal(t, map[string]string{"b.go": c4.ID}, last("main", "src/lib", "b.go"))

	_, err = e.g.LastCommits(e.ctx, 1, "nope", "", []string{"README.md"})
	assert.ErrorIs(t, err, forge.ErrNotFound, "a missing revision")
}

func ids(cs []*repos.Commit) []string {
	out := []string{}
	for _, c := range cs {
		out = append(out, c.ID)
	}
	return out
}

func testLog(t *testing.T, e *env) {
	h := e.history(1)
	all, err := e.g.Log(e.ctx, 1, repos.LogOptions{Rev: "main"})
	require.NoError(t, err)
	assert.Equal(t, []string{h.c3.ID, h.c2.ID, h.c1.ID}, ids(all), "newest first")
	for _, c := range all {
		assert.Nil(t, c.Files, "no files unless asked")
	}
	assert.Equal(t, h.c2.Tree, all[1].Tree)
	assert.Equal(t, h.c2.Message, all[1].Message)

	page, err := e.g.Log(e.ctx, 1, repos.LogOptions{Rev: "main", Skip: 1, Limit: 1})
	require.NoError(t, err)
	assert.Equal(t, []string{h.c2.ID}, ids(page))
	page, err = e.g.Log(e.ctx, 1, repos.LogOptions{Rev: "main", Skip: 2, Limit: 5})
	require.NoError(t, err)
	assert.Equal(t, []string{h.c1.ID}, ids(page))
	page, err = e.g.Log(e.ctx, 1, repos.LogOptions{Rev: "main", Skip: 3})
	require.NoError(t, err)
	assert.Empty(t, page)
	page, err = e.g.Log(e.ctx, 1, repos.LogOptions{Rev: h.c2.ID})
	require.NoError(t, err)
	assert.Equal(t, []string{h.c2.ID, h.c1.ID}, ids(page), "from a commit id")

	for _, tc := range []struct {
		path string
		want []string
	}{
		{"README.md", []string{h.c2.ID, h.c1.ID}},
		{"src", []string{h.c2.ID, h.c1.ID}},
		{"src/lib", []string{h.c1.ID}},
		{"docs", []string{h.c3.ID, h.c2.ID}},
		{"docs/manual.md", []string{h.c3.ID}},
		{"nothing/here", []string{}},
	} {
		got, err := e.g.Log(e.ctx, 1, repos.LogOptions{Rev: "main", Path: tc.path})
		require.NoError(t, err)
		assert.Equal(t, tc.want, ids(got), "path %s", tc.path)
	}

	withFiles, err := e.g.Log(e.ctx, 1, repos.LogOptions{Rev: "main", Files: true, Limit: 2})
	require.NoError(t, err)
	require.Len(t, withFiles, 2)
	assert.ElementsMatch(t, h.c3.Files, withFiles[0].Files)
	assert.ElementsMatch(t, h.c2.Files, withFiles[1].Files)

	_, err = e.g.Log(e.ctx, 1, repos.LogOptions{Rev: "nope"})
	assert.ErrorIs(t, err, forge.ErrNotFound)
}

func testCountCommits(t *testing.T, e *env) {
	h := e.history(1)
	for _, tc := range []struct {
		rev, path string
		want      int
	}{
		{"main", "", 3},
		{h.c2.ID, "", 2},
		{"main", "README.md", 2},
		{"main", "src/lib", 1},
		{"main", "docs", 2},
		{"main", "missing", 0},
	} {
		n, err := e.g.CountCommits(e.ctx, 1, tc.rev, tc.path)
		require.NoError(t, err)
		assert.Equal(t, tc.want, n, "%s %s", tc.rev, tc.path)
	}
	_, err := e.g.CountCommits(e.ctx, 1, "nope", "")
	assert.ErrorIs(t, err, forge.ErrNotFound)
}

type entryKey struct{ Path, Name, Mode, Type string }

func keys(es []repos.TreeEntry) []entryKey {
	out := []entryKey{}
	for _, e := range es {
		out = append(out, entryKey{e.Path, e.Name, e.Mode, e.Type})
	}
	return out
}

func testTree(t *testing.T, e *env) {
	e.history(1)
	root, err := e.g.Tree(e.ctx, 1, "main", "", false)
	require.NoError(t, err)
	assert.Equal(t, []entryKey{
		{"README.md", "README.md", "100644", "blob"},
		{"docs", "docs", "040000", "tree"},
		{"src", "src", "040000", "tree"},
	}, keys(root))
	assert.Equal(t, int64(len("hello\nthere\n")), root[0].Size)
	for _, en := range root {
		assert.Len(t, en.ID, e.format.HexLen())
	}

	all, err := e.g.Tree(e.ctx, 1, "main", "", true)
	require.NoError(t, err)
	assert.Equal(t, []entryKey{
		{"README.md", "README.md", "100644", "blob"},
		{"docs", "docs", "040000", "tree"},
		{"docs/manual.md", "manual.md", "100644", "blob"},
		{"src", "src", "040000", "tree"},
		{"src/lib", "lib", "040000", "tree"},
		{"src/lib/b.go", "b.go", "100644", "blob"},
	}, keys(all), "recursive: each tree before its entries")

	src, err := e.g.Tree(e.ctx, 1, "main", "src", true)
	require.NoError(t, err)
	assert.Equal(t, []entryKey{
		{"src/lib", "lib", "040000", "tree"},
		{"src/lib/b.go", "b.go", "100644", "blob"},
	}, keys(src), "paths are full paths")
	src2, err := e.g.Tree(e.ctx, 1, "main", "/src/", false)
	require.NoError(t, err)
	assert.Equal(t, keys(src[:1]), keys(src2), "slashes around the path are ignored")

	// By tree id.
	byID, err := e.g.Tree(e.ctx, 1, all[3].ID, "", false)
	require.NoError(t, err)
	assert.Equal(t, []entryKey{{"lib", "lib", "040000", "tree"}}, keys(byID))

	_, err = e.g.Tree(e.ctx, 1, "main", "nope", false)
	assert.ErrorIs(t, err, forge.ErrNotFound)
	_, err = e.g.Tree(e.ctx, 1, "main", "README.md", false)
	assert.ErrorIs(t, err, forge.ErrNotFound, "a file is not a tree")
	_, err = e.g.Tree(e.ctx, 1, "nope", "", false)
	assert.ErrorIs(t, err, forge.ErrNotFound)
}

func testEntry(t *testing.T, e *env) {
	h := e.history(1)
	root, err := e.g.Entry(e.ctx, 1, "main", "")
	require.NoError(t, err)
	assert.Equal(t, "040000", root.Mode)
	assert.Equal(t, "tree", root.Type)
	assert.Equal(t, h.c3.Tree, root.ID)

	f, err := e.g.Entry(e.ctx, 1, "main", "src/lib/b.go")
	require.NoError(t, err)
	assert.Equal(t, entryKey{"src/lib/b.go", "b.go", "100644", "blob"}, entryKey{f.Path, f.Name, f.Mode, f.Type})
	assert.Equal(t, int64(len("package lib\n\nfunc B() {}\n")), f.Size)

	top, err := e.g.Entry(e.ctx, 1, "main", "README.md")
	require.NoError(t, err)
	assert.Equal(t, "README.md", top.Path)

	d, err := e.g.Entry(e.ctx, 1, h.c1.ID, "src")
	require.NoError(t, err)
	assert.Equal(t, entryKey{"src", "src", "040000", "tree"}, entryKey{d.Path, d.Name, d.Mode, d.Type})

	old, err := e.g.Entry(e.ctx, 1, h.c1.ID, "README.md")
	require.NoError(t, err)
	assert.NotEqual(t, top.ID, old.ID)

	_, err = e.g.Entry(e.ctx, 1, "main", "src/a.go")
	assert.ErrorIs(t, err, forge.ErrNotFound, "deleted in c2")
	_, err = e.g.Entry(e.ctx, 1, "nope", "README.md")
	assert.ErrorIs(t, err, forge.ErrNotFound)
}

func testObjectAndBlob(t *testing.T, e *env) {
	h := e.history(1)
	f, err := e.g.Entry(e.ctx, 1, "main", "README.md")
	require.NoError(t, err)

	typ, size, err := e.g.Object(e.ctx, 1, f.ID)
	require.NoError(t, err)
	assert.Equal(t, "blob", typ)
	assert.Equal(t, int64(len("hello\nthere\n")), size)
	b, err := e.g.Blob(e.ctx, 1, f.ID)
	require.NoError(t, err)
	assert.Equal(t, "hello\nthere\n", string(b))

	typ, _, err = e.g.Object(e.ctx, 1, h.c3.ID)
	require.NoError(t, err)
	assert.Equal(t, "commit", typ)
	typ, _, err = e.g.Object(e.ctx, 1, h.c3.Tree)
	require.NoError(t, err)
	assert.Equal(t, "tree", typ)

	_, err = e.g.Blob(e.ctx, 1, h.c3.Tree)
	assert.ErrorIs(t, err, forge.ErrNotFound, "a tree is not a blob")
	zero := strings.Repeat("0", e.format.HexLen())
	for _, oid := range []string{zero, "not-hex", "", "../x"} {
		_, _, err = e.g.Object(e.ctx, 1, oid)
		assert.ErrorIs(t, err, forge.ErrNotFound, "Object(%q)", oid)
		_, err = e.g.Blob(e.ctx, 1, oid)
		assert.ErrorIs(t, err, forge.ErrNotFound, "Blob(%q)", oid)
	}
}

// testOpenBlob: OpenBlob streams a blob's content with its size, also one
// larger than a single read (and than gitstore's in-process limit), and
// refuses what is not a blob as Blob does.
func testOpenBlob(t *testing.T, e *env) {
	h := e.history(1)
	big := bytes.Repeat([]byte("0123456789abcdef\n"), 200_000) // 3.4 MB
	big[len(big)/2] = 0                                        // binary
	c, err := e.g.Apply(e.ctx, 1, repos.ChangeSet{Branch: "main", Parent: h.c3.ID, Message: "big\n", Author: sig, Committer: sig,
		Files: []repos.FileOp{{Op: "create", Path: "big.bin", Content: big}, {Op: "create", Path: "empty", Content: []byte{}}}})
	require.NoError(t, err)
	for _, f := range []struct {
		path    string
		content []byte
	}{{"README.md", []byte("hello\nthere\n")}, {"big.bin", big}, {"empty", []byte{}}} {
		en, err := e.g.Entry(e.ctx, 1, c.ID, f.path)
		require.NoError(t, err)
		rc, size, err := e.g.OpenBlob(e.ctx, 1, en.ID)
		require.NoError(t, err, f.path)
		got, err := io.ReadAll(rc)
		require.NoError(t, err)
		require.NoError(t, rc.Close())
		assert.Equal(t, int64(len(f.content)), size, f.path)
		assert.True(t, bytes.Equal(f.content, got), "%s: content of %d bytes, read %d", f.path, len(f.content), len(got))
	}
	// Closing before the end is allowed and leaves the store usable.
	en, err := e.g.Entry(e.ctx, 1, c.ID, "big.bin")
	require.NoError(t, err)
	rc, _, err := e.g.OpenBlob(e.ctx, 1, en.ID)
	require.NoError(t, err)
	head := make([]byte, 16)
	_, err = io.ReadFull(rc, head)
	require.NoError(t, err)
	assert.Equal(t, "0123456789abcdef", string(head))
	require.NoError(t, rc.Close())
	b, err := e.g.Blob(e.ctx, 1, en.ID)
	require.NoError(t, err)
	assert.Len(t, b, len(big))

	zero := strings.Repeat("0", e.format.HexLen())
	for _, oid := range []string{h.c3.Tree, h.c3.ID, zero, "not-hex", "", "../x"} {
		_, _, err := e.g.OpenBlob(e.ctx, 1, oid)
		assert.ErrorIs(t, err, forge.ErrNotFound, "OpenBlob(%q)", oid)
	}
}

func testRefsAndResolve(t *testing.T, e *env) {
	h := e.history(1)
	require.NoError(t, e.g.SetRef(e.ctx, 1, "refs/heads/old", h.c1.ID, ""))
	require.NoError(t, e.g.CreateTag(e.ctx, 1, "v1", h.c2.ID, "", sig))
	require.NoError(t, e.g.CreateTag(e.ctx, 1, "v2", "main", "release 2\n", sig))

	refs, err := e.g.Refs(e.ctx, 1)
	require.NoError(t, err)
	require.Len(t, refs, 4)
	names := []string{}
	for _, r := range refs {
		names = append(names, r.Name)
	}
	assert.Equal(t, []string{"refs/heads/main", "refs/heads/old", "refs/tags/v1", "refs/tags/v2"}, names, "ordered by name")
	assert.Equal(t, repos.Ref{Name: "refs/heads/main", Target: h.c3.ID, Type: "commit", Commit: h.c3.ID}, refs[0])
	assert.Equal(t, repos.Ref{Name: "refs/heads/old", Target: h.c1.ID, Type: "commit", Commit: h.c1.ID}, refs[1])
	assert.Equal(t, repos.Ref{Name: "refs/tags/v1", Target: h.c2.ID, Type: "commit", Commit: h.c2.ID}, refs[2])
	assert.Equal(t, "tag", refs[3].Type)
	assert.Equal(t, h.c3.ID, refs[3].Commit)
	assert.NotEqual(t, h.c3.ID, refs[3].Target, "an annotated tag points at a tag object")

	for _, tc := range []struct{ rev, want string }{
		{"main", h.c3.ID},
		{"HEAD", h.c3.ID},
		{"main~1", h.c2.ID},
		{"refs/heads/main", h.c3.ID},
		{"old", h.c1.ID},
		{"v1", h.c2.ID},
		{"refs/tags/v1", h.c2.ID},
		{"v2", h.c3.ID},
		{refs[3].Target, h.c3.ID},
		{h.c2.ID, h.c2.ID},
		{h.c2.ID[:10], h.c2.ID},
	} {
		got, err := e.g.Resolve(e.ctx, 1, tc.rev)
		require.NoError(t, err, tc.rev)
		assert.Equal(t, tc.want, got, tc.rev)
	}
	for _, rev := range []string{"", "nope", "refs/heads/nope", "-main", strings.Repeat("0", e.format.HexLen()), h.c3.Tree} {
		_, err := e.g.Resolve(e.ctx, 1, rev)
		assert.ErrorIs(t, err, forge.ErrNotFound, "Resolve(%q)", rev)
	}
}

func testSetRef(t *testing.T, e *env) {
	h := e.history(1)
	const ref = "refs/heads/topic"
	at := func() string {
		t.Helper()
		id, err := e.g.Resolve(e.ctx, 1, ref)
		if errors.Is(err, forge.ErrNotFound) {
			return ""
		}
		require.NoError(t, err)
		return id
	}
	require.NoError(t, e.g.SetRef(e.ctx, 1, ref, h.c1.ID, ""), "create when absent")
	assert.Equal(t, h.c1.ID, at())
	assert.ErrorIs(t, e.g.SetRef(e.ctx, 1, ref, h.c2.ID, ""), forge.ErrConflict, "\"\" demands absence")
	assert.ErrorIs(t, e.g.SetRef(e.ctx, 1, ref, h.c2.ID, h.c3.ID), forge.ErrConflict, "wrong old value")
	assert.Equal(t, h.c1.ID, at())
	require.NoError(t, e.g.SetRef(e.ctx, 1, ref, h.c2.ID, h.c1.ID), "compare and swap")
	assert.Equal(t, h.c2.ID, at())
	require.NoError(t, e.g.SetRef(e.ctx, 1, ref, h.c3.ID, "*"), "any value")
	assert.Equal(t, h.c3.ID, at())
	assert.ErrorIs(t, e.g.SetRef(e.ctx, 1, ref, "", h.c1.ID), forge.ErrConflict, "delete with the wrong old value")
	assert.Equal(t, h.c3.ID, at())
	require.NoError(t, e.g.SetRef(e.ctx, 1, ref, "", h.c3.ID), "delete")
	assert.Equal(t, "", at())
	require.NoError(t, e.g.SetRef(e.ctx, 1, ref, h.c1.ID, "*"), "\"*\" also creates")
	require.NoError(t, e.g.SetRef(e.ctx, 1, ref, "", "*"), "delete whatever it is")
	assert.Equal(t, "", at())

	for _, bad := range []string{"main", "refs/heads/a..b", "refs/heads/a b", "refs/heads/x.lock", "refs/heads/", "refs/heads/a~1", "refs/heads/a:b"} {
		assert.ErrorIs(t, e.g.SetRef(e.ctx, 1, bad, h.c1.ID, "*"), forge.ErrInvalid, "SetRef(%q)", bad)
	}
}

func testTags(t *testing.T, e *env) {
	h := e.history(1)
	require.NoError(t, e.g.CreateTag(e.ctx, 1, "light", h.c1.ID, "", sig))
	tagger := later(5 * time.Minute)
	require.NoError(t, e.g.CreateTag(e.ctx, 1, "v1.0", "main", "Release 1.0\n\nNotes.\n", tagger))
	assert.ErrorIs(t, e.g.CreateTag(e.ctx, 1, "v1.0", "main", "again", sig), forge.ErrConflict)
	assert.ErrorIs(t, e.g.CreateTag(e.ctx, 1, "light", "main", "", sig), forge.ErrConflict)
	assert.ErrorIs(t, e.g.CreateTag(e.ctx, 1, "x", "nope", "", sig), forge.ErrNotFound, "missing target")
	assert.ErrorIs(t, e.g.CreateTag(e.ctx, 1, "bad..name", "main", "msg", sig), forge.ErrInvalid)
	assert.ErrorIs(t, e.g.CreateTag(e.ctx, 1, "bad name", "main", "", sig), forge.ErrInvalid)

	refs, err := e.g.Refs(e.ctx, 1)
	require.NoError(t, err)
	byName := map[string]repos.Ref{}
	for _, r := range refs {
		byName[r.Name] = r
	}
	light, annotated := byName["refs/tags/light"], byName["refs/tags/v1.0"]
	assert.Equal(t, "commit", light.Type)
	assert.Equal(t, h.c1.ID, light.Target)
	_, err = e.g.Tag(e.ctx, 1, light.Target)
	assert.ErrorIs(t, err, forge.ErrNotFound, "a commit is not a tag object")

	require.Equal(t, "tag", annotated.Type)
	typ, _, err := e.g.Object(e.ctx, 1, annotated.Target)
	require.NoError(t, err)
	assert.Equal(t, "tag", typ)
	tag, err := e.g.Tag(e.ctx, 1, annotated.Target)
	require.NoError(t, err)
	assert.Equal(t, annotated.Target, tag.ID)
	assert.Equal(t, "v1.0", tag.Name)
	assert.Equal(t, h.c3.ID, tag.Object)
	assert.Equal(t, "commit", tag.ObjectType)
	assert.Equal(t, tagger.Name, tag.Tagger.Name)
	assert.Equal(t, tagger.Email, tag.Tagger.Email)
	assert.True(t, tagger.When.Equal(tag.Tagger.When), "tagger time %v", tag.Tagger.When)
	assert.Equal(t, "Release 1.0\n\nNotes.\n", tag.Message, "the tag object's message")

	_, err = e.g.Tag(e.ctx, 1, strings.Repeat("0", e.format.HexLen()))
	assert.ErrorIs(t, err, forge.ErrNotFound)
}

func testForkRemoveSize(t *testing.T, e *env) {
	h := e.history(1)
	require.NoError(t, e.g.CreateTag(e.ctx, 1, "v1", h.c2.ID, "one\n", sig))
	size, err := e.g.Size(e.ctx, 1)
	require.NoError(t, err)
	assert.Positive(t, size)

	require.NoError(t, e.g.Fork(e.ctx, 1, 2))
	assert.ErrorIs(t, e.g.Fork(e.ctx, 1, 2), forge.ErrConflict, "the fork exists")
	from, err := e.g.Refs(e.ctx, 1)
	require.NoError(t, err)
	to, err := e.g.Refs(e.ctx, 2)
	require.NoError(t, err)
	assert.Equal(t, from, to, "every branch and tag, to the same objects")

	// The fork is independent of its origin.
	c, err := e.g.Apply(e.ctx, 2, repos.ChangeSet{Branch: "main", Parent: h.c3.ID, Message: "fork\n", Author: sig, Committer: sig,
		Files: []repos.FileOp{{Op: "create", Path: "fork.txt", Content: []byte("fork\n")}}})
	require.NoError(t, err)
	tip, err := e.g.Resolve(e.ctx, 1, "main")
	require.NoError(t, err)
	assert.Equal(t, h.c3.ID, tip)
	_, _, err = e.g.Object(e.ctx, 1, c.ID)
	assert.ErrorIs(t, err, forge.ErrNotFound, "the fork's commit is not in the origin")

	require.NoError(t, e.g.Remove(e.ctx, 1))
	_, err = e.g.Resolve(e.ctx, 1, "main")
	assert.ErrorIs(t, err, forge.ErrNotFound, "removed")
	_, err = e.g.Size(e.ctx, 1)
	assert.ErrorIs(t, err, forge.ErrNotFound, "removed")
	n, err := e.g.CountCommits(e.ctx, 2, "main", "")
	require.NoError(t, err)
	assert.Equal(t, 4, n, "the fork outlives its origin")
	e.create(1) // the id can be used again
}

// diffLines returns the "+" and "-" lines of a unified diff, without the
// ---/+++ file headers, sorted.
func diffLines(text string) []string {
	out := []string{}
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, "+++ ") || strings.HasPrefix(l, "--- ") {
			continue
		}
		if strings.HasPrefix(l, "+") || strings.HasPrefix(l, "-") {
			out = append(out, l)
		}
	}
	sort.Strings(out)
	return out
}

func testPatch(t *testing.T, e *env) {
	h := e.history(1)
	patch := func(rev, kind string) string {
		t.Helper()
		var b bytes.Buffer
		require.NoError(t, e.g.Patch(e.ctx, 1, rev, kind, &b))
		return b.String()
	}
	wantLines := []string{"+# Guide", "+there", "-package a", "-world"}
	for _, kind := range []string{"diff", "patch"} {
		text := patch(h.c2.ID, kind)
		for _, want := range []string{
			"diff --git a/README.md b/README.md\n",
			"--- a/README.md\n", "+++ b/README.md\n",
			"diff --git a/src/a.go b/src/a.go\n", "deleted file mode 100644\n", "--- a/src/a.go\n", "+++ /dev/null\n",
			"diff --git a/docs/guide.md b/docs/guide.md\n", "new file mode 100644\n", "--- /dev/null\n", "+++ b/docs/guide.md\n",
		} {
			assert.Contains(t, text, want, kind)
		}
		_, body, _ := strings.Cut(text, "diff --git")
		body, _, _ = strings.Cut(body, "\n-- \n") // format-patch's signature
		assert.Equal(t, wantLines, diffLines(body), kind)
		assert.NotContains(t, text, "lib/b.go", "unchanged files are not in the %s", kind)
	}

	mail := patch("main~1", "patch")
	if !strings.HasPrefix(mail, "From "+h.c2.ID+" ") {
		t.Errorf("a patch starts with the commit id: %q", firstLine(mail))
	}
	assert.Contains(t, mail, "\nFrom: Ann <ann@example.com>\n")
	assert.Contains(t, mail, "\nSubject: [PATCH] second\n")
	assert.Contains(t, mail, "body line")

	root := patch(h.c1.ID, "diff")
	assert.Contains(t, root, "diff --git a/src/lib/b.go b/src/lib/b.go\n", "the first commit against the empty tree")
	_, body, _ := strings.Cut(root, "diff --git")
	assert.Equal(t, []string{"+", "+func B() {}", "+hello", "+package a", "+package lib", "+world"}, diffLines(body))
	assert.False(t, strings.HasPrefix(root, "From "), "a diff has no mail header")

	assert.ErrorIs(t, e.g.Patch(e.ctx, 1, "nope", "diff", io.Discard), forge.ErrNotFound)
	err := e.g.Patch(e.ctx, 1, "main", "bogus", io.Discard)
	assert.True(t, errors.Is(err, forge.ErrNotFound) || errors.Is(err, forge.ErrInvalid), "unknown kind: %v", err)
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}

func testArchive(t *testing.T, e *env) {
	h := e.history(1)
	want := map[string]string{
		"repo/README.md":      "hello\nthere\n",
		"repo/docs/manual.md": "# Manual\n",
		"repo/src/lib/b.go":   "package lib\n\nfunc B() {}\n",
	}
	var zb bytes.Buffer
	require.NoError(t, e.g.Archive(e.ctx, 1, "main", "zip", "repo", &zb))
	zr, err := zip.NewReader(bytes.NewReader(zb.Bytes()), int64(zb.Len()))
	require.NoError(t, err)
	got := map[string]string{}
	for _, f := range zr.File {
		if f.FileInfo().IsDir() {
			continue
		}
		rc, err := f.Open()
		require.NoError(t, err)
		b, err := io.ReadAll(rc)
		require.NoError(t, err)
		rc.Close()
		got[f.Name] = string(b)
	}
	assert.Equal(t, want, got, "zip")

	var tb bytes.Buffer
	require.NoError(t, e.g.Archive(e.ctx, 1, h.c3.ID, "tar.gz", "repo", &tb))
	gz, err := gzip.NewReader(&tb)
	require.NoError(t, err)
	tr := tar.NewReader(gz)
	got = map[string]string{}
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			break
		}
		require.NoError(t, err)
		if hdr.Typeflag != tar.TypeReg {
			continue
		}
		b, err := io.ReadAll(tr)
		require.NoError(t, err)
		got[hdr.Name] = string(b)
	}
	assert.Equal(t, want, got, "tar.gz")

	var old bytes.Buffer
	require.NoError(t, e.g.Archive(e.ctx, 1, h.c1.ID, "zip", "repo", &old))
	zr, err = zip.NewReader(bytes.NewReader(old.Bytes()), int64(old.Len()))
	require.NoError(t, err)
	names := []string{}
	for _, f := range zr.File {
		if !f.FileInfo().IsDir() {
			names = append(names, f.Name)
		}
	}
	sort.Strings(names)
	assert.Equal(t, []string{"repo/README.md", "repo/src/a.go", "repo/src/lib/b.go"}, names, "the archive of an older commit")

	assert.ErrorIs(t, e.g.Archive(e.ctx, 1, "main", "rar", "repo", io.Discard), forge.ErrInvalid)
	assert.ErrorIs(t, e.g.Archive(e.ctx, 1, "nope", "zip", "repo", io.Discard), forge.ErrNotFound)
}

// testTagMessages: a tag's message gets git's default cleanup (Forgejo makes
// tags with git tag -a -m), and a Git that reads messages in one pass
// (repos.MessageReader) gives a tag's message and a commit's.
func testTagMessages(t *testing.T, e *env) {
	h := e.history(1)
	require.NoError(t, e.g.CreateTag(e.ctx, 1, "clean", "main", "\n  title  \n# comment\n\n\n\nbody", sig))
	require.NoError(t, e.g.CreateTag(e.ctx, 1, "comment", "main", "# nothing else", sig))
	require.NoError(t, e.g.CreateTag(e.ctx, 1, "light", h.c1.ID, "", sig))
	refs, err := e.g.Refs(e.ctx, 1)
	require.NoError(t, err)
	byName := map[string]repos.Ref{}
	for _, r := range refs {
		byName[r.Name] = r
	}
	clean, comment := byName["refs/tags/clean"], byName["refs/tags/comment"]
	require.Equal(t, "tag", clean.Type)
	require.Equal(t, "tag", comment.Type, "a message that cleans to nothing still makes an annotated tag, as git tag -a -m")
	tag, err := e.g.Tag(e.ctx, 1, clean.Target)
	require.NoError(t, err)
	assert.Equal(t, "  title\n\nbody\n", tag.Message)
	tag, err = e.g.Tag(e.ctx, 1, comment.Target)
	require.NoError(t, err)
	assert.Empty(t, tag.Message)

	mr, ok := e.g.(repos.MessageReader)
	if !ok {
		return
	}
	log, err := e.g.Log(e.ctx, 1, repos.LogOptions{Rev: h.c1.ID, Limit: 1})
	require.NoError(t, err)
	require.Len(t, log, 1)
	missing := strings.Repeat("0", e.format.HexLen())
	msgs, err := mr.Messages(e.ctx, 1, []string{clean.Target, comment.Target, h.c1.ID, missing})
	require.NoError(t, err)
	assert.Equal(t, map[string]string{clean.Target: "  title\n\nbody\n", comment.Target: "", h.c1.ID: log[0].Message}, msgs)
	_, err = mr.Messages(e.ctx, 99, []string{h.c1.ID})
	assert.ErrorIs(t, err, forge.ErrNotFound, "a missing repository")
}
