package gitstore_test

import (
	"bytes"
	"context"
	"errors"
	"os/exec"
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
	"github.com/hearthforge/hearth/issues"
	"github.com/hearthforge/hearth/storage/gitstore"
)

// git runs the git command line in dir and returns its trimmed output:
// the tests read what the Store wrote with git itself.
func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	c := exec.Command("git", append([]string{"-C", dir}, args...)...)
	c.Env = append(c.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
	var stderr bytes.Buffer
	c.Stderr = &stderr
	out, err := c.Output()
	require.NoError(t, err, "git %v: %s", args, stderr.String())
	return strings.TrimRight(string(out), "\n")
}

// pullFixture is a repository with a base branch and a head branch that
// diverged:
//
//	c0 ── m1            main: b.txt changed
//	  └── f1 ── f2      feature: a.txt's first line changed, then c.txt added
type pullFixture struct {
	s              *gitstore.Store
	dir            string
	c0, m1, f1, f2 *repos.Commit
}

var (
	author    = repos.Signature{Name: "Pat Poster", Email: "pat@example.com", When: time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)}
	committer = repos.Signature{Name: "Mia Merger", Email: "mia@example.com", When: time.Date(2025, 2, 3, 4, 5, 6, 0, time.UTC)}
	featSig   = repos.Signature{Name: "Fay Feature", Email: "fay@example.com", When: time.Date(2024, 12, 1, 0, 0, 0, 0, time.UTC)}
)

func apply(t testing.TB, s *gitstore.Store, repo forge.ID, c repos.ChangeSet) *repos.Commit {
	t.Helper()
	if c.Author == (repos.Signature{}) {
		c.Author, c.Committer = sig, sig
	}
	got, err := s.Apply(context.Background(), repo, c)
	require.NoError(t, err)
	return got
}

func file(op, path, content string) repos.FileOp {
	return repos.FileOp{Op: op, Path: path, Content: []byte(content)}
}

func newPullFixture(t testing.TB, format forge.ObjectFormat) *pullFixture {
	t.Helper()
	s, err := gitstore.Open(t.TempDir())
	require.NoError(t, err)
	t.Cleanup(func() { s.Close() })
	require.NoError(t, s.Create(context.Background(), 1, format, "main"))
	f := &pullFixture{s: s, dir: s.Path(1)}
	f.c0 = apply(t, s, 1, repos.ChangeSet{NewBranch: "main", Message: "init\n",
		Files: []repos.FileOp{file("create", "a.txt", "1\n2\n3\n"), file("create", "b.txt", "b\n")}})
	f.f1 = apply(t, s, 1, repos.ChangeSet{Branch: "main", NewBranch: "feature", Message: "feature one\n\nbody\n",
		Author: featSig, Committer: featSig, Files: []repos.FileOp{file("update", "a.txt", "one\n2\n3\n")}})
	f.f2 = apply(t, s, 1, repos.ChangeSet{Branch: "feature", Message: "feature two\n", Author: featSig,
		Committer: featSig, Files: []repos.FileOp{file("create", "c.txt", "c\n")}})
	f.m1 = apply(t, s, 1, repos.ChangeSet{Branch: "main", Message: "main one\n",
		Files: []repos.FileOp{file("update", "b.txt", "bee\n")}})
	return f
}

func (f *pullFixture) merge(style issues.MergeStyle) issues.MergeCommand {
	return issues.MergeCommand{Style: style, Branch: "main", Base: f.m1.ID, Head: f.f2.ID,
		Message: "Merge pull request 'feature'\n\nbody of the merge\n", Author: author, Committer: committer}
}

// commitInfo is one commit as git log prints it.
type commitInfo struct {
	parents                      []string
	tree, author, committer, msg string
}

func readCommit(t *testing.T, dir, id string) commitInfo {
	t.Helper()
	out := git(t, dir, "log", "-1", "--format=%P%x00%T%x00%an <%ae> %aI%x00%cn <%ce> %cI%x00%B", id)
	f := strings.SplitN(out, "\x00", 5)
	require.Len(t, f, 5)
	return commitInfo{parents: strings.Fields(f[0]), tree: f[1], author: f[2], committer: f[3], msg: f[4]}
}

func ident(s repos.Signature) string {
	return s.Name + " <" + s.Email + "> " + s.When.UTC().Format("2006-01-02T15:04:05-07:00")
}

