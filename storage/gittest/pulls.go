package gittest

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/issues"
)

// PullBackend is a git backend that also makes the git operations of pull
// requests.
type PullBackend interface {
	repos.Git
	issues.PullGit
}

// RunPulls is the conformance suite of issues.PullGit, SHA-1 and SHA-256:
// every merge style, conflicts, the compare-and-swap of the branch,
// compare and diff listings, and heads synced from forks. It checks results
// through the backend's own reads (Log, Entry, Blob, Refs), so a backend
// without the git command line can run it. The changes it merges touch
// different files on each side, and its conflict changes one file on both
// sides: a backend that merges per path (a path changed on both sides is a
// conflict) passes it as git does.
func RunPulls(t *testing.T, open func(t *testing.T) PullBackend) {
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
			for _, c := range pullCases {
				t.Run(c.name, func(t *testing.T) {
					t.Parallel()
					g := open(t)
					c.run(t, &pullEnv{env: env{t: t, g: g, format: format, ctx: context.Background()}, p: g})
				})
			}
		})
	}
}

type pullEnv struct {
	env
	p PullBackend
}

var pullCases = []struct {
	name string
	run  func(t *testing.T, e *pullEnv)
}{
	{"MergeStyles", testPullMergeStyles},
	{"FastForwardOnly", testPullFastForwardOnly},
	{"Conflict", testPullConflict},
	{"BranchMoved", testPullBranchMoved},
	{"CompareAndDiffFiles", testPullCompare},
	{"SyncHeadFromFork", testPullSyncHead},
	{"MissingRepository", testPullMissing},
}

var (
	pullAuthor    = repos.Signature{Name: "Pat Poster", Email: "pat@example.com", When: time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)}
	pullCommitter = repos.Signature{Name: "Mia Merger", Email: "mia@example.com", When: time.Date(2025, 2, 3, 4, 5, 6, 0, time.UTC)}
	pullFeature   = repos.Signature{Name: "Fay Feature", Email: "fay@example.com", When: time.Date(2024, 12, 1, 0, 0, 0, 0, time.UTC)}
)

// pulls is the fixture: main and feature diverged from c0.
//
//	c0 ── m1            main: b.txt changed
//	  └── f1 ── f2      feature: a.txt changed, then c.txt created
type pulls struct {
	c0, m1, f1, f2 *repos.Commit
}

func (e *pullEnv) apply(repo forge.ID, c repos.ChangeSet) *repos.Commit {
	e.t.Helper()
	if c.Author == (repos.Signature{}) {
		c.Author, c.Committer = sig, sig
	}
	got, err := e.g.Apply(e.ctx, repo, c)
	require.NoError(e.t, err)
	return got
}

func op(kind, path, content string) repos.FileOp {
	return repos.FileOp{Op: kind, Path: path, Content: []byte(content)}
}

func (e *pullEnv) pulls() *pulls {
	e.t.Helper()
	e.create(1)
	p := &pulls{}
	p.c0 = e.apply(1, repos.ChangeSet{NewBranch: "main", Message: "init\n",
		Files: []repos.FileOp{op("create", "a.txt", "1\n2\n3\n"), op("create", "b.txt", "b\n")}})
	p.f1 = e.apply(1, repos.ChangeSet{Branch: "main", NewBranch: "feature", Message: "feature one\n\nbody\n",
		Author: pullFeature, Committer: pullFeature, Files: []repos.FileOp{op("update", "a.txt", "one\n2\n3\n")}})
	p.f2 = e.apply(1, repos.ChangeSet{Branch: "feature", Message: "feature two\n",
		Author: pullFeature, Committer: pullFeature, Files: []repos.FileOp{op("create", "c.txt", "c\n")}})
	p.m1 = e.apply(1, repos.ChangeSet{Branch: "main", Message: "main one\n",
		Files: []repos.FileOp{op("update", "b.txt", "bee\n")}})
	return p
}

func (p *pulls) command(style issues.MergeStyle) issues.MergeCommand {
	return issues.MergeCommand{Style: style, Branch: "main", Base: p.m1.ID, Head: p.f2.ID,
		Message: "Merge pull request 'feature'\n\nbody\n", Author: pullAuthor, Committer: pullCommitter}
}

// commit reads one commit through Log.
func (e *pullEnv) commit(repo forge.ID, id string) *repos.Commit {
	e.t.Helper()
	list, err := e.g.Log(e.ctx, repo, repos.LogOptions{Rev: id, Limit: 1})
	require.NoError(e.t, err)
	require.Len(e.t, list, 1)
	return list[0]
}

