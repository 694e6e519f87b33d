// Package gittest is the conformance suite of repos.Git: every backend
// (storage/gitstore on disk, storage/memgit in memory) runs Run and must
// pass it.
//
// What the suite demands where backends may differ in bytes:
//
//   - Patch "diff": one "diff --git a/<p> b/<p>" header per changed file,
//     "new file mode"/"deleted file mode" for added and removed files,
//     "--- a/<p>"/"+++ b/<p>" (or /dev/null) lines, and exactly the
//     commit's added ("+") and removed ("-") lines. Hunk headers, index
//     lines and context are not compared.
//   - Patch "patch": the same diff, preceded by a mail header whose first
//     line starts with "From <commit id> ", holding "From: <name> <email>"
//     and "Subject: [PATCH] <subject>"; a signature after a final "-- "
//     line is ignored.
//   - Archive: a readable zip or tar.gz whose regular files are exactly the
//     tree's files under "<prefix>/" with their contents (directory entries
//     and extra headers may differ).
//   - Annotated tag messages compare after trimming surrounding white
//     space (git cleans messages up).
//   - Resolve accepts branch and tag names (short or full), full and
//     abbreviated ids, HEAD (the default branch given to Create) and the
//     "~N" suffix.
//   - Log with a path lists the commits that change that path, and
//     LastCommits the last commit changing each name, for the linear
//     histories Apply makes (merges are not exercised: git's history
//     simplification is not demanded).
//
// Everything else is compared exactly: ids, trees, line counts, ref
// values, blob contents and sizes (Blob and OpenBlob), errors
// (forge.ErrNotFound for every method on a missing repository, revision or
// path; forge.ErrConflict for a failed SetRef compare-and-swap, an
// existing tag or NewBranch; forge.ErrInvalid for bad names, formats and
// paths, a path being refused unless repos.CleanTreePath returns it
// unchanged). Apply on a branch that moved since ChangeSet.Parent commits
// on the new tip when repos.CheckFileOp accepts every file there, and
// fails with CheckFileOp's error and message otherwise (forge.ErrInvalid
// "sha does not match", "repository file already exists", forge.ErrNotFound
// "repository file does not exist"), so concurrent writers of different
// files of one branch all succeed.
//
// A backend that supports only SHA-1 returns forge.ErrInvalid from Create
// for SHA-256; the suite then skips the SHA-256 half with that reason.
package gittest

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
)

// sig is the author and committer of the suite's commits.
var sig = repos.Signature{Name: "Ann", Email: "ann@example.com", When: time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)}

// Run runs the suite. open returns a new, empty backend for each subtest.
func Run(t *testing.T, open func(t *testing.T) repos.Git) {
	for _, format := range []forge.ObjectFormat{forge.SHA1, forge.SHA256} {
		t.Run(string(format), func(t *testing.T) {
			t.Parallel()
			probe := open(t)
			if err := probe.Create(context.Background(), 1, format, "main"); err != nil {
				if errors.Is(err, forge.ErrInvalid) {
					t.Skipf("backend does not support %s repositories: %v", format, err)
				}
				t.Fatalf("Create(%s): %v", format, err)
			}
			for _, c := range cases {
				t.Run(c.name, func(t *testing.T) {
					t.Parallel()
					c.run(t, &env{t: t, g: open(t), format: format, ctx: context.Background()})
				})
			}
		})
	}
}

type env struct {
	t      *testing.T
	g      repos.Git
	format forge.ObjectFormat
	ctx    context.Context
}

// history is the repository fixture: three commits on main.
//
//	c1: create README.md, src/a.go, src/lib/b.go
//	c2: update README.md, delete src/a.go, create docs/guide.md
//	c3: rename docs/guide.md to docs/manual.md (update with FromPath)
type history struct {
	repo       forge.ID
	c1, c2, c3 *repos.Commit
}

func (e *env) create(repo forge.ID) {
	e.t.Helper()
	require.NoError(e.t, e.g.Create(e.ctx, repo, e.format, "main"))
}

func (e *env) history(repo forge.ID) *history {
	e.t.Helper()
	e.create(repo)
	h := &history{repo: repo}
	var err error
	h.c1, err = e.g.Apply(e.ctx, repo, repos.ChangeSet{NewBranch: "main", Message: "first\n", Author: sig, Committer: sig,
		Files: []repos.FileOp{
			{Op: "create", Path: "README.md", Content: []byte("hello\nworld\n")},
			{Op: "create", Path: "src/a.go", Content: []byte("package a\n")},
			{Op: "create", Path: "src/lib/b.go", Content: []byte("package lib\n\nfunc B() {}\n")},
		}})
	require.NoError(e.t, err)
	h.c2, err = e.g.Apply(e.ctx, repo, repos.ChangeSet{Branch: "main", Parent: h.c1.ID, Message: "second\n\nbody line\n",
		Author: sig, Committer: later(time.Hour),
		Files: []repos.FileOp{
			{Op: "update", Path: "README.md", Content: []byte("hello\nthere\n")},
			{Op: "delete", Path: "src/a.go"},
			{Op: "create", Path: "docs/guide.md", Content: []byte("# Guide\n")},
		}})
	require.NoError(e.t, err)
	h.c3, err = e.g.Apply(e.ctx, repo, repos.ChangeSet{Branch: "main", Parent: h.c2.ID, Message: "third\n",
		Author: sig, Committer: later(2 * time.Hour),
		Files: []repos.FileOp{{Op: "update", FromPath: "docs/guide.md", Path: "docs/manual.md", Content: []byte("# Manual\n")}}})
	require.NoError(e.t, err)
	return h
}

// later is sig, d later.
func later(d time.Duration) repos.Signature {
	s := sig
	s.When = s.When.Add(d)
	return s
}

type testCase struct {
	name string
	run  func(t *testing.T, e *env)
}

var cases = []testCase{
	{"Create", testCreate},
	{"MissingRepository", testMissingRepository},
	{"Apply", testApply},
	{"ApplyErrors", testApplyErrors},
	{"ApplyMovedBranch", testApplyMovedBranch},
	{"ApplyConcurrent", testApplyConcurrent},
	{"LastCommits", testLastCommits},
	{"OpenBlob", testOpenBlob},
	{"Log", testLog},
	{"CountCommits", testCountCommits},
	{"Tree", testTree},
	{"WalkTree", testWalkTree},
	{"Entry", testEntry},
	{"ObjectAndBlob", testObjectAndBlob},
	{"RefsAndResolve", testRefsAndResolve},
	{"SetRef", testSetRef},
	{"Tags", testTags},
	{"TagMessages", testTagMessages},
	{"ForkRemoveSize", testForkRemoveSize},
	{"Patch", testPatch},
	{"Archive", testArchive},
}