// refs lists every ref of the repository with its value.
func refs(t *testing.T, dir string) string {
	return git(t, dir, "for-each-ref", "--format=%(refname) %(objectname)")
}

// mergedTree is the tree the three-way merge of the fixture has: git's own
// merge-tree of the two tips.
func (f *pullFixture) mergedTree(t *testing.T) string {
	return strings.Fields(git(t, f.dir, "merge-tree", "--write-tree", f.m1.ID, f.f2.ID))[0]
}

var formats = []forge.ObjectFormat{forge.SHA1, forge.SHA256}

// TestMergeStyles makes each merge style on a SHA-1 and a SHA-256
// repository and reads the resulting graph back with git.
func TestMergeStyles(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, format := range formats {
		t.Run(string(format), func(t *testing.T) {
			t.Parallel()
			// checkRebased checks that tip holds f1 and f2 replayed on m1:
			// their authors and messages, the merger as committer.
			checkRebased := func(t *testing.T, f *pullFixture, tip string) {
				t2 := readCommit(t, f.dir, tip)
				require.Len(t, t2.parents, 1)
				t1 := readCommit(t, f.dir, t2.parents[0])
				assert.Equal(t, []string{f.m1.ID}, t1.parents)
				assert.Equal(t, "feature one\n\nbody", t1.msg)
				assert.Equal(t, "feature two", t2.msg)
				for _, c := range []commitInfo{t1, t2} {
					assert.Equal(t, ident(featSig), c.author)
					assert.Equal(t, ident(committer), c.committer)
				}
				assert.Equal(t, f.mergedTree(t), t2.tree)
				assert.Equal(t, "one\n2\n3\n", git(t, f.dir, "show", tip+":a.txt")+"\n")
			}
			tests := []struct {
				style issues.MergeStyle
				check func(t *testing.T, f *pullFixture, tip string)
			}{
				{issues.MergeStyleMerge, func(t *testing.T, f *pullFixture, tip string) {
					c := readCommit(t, f.dir, tip)
					assert.Equal(t, []string{f.m1.ID, f.f2.ID}, c.parents)
					assert.Equal(t, f.mergedTree(t), c.tree)
					assert.Equal(t, ident(author), c.author)
					assert.Equal(t, ident(committer), c.committer)
					assert.Equal(t, "Merge pull request 'feature'\n\nbody of the merge", c.msg)
				}},
				{issues.MergeStyleSquash, func(t *testing.T, f *pullFixture, tip string) {
					c := readCommit(t, f.dir, tip)
					assert.Equal(t, []string{f.m1.ID}, c.parents)
					assert.Equal(t, f.mergedTree(t), c.tree)
					assert.Equal(t, ident(author), c.author)
					assert.Equal(t, ident(committer), c.committer)
					assert.Equal(t, "Merge pull request 'feature'\n\nbody of the merge", c.msg)
				}},
				{issues.MergeStyleRebase, checkRebased},
				{issues.MergeStyleRebaseMerge, func(t *testing.T, f *pullFixture, tip string) {
					c := readCommit(t, f.dir, tip)
					require.Len(t, c.parents, 2)
					assert.Equal(t, f.m1.ID, c.parents[0])
					checkRebased(t, f, c.parents[1])
					assert.Equal(t, f.mergedTree(t), c.tree)
					assert.Equal(t, ident(author), c.author)
					assert.Equal(t, ident(committer), c.committer)
					assert.Equal(t, "Merge pull request 'feature'\n\nbody of the merge", c.msg)
				}},
			}
			for _, tt := range tests {
				t.Run(string(tt.style), func(t *testing.T) {
					t.Parallel()
					f := newPullFixture(t, format)
					tip, err := f.s.Merge(ctx, 1, f.merge(tt.style))
					require.NoError(t, err)
					assert.Len(t, tip, format.HexLen())
					assert.Equal(t, tip, git(t, f.dir, "rev-parse", "refs/heads/main"), "main moved to the result")
					assert.Equal(t, f.f2.ID, git(t, f.dir, "rev-parse", "refs/heads/feature"), "the head branch stays")
					tt.check(t, f, tip)
					git(t, f.dir, "fsck", "--strict", "--no-dangling")
					// The Store reads its own result: Log and Resolve see it.
					id, err := f.s.Resolve(ctx, 1, "main")
					require.NoError(t, err)
					assert.Equal(t, tip, id)
					assert.Empty(t, quarantines(t, f.s), "no quarantine is left")
				})
			}
			t.Run("fast-forward-only", func(t *testing.T) {
				t.Parallel()
				f := newPullFixture(t, format)
				before := refs(t, f.dir)
				_, err := f.s.Merge(ctx, 1, f.merge(issues.MergeStyleFastForwardOnly))
				assert.ErrorIs(t, err, forge.ErrInvalid, "diverged branches cannot fast-forward")
				assert.Equal(t, before, refs(t, f.dir))
				// A head on top of main fast-forwards: main is the head.
				f3 := apply(t, f.s, 1, repos.ChangeSet{Branch: "main", NewBranch: "ff", Message: "ff\n",
					Files: []repos.FileOp{file("create", "d.txt", "d\n")}})
				m := f.merge(issues.MergeStyleFastForwardOnly)
				m.Head = f3.ID
				tip, err := f.s.Merge(ctx, 1, m)
				require.NoError(t, err)
				assert.Equal(t, f3.ID, tip)
				assert.Equal(t, f3.ID, git(t, f.dir, "rev-parse", "refs/heads/main"))
			})
			t.Run("manually-merged", func(t *testing.T) {
				t.Parallel()
				f := newPullFixture(t, format)
				before := refs(t, f.dir)
				tip, err := f.s.Merge(ctx, 1, f.merge(issues.MergeStyleManuallyMerged))
				require.NoError(t, err)
				assert.Equal(t, f.f2.ID, tip)
				assert.Equal(t, before, refs(t, f.dir), "no ref moves")
			})
			t.Run("rebase-update-only", func(t *testing.T) {
				t.Parallel()
				// Updating the head branch by rebase: feature is replayed on
				// main's tip and moves; main stays.
				f := newPullFixture(t, format)
				m := f.merge(issues.MergeStyleRebaseUpdate)
				m.Branch = "feature"
				tip, err := f.s.Merge(ctx, 1, m)
				require.NoError(t, err)
				assert.Equal(t, tip, git(t, f.dir, "rev-parse", "refs/heads/feature"))
				assert.Equal(t, f.m1.ID, git(t, f.dir, "rev-parse", "refs/heads/main"))
				checkRebased(t, f, tip)
				// Up to date now: a second update changes nothing.
				m.Head = tip
				again, err := f.s.Merge(ctx, 1, m)
				require.NoError(t, err)
				assert.Equal(t, tip, again)
			})
			t.Run("update-by-merge", func(t *testing.T) {
				t.Parallel()
				// Updating the head branch by merge: main merged into feature.
				f := newPullFixture(t, format)
				m := f.merge(issues.MergeStyleMerge)
				m.Branch, m.Base, m.Head = "feature", f.f2.ID, f.m1.ID
				tip, err := f.s.Merge(ctx, 1, m)
				require.NoError(t, err)
				c := readCommit(t, f.dir, tip)
				assert.Equal(t, []string{f.f2.ID, f.m1.ID}, c.parents)
				assert.Equal(t, tip, git(t, f.dir, "rev-parse", "refs/heads/feature"))
			})
		})
	}
}