// file reads a file of a commit ("" if it does not exist).
func (e *pullEnv) file(repo forge.ID, rev, path string) string {
	e.t.Helper()
	entry, err := e.g.Entry(e.ctx, repo, rev, path)
	if errors.Is(err, forge.ErrNotFound) {
		return ""
	}
	require.NoError(e.t, err)
	data, err := e.g.Blob(e.ctx, repo, entry.ID)
	require.NoError(e.t, err)
	return string(data)
}

// merged checks the files of the merge of the fixture at rev.
func (e *pullEnv) merged(rev string) {
	e.t.Helper()
	assert.Equal(e.t, "one\n2\n3\n", e.file(1, rev, "a.txt"))
	assert.Equal(e.t, "bee\n", e.file(1, rev, "b.txt"))
	assert.Equal(e.t, "c\n", e.file(1, rev, "c.txt"))
}

func sameSig(t *testing.T, want, got repos.Signature, what string) {
	t.Helper()
	assert.Equal(t, want.Name, got.Name, what)
	assert.Equal(t, want.Email, got.Email, what)
	assert.True(t, want.When.Equal(got.When), "%s: %v, want %v", what, got.When, want.When)
}

func (e *pullEnv) resolve(repo forge.ID, rev string) string {
	e.t.Helper()
	id, err := e.g.Resolve(e.ctx, repo, rev)
	require.NoError(e.t, err)
	return id
}

// rebased checks that tip is f1 and f2 replayed on m1.
func (e *pullEnv) rebased(p *pulls, tip string) {
	t := e.t
	t.Helper()
	t2 := e.commit(1, tip)
	require.Len(t, t2.Parents, 1)
	t1 := e.commit(1, t2.Parents[0])
	assert.Equal(t, []string{p.m1.ID}, t1.Parents)
	assert.Equal(t, "feature one\n\nbody\n", t1.Message)
	assert.Equal(t, "feature two\n", t2.Message)
	for _, c := range []*repos.Commit{t1, t2} {
		sameSig(t, pullFeature, c.Author, "a rebased commit keeps its author")
		sameSig(t, pullCommitter, c.Committer, "the merger commits")
	}
	e.merged(tip)
}

func testPullMergeStyles(t *testing.T, e *pullEnv) {
	p := e.pulls()
	styles := []issues.MergeStyle{issues.MergeStyleMerge, issues.MergeStyleSquash, issues.MergeStyleRebase,
		issues.MergeStyleRebaseMerge}
	for _, style := range styles {
		// Each style merges into a branch of its own, at m1.
		m := p.command(style)
		m.Branch = "into-" + string(style)
		require.NoError(t, e.g.SetRef(e.ctx, 1, "refs/heads/"+m.Branch, p.m1.ID, ""))
		tip, err := e.p.Merge(e.ctx, 1, m)
		require.NoError(t, err, style)
		assert.Equal(t, tip, e.resolve(1, m.Branch), style)
		c := e.commit(1, tip)
		switch style {
		case issues.MergeStyleMerge, issues.MergeStyleSquash, issues.MergeStyleRebaseMerge:
			sameSig(t, pullAuthor, c.Author, string(style))
			sameSig(t, pullCommitter, c.Committer, string(style))
			assert.Equal(t, "Merge pull request 'feature'\n\nbody\n", c.Message, style)
			e.merged(tip)
		}
		switch style {
		case issues.MergeStyleMerge:
			assert.Equal(t, []string{p.m1.ID, p.f2.ID}, c.Parents)
		case issues.MergeStyleSquash:
			assert.Equal(t, []string{p.m1.ID}, c.Parents)
		case issues.MergeStyleRebase:
			e.rebased(p, tip)
		case issues.MergeStyleRebaseMerge:
			require.Len(t, c.Parents, 2)
			assert.Equal(t, p.m1.ID, c.Parents[0])
			e.rebased(p, c.Parents[1])
		}
	}
	assert.Equal(t, p.m1.ID, e.resolve(1, "main"))
	assert.Equal(t, p.f2.ID, e.resolve(1, "feature"), "the head branch never moves")

	// Manually merged: nothing happens.
	before, err := e.g.Refs(e.ctx, 1)
	require.NoError(t, err)
	tip, err := e.p.Merge(e.ctx, 1, p.command(issues.MergeStyleManuallyMerged))
	require.NoError(t, err)
	assert.Equal(t, p.f2.ID, tip)
	after, err := e.g.Refs(e.ctx, 1)
	require.NoError(t, err)
	assert.Equal(t, before, after)

	// Updating the head branch: by merge (main merged into feature), then
	// by rebase (feature replayed on main).
	upd := p.command(issues.MergeStyleMerge)
	upd.Branch, upd.Base, upd.Head = "feature", p.f2.ID, p.m1.ID
	require.NoError(t, e.g.SetRef(e.ctx, 1, "refs/heads/by-merge", p.f2.ID, ""))
	upd.Branch = "by-merge"
	tip, err = e.p.Merge(e.ctx, 1, upd)
	require.NoError(t, err)
	assert.Equal(t, []string{p.f2.ID, p.m1.ID}, e.commit(1, tip).Parents)
	e.merged(tip)

	upd = p.command(issues.MergeStyleRebaseUpdate)
	upd.Branch = "feature"
	tip, err = e.p.Merge(e.ctx, 1, upd)
	require.NoError(t, err)
	assert.Equal(t, tip, e.resolve(1, "feature"))
	assert.Equal(t, p.m1.ID, e.resolve(1, "main"))
	e.rebased(p, tip)
	upd.Head = tip
	again, err := e.p.Merge(e.ctx, 1, upd)
	require.NoError(t, err)
	assert.Equal(t, tip, again, "up to date: nothing is rewritten")
	ok, err := e.p.IsAncestor(e.ctx, 1, p.m1.ID, tip)
	require.NoError(t, err)
	assert.True(t, ok)
}