// quarantines lists the temporary object directories left in the store.
func quarantines(t *testing.T, s *gitstore.Store) []string {
	var out []string
	for _, name := range tmpFiles(t, s) {
		if strings.HasPrefix(name, "objects-") {
			out = append(out, name)
		}
	}
	return out
}

// objects lists every object of the repository.
func objects(t *testing.T, dir string) string {
	return git(t, dir, "cat-file", "--batch-all-objects", "--batch-check")
}

// TestMergeConflict: every style that merges fails with ErrConflict
// wrapping *MergeConflict naming the path, and leaves every ref and every
// object as they were; TestMerge reports the same paths.
func TestMergeConflict(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, format := range formats {
		t.Run(string(format), func(t *testing.T) {
			t.Parallel()
			f := newPullFixture(t, format)
			m2 := apply(t, f.s, 1, repos.ChangeSet{Branch: "main", Message: "main two\n",
				Files: []repos.FileOp{file("update", "a.txt", "uno\n2\n3\n")}})
			before, objs := refs(t, f.dir), objects(t, f.dir)
			check, err := f.s.TestMerge(ctx, 1, m2.ID, f.f2.ID)
			require.NoError(t, err)
			assert.Equal(t, []string{"a.txt"}, check.Conflicts)
			assert.Empty(t, check.Tree)
			for _, style := range []issues.MergeStyle{issues.MergeStyleMerge, issues.MergeStyleSquash,
				issues.MergeStyleRebase, issues.MergeStyleRebaseMerge} {
				m := f.merge(style)
				m.Base = m2.ID
				_, err := f.s.Merge(ctx, 1, m)
				require.ErrorIs(t, err, forge.ErrConflict, style)
				var mc *issues.MergeConflict
				require.True(t, errors.As(err, &mc), style)
				assert.Equal(t, []string{"a.txt"}, mc.Paths, style)
			}
			m := f.merge(issues.MergeStyleRebaseUpdate)
			m.Branch, m.Base = "feature", m2.ID
			_, err = f.s.Merge(ctx, 1, m)
			require.ErrorIs(t, err, forge.ErrConflict)
			assert.Equal(t, before, refs(t, f.dir), "no ref moved")
			assert.Equal(t, objs, objects(t, f.dir), "no object was added")
			assert.Empty(t, quarantines(t, f.s))

			// A clean test merge gives git's merge tree and adds no object.
			check, err = f.s.TestMerge(ctx, 1, f.m1.ID, f.f2.ID)
			require.NoError(t, err)
			assert.Nil(t, check.Conflicts)
			assert.Equal(t, objs, objects(t, f.dir), "a test merge adds no object")
			assert.Equal(t, f.mergedTree(t), check.Tree)
		})
	}
}

// TestMergeRefusals: the compare-and-swap of the branch, and bad input.
func TestMergeRefusals(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newPullFixture(t, forge.SHA1)
	before := refs(t, f.dir)
	moved := f.merge(issues.MergeStyleMerge)
	moved.Base = f.c0.ID // main has moved on to m1
	for _, style := range []issues.MergeStyle{issues.MergeStyleMerge, issues.MergeStyleSquash, issues.MergeStyleRebase,
		issues.MergeStyleRebaseMerge} {
		moved.Style = style
		_, err := f.s.Merge(ctx, 1, moved)
		assert.ErrorIs(t, err, forge.ErrConflict, style)
	}
	bad := []func(m *issues.MergeCommand){
		func(m *issues.MergeCommand) { m.Style = "octopus" },
		func(m *issues.MergeCommand) { m.Branch = "bad..name" },
		func(m *issues.MergeCommand) { m.Base = "main" },
		func(m *issues.MergeCommand) { m.Head = "--upload-pack=x" },
		func(m *issues.MergeCommand) { m.Author.Email = "a>b" },
		func(m *issues.MergeCommand) { m.Message = "a\x00b" },
	}
	for i, change := range bad {
		m := f.merge(issues.MergeStyleMerge)
		change(&m)
		_, err := f.s.Merge(ctx, 1, m)
		assert.ErrorIs(t, err, forge.ErrInvalid, i)
	}
	m := f.merge(issues.MergeStyleMerge)
	m.Head = strings.Repeat("ab", 20)
	_, err := f.s.Merge(ctx, 1, m)
	assert.ErrorIs(t, err, forge.ErrNotFound, "an unknown head")
	_, err = f.s.Merge(ctx, 99, f.merge(issues.MergeStyleMerge))
	assert.ErrorIs(t, err, forge.ErrNotFound, "an unknown repository")
	assert.Equal(t, before, refs(t, f.dir))
}