func testPullFastForwardOnly(t *testing.T, e *pullEnv) {
	p := e.pulls()
	_, err := e.p.Merge(e.ctx, 1, p.command(issues.MergeStyleFastForwardOnly))
	assert.ErrorIs(t, err, forge.ErrInvalid, "diverged")
	assert.Equal(t, p.m1.ID, e.resolve(1, "main"))
	f3 := e.apply(1, repos.ChangeSet{Branch: "main", NewBranch: "ff", Message: "ff\n",
		Files: []repos.FileOp{op("create", "d.txt", "d\n")}})
	m := p.command(issues.MergeStyleFastForwardOnly)
	m.Head = f3.ID
	tip, err := e.p.Merge(e.ctx, 1, m)
	require.NoError(t, err)
	assert.Equal(t, f3.ID, tip)
	assert.Equal(t, f3.ID, e.resolve(1, "main"))
}

func testPullConflict(t *testing.T, e *pullEnv) {
	p := e.pulls()
	m2 := e.apply(1, repos.ChangeSet{Branch: "main", Message: "main two\n",
		Files: []repos.FileOp{op("update", "a.txt", "uno\n2\n3\n")}})
	before, err := e.g.Refs(e.ctx, 1)
	require.NoError(t, err)
	check, err := e.p.TestMerge(e.ctx, 1, m2.ID, p.f2.ID)
	require.NoError(t, err)
	assert.Equal(t, []string{"a.txt"}, check.Conflicts)
	for _, style := range []issues.MergeStyle{issues.MergeStyleMerge, issues.MergeStyleSquash, issues.MergeStyleRebase,
		issues.MergeStyleRebaseMerge, issues.MergeStyleRebaseUpdate} {
		m := p.command(style)
		m.Base = m2.ID
		if style == issues.MergeStyleRebaseUpdate {
			m.Branch = "feature"
		}
		_, err := e.p.Merge(e.ctx, 1, m)
		require.ErrorIs(t, err, forge.ErrConflict, style)
		var mc *issues.MergeConflict
		require.True(t, errors.As(err, &mc), style)
		assert.Equal(t, []string{"a.txt"}, mc.Paths, style)
	}
	after, err := e.g.Refs(e.ctx, 1)
	require.NoError(t, err)
	assert.Equal(t, before, after, "no ref moved")

	check, err = e.p.TestMerge(e.ctx, 1, p.m1.ID, p.f2.ID)
	require.NoError(t, err)
	assert.Nil(t, check.Conflicts)
	assert.Len(t, check.Tree, e.format.HexLen())
	// The same tree as the merge then made.
	m := p.command(issues.MergeStyleMerge)
	m.Branch = "at-m1"
	require.NoError(t, e.g.SetRef(e.ctx, 1, "refs/heads/at-m1", p.m1.ID, ""))
	tip, err := e.p.Merge(e.ctx, 1, m)
	require.NoError(t, err)
	assert.Equal(t, e.commit(1, tip).Tree, check.Tree)
}