// TestCompareFiles: for a commit that adds, modifies, deletes and renames
// files, Compare's files and stats are `git show --numstat --name-status`
// (no renames: a rename is removed + added), and DiffFiles' are `git diff
// -M`'s with Forgejo's ChangedFile statuses.
func TestCompareFiles(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, format := range formats {
		t.Run(string(format), func(t *testing.T) {
			t.Parallel()
			f := newPullFixture(t, format)
			c := apply(t, f.s, 1, repos.ChangeSet{Branch: "feature", Message: "all kinds\n", Files: []repos.FileOp{
				file("create", "new/file.txt", "x\ny\n"),
				file("update", "a.txt", "one\ntwo\n3\nfour\n"),
				file("delete", "b.txt", ""),
				{Op: "update", FromPath: "c.txt", Path: "moved/c.txt", Content: []byte("c\n")},
			}})
			list, total, err := f.s.Compare(ctx, 1, f.f2.ID, c.ID, repos.LogOptions{Files: true})
			require.NoError(t, err)
			assert.Equal(t, 1, total)
			require.Len(t, list, 1)
			assert.Equal(t, c.ID, list[0].ID)
			assert.Equal(t, gitShowFiles(t, f.dir, c.ID), sortedFiles(list[0].Files))
			assert.Len(t, list[0].Files, 5)

			files, err := f.s.DiffFiles(ctx, 1, f.f2.ID, c.ID)
			require.NoError(t, err)
			assert.Equal(t, []repos.FileChangeStat{
				{Filename: "a.txt", Status: "changed", Additions: 2, Deletions: 1},
				{Filename: "b.txt", Status: "deleted", Additions: 0, Deletions: 1},
				{Filename: "moved/c.txt", Status: "renamed", PreviousFilename: "c.txt"},
				{Filename: "new/file.txt", Status: "added", Additions: 2},
			}, files)
			// The line counts are git diff's.
			var add, del int
			for _, fc := range files {
				add, del = add+fc.Additions, del+fc.Deletions
			}
			assert.Contains(t, git(t, f.dir, "diff", "--shortstat", "-M", f.f2.ID, c.ID),
				"4 files changed, "+strconv.Itoa(add)+" insertions(+), "+strconv.Itoa(del)+" deletions(-)")
		})
	}
}

// gitShowFiles is a commit's files and line counts from `git show
// --numstat` and `--name-status` (no renames), in path order, with
// Forgejo's statuses of commit files.
func gitShowFiles(t *testing.T, dir, id string) []repos.FileChangeStat {
	status := map[string]string{}
	for _, line := range strings.Split(git(t, dir, "show", "--format=", "--name-status", "--no-renames", id), "\n") {
		code, path, _ := strings.Cut(line, "\t")
		status[path] = map[string]string{"A": "added", "D": "removed", "M": "modified"}[code]
	}
	var out []repos.FileChangeStat
	for _, line := range strings.Split(git(t, dir, "show", "--format=", "--numstat", "--no-renames", id), "\n") {
		p := strings.SplitN(line, "\t", 3)
		require.Len(t, p, 3)
		add, del := atoi(t, p[0]), atoi(t, p[1])
		out = append(out, repos.FileChangeStat{Filename: p[2], Status: status[p[2]], Additions: add, Deletions: del})
	}
	return sortedFiles(out)
}

func atoi(t *testing.T, s string) int {
	n := 0
	for _, r := range s {
		require.True(t, r >= '0' && r <= '9', s)
		n = n*10 + int(r-'0')
	}
	return n
}

func sortedFiles(files []repos.FileChangeStat) []repos.FileChangeStat {
	out := append([]repos.FileChangeStat{}, files...)
	sort.Slice(out, func(i, j int) bool { return out[i].Filename < out[j].Filename })
	return out
}

// TestCompare: the commits of base..head, paged, with their total.
func TestCompare(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newPullFixture(t, forge.SHA256)
	list, total, err := f.s.Compare(ctx, 1, f.m1.ID, f.f2.ID, repos.LogOptions{})
	require.NoError(t, err)
	assert.Equal(t, 2, total)
	require.Len(t, list, 2)
	assert.Equal(t, []string{f.f2.ID, f.f1.ID}, []string{list[0].ID, list[1].ID})
	assert.Nil(t, list[0].Files)
	assert.Equal(t, "feature one\n\nbody\n", list[1].Message)
	list, total, err = f.s.Compare(ctx, 1, f.m1.ID, f.f2.ID, repos.LogOptions{Skip: 1, Limit: 1, Files: true})
	require.NoError(t, err)
	assert.Equal(t, 2, total)
	require.Len(t, list, 1)
	assert.Equal(t, f.f1.ID, list[0].ID)
	assert.Equal(t, []repos.FileChangeStat{{Filename: "a.txt", Status: "modified", Additions: 1, Deletions: 1}}, list[0].Files)
	list, total, err = f.s.Compare(ctx, 1, f.f2.ID, f.f2.ID, repos.LogOptions{})
	require.NoError(t, err)
	assert.Equal(t, 0, total)
	assert.Empty(t, list)
	_, _, err = f.s.Compare(ctx, 1, f.m1.ID, "nope", repos.LogOptions{})
	assert.ErrorIs(t, err, forge.ErrNotFound)

	mb, err := f.s.MergeBase(ctx, 1, f.m1.ID, f.f2.ID)
	require.NoError(t, err)
	assert.Equal(t, f.c0.ID, mb)
	ok, err := f.s.IsAncestor(ctx, 1, f.c0.ID, f.f2.ID)
	require.NoError(t, err)
	assert.True(t, ok)
	ok, err = f.s.IsAncestor(ctx, 1, f.m1.ID, f.f2.ID)
	require.NoError(t, err)
	assert.False(t, ok)
	_, err = f.s.MergeBase(ctx, 1, f.m1.ID, strings.Repeat("0", 64))
	assert.ErrorIs(t, err, forge.ErrNotFound)

	// Unrelated histories share no merge base.
	other := apply(t, f.s, 1, repos.ChangeSet{NewBranch: "orphan", Message: "orphan\n",
		Files: []repos.FileOp{file("create", "o.txt", "o\n")}})
	_, err = f.s.MergeBase(ctx, 1, f.m1.ID, other.ID)
	assert.ErrorIs(t, err, forge.ErrNotFound)
}

// TestDiff: "diff", "binary" and "patch" are git's own output.
func TestDiff(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newPullFixture(t, forge.SHA1)
	for kind, args := range map[string][]string{
		"diff":   {"diff", "-p", f.c0.ID, f.f2.ID},
		"binary": {"diff", "-p", "--binary", "--histogram", f.c0.ID, f.f2.ID},
		"patch":  {"format-patch", "--binary", "--stdout", f.c0.ID + "..." + f.f2.ID},
	} {
		var buf bytes.Buffer
		require.NoError(t, f.s.Diff(ctx, 1, f.c0.ID, f.f2.ID, kind, &buf), kind)
		assert.Equal(t, git(t, f.dir, args...), strings.TrimRight(buf.String(), "\n"), kind)
	}
	var buf bytes.Buffer
	assert.ErrorIs(t, f.s.Diff(ctx, 1, f.c0.ID, f.f2.ID, "html", &buf), forge.ErrInvalid)
	assert.ErrorIs(t, f.s.Diff(ctx, 1, f.c0.ID, "nope", "diff", &buf), forge.ErrNotFound)
}

// TestSyncHead: a head branch of the same repository and of a fork
// becomes refs/pull/N/head of the base repository; a fork's head branch is
// updated by merging the base branch into it (MergeCommand.Source).
func TestSyncHead(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, format := range formats {
		t.Run(string(format), func(t *testing.T) {
			t.Parallel()
			f := newPullFixture(t, format)
			id, err := f.s.SyncHead(ctx, 1, 1, "feature", "refs/pull/1/head")
			require.NoError(t, err)
			assert.Equal(t, f.f2.ID, id)
			assert.Equal(t, f.f2.ID, git(t, f.dir, "rev-parse", "refs/pull/1/head"))

			require.NoError(t, f.s.Fork(ctx, 1, 2))
			fc := apply(t, f.s, 2, repos.ChangeSet{Branch: "feature", NewBranch: "fork-feat", Message: "in the fork\n",
				Files: []repos.FileOp{file("create", "fork.txt", "fork\n")}})
			id, err = f.s.SyncHead(ctx, 1, 2, "fork-feat", "refs/pull/2/head")
			require.NoError(t, err)
			assert.Equal(t, fc.ID, id)
			assert.Equal(t, fc.ID, git(t, f.dir, "rev-parse", "refs/pull/2/head"))
			assert.Equal(t, "fork\n", git(t, f.dir, "show", fc.ID+":fork.txt")+"\n", "the fork's objects were copied")
			git(t, f.dir, "fsck", "--strict")
			// A second sync of a moved branch moves the ref.
			fc2 := apply(t, f.s, 2, repos.ChangeSet{Branch: "fork-feat", Message: "more\n",
				Files: []repos.FileOp{file("update", "fork.txt", "fork 2\n")}})
			id, err = f.s.SyncHead(ctx, 1, 2, "fork-feat", "refs/pull/2/head")
			require.NoError(t, err)
			assert.Equal(t, fc2.ID, id)

			// The pull request merges from refs/pull/2/head.
			m := f.merge(issues.MergeStyleMerge)
			m.Head = fc2.ID
			tip, err := f.s.Merge(ctx, 1, m)
			require.NoError(t, err)
			assert.Equal(t, []string{f.m1.ID, fc2.ID}, readCommit(t, f.dir, tip).parents)

			// Updating the fork's head branch by merge with the base branch
			// (not yet in the fork) copies it over.
			upd := f.merge(issues.MergeStyleMerge)
			upd.Branch, upd.Base, upd.Head, upd.Source = "fork-feat", fc2.ID, tip, 1
			ftip, err := f.s.Merge(ctx, 2, upd)
			require.NoError(t, err)
			assert.Equal(t, []string{fc2.ID, tip}, readCommit(t, f.s.Path(2), ftip).parents)
			assert.Equal(t, ftip, git(t, f.s.Path(2), "rev-parse", "refs/heads/fork-feat"))
			git(t, f.s.Path(2), "fsck", "--strict")

			_, err = f.s.SyncHead(ctx, 1, 2, "nope", "refs/pull/3/head")
			assert.ErrorIs(t, err, forge.ErrNotFound)
			_, err = f.s.SyncHead(ctx, 1, 2, "fork-feat", "refs/heads/main")
			assert.ErrorIs(t, err, forge.ErrInvalid, "only refs/pull/ is written")
			_, err = f.s.SyncHead(ctx, 1, 2, "fork-feat~1", "refs/pull/3/head")
			assert.ErrorIs(t, err, forge.ErrInvalid, "a branch is a name, not a revision")
			_, err = f.s.SyncHead(ctx, 1, 9, "fork-feat", "refs/pull/3/head")
			assert.ErrorIs(t, err, forge.ErrNotFound)
		})
	}
}