func testPullBranchMoved(t *testing.T, e *pullEnv) {
	p := e.pulls()
	for _, style := range []issues.MergeStyle{issues.MergeStyleMerge, issues.MergeStyleSquash, issues.MergeStyleRebase,
		issues.MergeStyleRebaseMerge, issues.MergeStyleFastForwardOnly} {
		m := p.command(style)
		m.Base = p.c0.ID // main is at m1
		_, err := e.p.Merge(e.ctx, 1, m)
		assert.ErrorIs(t, err, forge.ErrConflict, style)
	}
	m := p.command(issues.MergeStyleMerge)
	m.Style = "octopus"
	_, err := e.p.Merge(e.ctx, 1, m)
	assert.ErrorIs(t, err, forge.ErrInvalid)
	m = p.command(issues.MergeStyleMerge)
	m.Branch = "a..b"
	_, err = e.p.Merge(e.ctx, 1, m)
	assert.ErrorIs(t, err, forge.ErrInvalid)
	assert.Equal(t, p.m1.ID, e.resolve(1, "main"))
}

func testPullCompare(t *testing.T, e *pullEnv) {
	p := e.pulls()
	list, total, err := e.p.Compare(e.ctx, 1, p.m1.ID, p.f2.ID, repos.LogOptions{})
	require.NoError(t, err)
	assert.Equal(t, 2, total)
	require.Len(t, list, 2)
	assert.Equal(t, []string{p.f2.ID, p.f1.ID}, []string{list[0].ID, list[1].ID})
	list, total, err = e.p.Compare(e.ctx, 1, p.m1.ID, p.f2.ID, repos.LogOptions{Skip: 1, Limit: 1, Files: true})
	require.NoError(t, err)
	assert.Equal(t, 2, total)
	require.Len(t, list, 1)
	assert.Equal(t, []repos.FileChangeStat{{Filename: "a.txt", Status: "modified", Additions: 1, Deletions: 1}}, list[0].Files)

	c := e.apply(1, repos.ChangeSet{Branch: "feature", Message: "all kinds\n", Files: []repos.FileOp{
		op("create", "new/file.txt", "x\ny\n"),
		op("update", "a.txt", "one\ntwo\n3\nfour\n"),
		op("delete", "b.txt", ""),
		{Op: "update", FromPath: "c.txt", Path: "moved/c.txt", Content: []byte("c\n")},
	}})
	list, _, err = e.p.Compare(e.ctx, 1, p.f2.ID, c.ID, repos.LogOptions{Files: true})
	require.NoError(t, err)
	require.Len(t, list, 1)
	logged, err := e.g.Log(e.ctx, 1, repos.LogOptions{Rev: c.ID, Limit: 1, Files: true})
	require.NoError(t, err)
	assert.Equal(t, logged[0].Files, list[0].Files, "Compare's files are Log's")
	files, err := e.p.DiffFiles(e.ctx, 1, p.f2.ID, c.ID)
	require.NoError(t, err)
	assert.Equal(t, []repos.FileChangeStat{
		{Filename: "a.txt", Status: "changed", Additions: 2, Deletions: 1},
		{Filename: "b.txt", Status: "deleted", Deletions: 1},
		{Filename: "moved/c.txt", Status: "renamed", PreviousFilename: "c.txt"},
		{Filename: "new/file.txt", Status: "added", Additions: 2},
	}, files)

	mb, err := e.p.MergeBase(e.ctx, 1, p.m1.ID, p.f2.ID)
	require.NoError(t, err)
	assert.Equal(t, p.c0.ID, mb)
	ok, err := e.p.IsAncestor(e.ctx, 1, p.m1.ID, p.f2.ID)
	require.NoError(t, err)
	assert.False(t, ok)

	var buf bytes.Buffer
	require.NoError(t, e.p.Diff(e.ctx, 1, p.c0.ID, p.f2.ID, "diff", &buf))
	assert.Contains(t, buf.String(), "diff --git a/a.txt b/a.txt")
	assert.Contains(t, buf.String(), "+one\n")
	buf.Reset()
	require.NoError(t, e.p.Diff(e.ctx, 1, p.c0.ID, p.f2.ID, "patch", &buf))
	assert.Equal(t, 2, strings.Count(buf.String(), "Subject: [PATCH"), "one mail per commit")
	assert.ErrorIs(t, e.p.Diff(e.ctx, 1, p.c0.ID, p.f2.ID, "html", &buf), forge.ErrInvalid)
}