// TestRebaseLikeGit: the commits Merge's rebase makes are those `git
// rebase` makes in a clone with a working tree — same trees, authors and
// messages, in order — for a head branch holding a commit base already
// has (left out), a commit that becomes empty (dropped), a commit empty
// from the start (kept) and a merge (left out, its branch's commits
// replayed).
func TestRebaseLikeGit(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, format := range formats {
		t.Run(string(format), func(t *testing.T) {
			t.Parallel()
			f := newPullFixture(t, format)
			s := f.s
			// main: m2 makes the change feature's h2 makes too (left out),
			// and m3 makes h3's change plus another (h3 becomes empty).
			apply(t, s, 1, repos.ChangeSet{Branch: "main", Message: "m2\n",
				Files: []repos.FileOp{file("create", "same.txt", "same\n")}})
			m3 := apply(t, s, 1, repos.ChangeSet{Branch: "main", Message: "m3\n",
				Files: []repos.FileOp{file("create", "both.txt", "both\n"), file("create", "extra.txt", "x\n")}})
			apply(t, s, 1, repos.ChangeSet{Branch: "feature", Message: "h2\n", Author: featSig, Committer: featSig,
				Files: []repos.FileOp{file("create", "same.txt", "same\n")}})
			apply(t, s, 1, repos.ChangeSet{Branch: "feature", Message: "h3\n", Author: featSig, Committer: featSig,
				Files: []repos.FileOp{file("create", "both.txt", "both\n")}})
			side := apply(t, s, 1, repos.ChangeSet{Branch: "feature", NewBranch: "side", Message: "side\n",
				Files: []repos.FileOp{file("create", "side.txt", "side\n")}})
			tip, err := s.Resolve(ctx, 1, "feature")
			require.NoError(t, err)
			// An empty commit, then a merge of side into feature, by git.
			tree := git(t, f.dir, "rev-parse", tip+"^{tree}")
			empty := gitEnv(t, f.dir, []string{"GIT_AUTHOR_NAME=E", "GIT_AUTHOR_EMAIL=e@x", "GIT_COMMITTER_NAME=E",
				"GIT_COMMITTER_EMAIL=e@x"}, "commit-tree", tree, "-p", tip, "-m", "empty")
			mtree := strings.Fields(git(t, f.dir, "merge-tree", "--write-tree", empty, side.ID))[0]
			merge := gitEnv(t, f.dir, []string{"GIT_AUTHOR_NAME=E", "GIT_AUTHOR_EMAIL=e@x", "GIT_COMMITTER_NAME=E",
				"GIT_COMMITTER_EMAIL=e@x"}, "commit-tree", mtree, "-p", empty, "-p", side.ID, "-m", "merge side")
			git(t, f.dir, "update-ref", "refs/heads/feature", merge)

			m := f.merge(issues.MergeStyleRebase)
			m.Base, m.Head = m3.ID, merge
			got, err := s.Merge(ctx, 1, m)
			require.NoError(t, err)

			work := t.TempDir()
			git(t, work, "clone", "--quiet", f.dir, ".")
			git(t, work, "checkout", "--quiet", "feature")
			gitEnv(t, work, []string{"GIT_COMMITTER_NAME=Mia Merger", "GIT_COMMITTER_EMAIL=mia@example.com"},
				"rebase", "--quiet", m3.ID)
			want := git(t, work, "log", "--format=%T %an %ae %aI %s", m3.ID+"..HEAD")
			assert.Equal(t, want, git(t, f.dir, "log", "--format=%T %an %ae %aI %s", m3.ID+".."+got))
			assert.Contains(t, want, " empty", "the empty commit is kept")
			assert.NotContains(t, want, " h2", "the commit main has is left out")
			assert.NotContains(t, want, " h3", "the commit that becomes empty is dropped")
			assert.Contains(t, want, " side", "the merged branch's commit is replayed")
		})
	}
}

// gitEnv is git with extra environment variables.
func gitEnv(t *testing.T, dir string, env []string, args ...string) string {
	t.Helper()
	c := exec.Command("git", append([]string{"-C", dir}, args...)...)
	c.Env = append(append(c.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null"), env...)
	var stderr bytes.Buffer
	c.Stderr = &stderr
	out, err := c.Output()
	require.NoError(t, err, "git %v: %s", args, stderr.String())
	return strings.TrimRight(string(out), "\n")
}

// TestDiffFilesBinary: a changed binary file has no line counts, and
// Forgejo's ToChangedFile calls such a file "unchanged".
func TestDiffFilesBinary(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newPullFixture(t, forge.SHA1)
	b1 := apply(t, f.s, 1, repos.ChangeSet{Branch: "main", Message: "bin\n",
		Files: []repos.FileOp{{Op: "create", Path: "img.bin", Content: []byte{0, 1, 2, 3}}}})
	b2 := apply(t, f.s, 1, repos.ChangeSet{Branch: "main", Message: "bin 2\n",
		Files: []repos.FileOp{{Op: "update", Path: "img.bin", Content: []byte{0, 1, 2, 4, 5}}}})
	files, err := f.s.DiffFiles(ctx, 1, b1.ID, b2.ID)
	require.NoError(t, err)
	assert.Equal(t, []repos.FileChangeStat{{Filename: "img.bin", Status: "unchanged"}}, files)
	files, err = f.s.DiffFiles(ctx, 1, f.m1.ID, b2.ID)
	require.NoError(t, err)
	assert.Equal(t, []repos.FileChangeStat{{Filename: "img.bin", Status: "added"}}, files)
}

// TestConcurrentMerges: merges of different heads into one branch, all
// from the same tip, race; exactly one wins and the others fail with
// ErrConflict, leaving the winner's commit on the branch.
func TestConcurrentMerges(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newPullFixture(t, forge.SHA1)
	const n = 6
	heads := make([]string, n)
	for i := range heads {
		heads[i] = apply(t, f.s, 1, repos.ChangeSet{Branch: "feature", NewBranch: "h" + strconv.Itoa(i), Message: "h\n",
			Files: []repos.FileOp{file("create", "h"+strconv.Itoa(i), "h\n")}}).ID
	}
	tips := make([]string, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range heads {
		wg.Add(1)
		go func() {
			defer wg.Done()
			m := f.merge(issues.MergeStyleMerge)
			m.Head = heads[i]
			tips[i], errs[i] = f.s.Merge(ctx, 1, m)
		}()
	}
	wg.Wait()
	won := 0
	for i, err := range errs {
		if err == nil {
			won++
			assert.Equal(t, tips[i], git(t, f.dir, "rev-parse", "refs/heads/main"))
			continue
		}
		assert.ErrorIs(t, err, forge.ErrConflict)
	}
	assert.Equal(t, 1, won)
	git(t, f.dir, "fsck", "--strict", "--no-dangling")
}