func testPullSyncHead(t *testing.T, e *pullEnv) {
	p := e.pulls()
	id, err := e.p.SyncHead(e.ctx, 1, 1, "feature", "refs/pull/1/head")
	require.NoError(t, err)
	assert.Equal(t, p.f2.ID, id)
	assert.Equal(t, p.f2.ID, e.resolve(1, "refs/pull/1/head"))

	require.NoError(t, e.g.Fork(e.ctx, 1, 2))
	fc := e.apply(2, repos.ChangeSet{Branch: "feature", NewBranch: "fork-feat", Message: "in the fork\n",
		Files: []repos.FileOp{op("create", "fork.txt", "fork\n")}})
	id, err = e.p.SyncHead(e.ctx, 1, 2, "fork-feat", "refs/pull/2/head")
	require.NoError(t, err)
	assert.Equal(t, fc.ID, id)
	assert.Equal(t, "fork\n", e.file(1, "refs/pull/2/head", "fork.txt"), "the fork's objects are in the base")

	m := p.command(issues.MergeStyleMerge)
	m.Head = fc.ID
	tip, err := e.p.Merge(e.ctx, 1, m)
	require.NoError(t, err)
	assert.Equal(t, "fork\n", e.file(1, tip, "fork.txt"))

	// The fork's head branch updated with the base branch, which the fork
	// does not have yet.
	upd := p.command(issues.MergeStyleMerge)
	upd.Branch, upd.Base, upd.Head, upd.Source = "fork-feat", fc.ID, tip, 1
	ftip, err := e.p.Merge(e.ctx, 2, upd)
	require.NoError(t, err)
	list, err := e.g.Log(e.ctx, 2, repos.LogOptions{Rev: "fork-feat", Limit: 1})
	require.NoError(t, err)
	assert.Equal(t, ftip, list[0].ID)
	assert.Equal(t, []string{fc.ID, tip}, list[0].Parents)

	// Then by rebase onto a newer base tip, again one the fork lacks: the
	// fork's own commit is replayed on it.
	fc3 := e.apply(2, repos.ChangeSet{Branch: "fork-feat", Message: "fork three\n",
		Files: []repos.FileOp{op("update", "fork.txt", "fork 3\n")}})
	m9 := e.apply(1, repos.ChangeSet{Branch: "main", Message: "main nine\n",
		Files: []repos.FileOp{op("create", "nine.txt", "9\n")}})
	reb := p.command(issues.MergeStyleRebaseUpdate)
	reb.Branch, reb.Base, reb.Head, reb.Source = "fork-feat", m9.ID, fc3.ID, 1
	rtip, err := e.p.Merge(e.ctx, 2, reb)
	require.NoError(t, err)
	assert.Equal(t, rtip, e.resolve(2, "fork-feat"))
	c := e.commit(2, rtip)
	assert.Equal(t, []string{m9.ID}, c.Parents)
	assert.Equal(t, "fork three\n", c.Message)
	assert.Equal(t, "fork 3\n", e.file(2, rtip, "fork.txt"))
	assert.Equal(t, "9\n", e.file(2, rtip, "nine.txt"))

	_, err = e.p.SyncHead(e.ctx, 1, 2, "nope", "refs/pull/3/head")
	assert.ErrorIs(t, err, forge.ErrNotFound)
	_, err = e.p.SyncHead(e.ctx, 1, 2, "fork-feat", "refs/heads/main")
	assert.ErrorIs(t, err, forge.ErrInvalid)
}

func testPullMissing(t *testing.T, e *pullEnv) {
	const missing = 99
	zero := strings.Repeat("0", e.format.HexLen())
	notFound := func(what string, err error) {
		t.Helper()
		assert.ErrorIs(t, err, forge.ErrNotFound, what)
	}
	_, err := e.p.SyncHead(e.ctx, missing, missing, "main", "refs/pull/1/head")
	notFound("SyncHead", err)
	_, err = e.p.MergeBase(e.ctx, missing, zero, zero)
	notFound("MergeBase", err)
	_, _, err = e.p.Compare(e.ctx, missing, zero, zero, repos.LogOptions{})
	notFound("Compare", err)
	_, err = e.p.DiffFiles(e.ctx, missing, zero, zero)
	notFound("DiffFiles", err)
	notFound("Diff", e.p.Diff(e.ctx, missing, zero, zero, "diff", &bytes.Buffer{}))
	_, err = e.p.TestMerge(e.ctx, missing, zero, zero)
	notFound("TestMerge", err)
	_, err = e.p.Merge(e.ctx, missing, issues.MergeCommand{Style: issues.MergeStyleMerge, Branch: "main", Base: zero,
		Head: zero, Message: "m", Author: sig, Committer: sig})
	notFound("Merge", err)
	_, err = e.p.IsAncestor(e.ctx, missing, zero, zero)
	notFound("IsAncestor", err)
	// A missing commit in an existing repository.
	e.create(1)
	_, err = e.p.MergeBase(e.ctx, 1, zero, zero)
	notFound("MergeBase of a missing commit", err)
}
