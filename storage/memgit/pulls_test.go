package memgit_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/issues"
	"github.com/hearthforge/hearth/storage/gitstore"
	"github.com/hearthforge/hearth/storage/gittest"
	"github.com/hearthforge/hearth/storage/memgit"
)

// TestSameMergesAsGit makes the same history and the same merge of each
// style with memgit and with the git command line (storage/gitstore), for
// changes a path-level merge and git's merge agree on (different files on
// each side, a commit main already has, one that becomes empty): the
// resulting commits have the same ids, and DiffFiles and Compare agree.
func TestSameMergesAsGit(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	sig := repos.Signature{Name: "Ann", Email: "ann@example.com", When: time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)}
	feat := repos.Signature{Name: "Fay", Email: "fay@example.com", When: time.Date(2024, 6, 1, 0, 0, 0, 0, time.UTC)}
	merger := repos.Signature{Name: "Mia", Email: "mia@example.com", When: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)}
	f := func(op, path, content string) repos.FileOp {
		return repos.FileOp{Op: op, Path: path, Content: []byte(content)}
	}
	history := []repos.ChangeSet{
		{NewBranch: "main", Message: "init\n", Files: []repos.FileOp{f("create", "a.txt", "a\n"), f("create", "b.txt", "b\n"),
			f("create", "dir/c.txt", "c\n")}},
		{Branch: "main", NewBranch: "feature", Message: "f1\n", Author: feat, Files: []repos.FileOp{f("update", "a.txt", "A\n")}},
		{Branch: "feature", Message: "f2\n\nbody\n", Author: feat, Files: []repos.FileOp{f("create", "dir/new.txt", "new\n"),
			{Op: "update", FromPath: "dir/c.txt", Path: "moved/c.txt", Content: []byte("c\n")}}},
		{Branch: "feature", Message: "f3, main has it\n", Author: feat, Files: []repos.FileOp{f("create", "same.txt", "same\n")}},
		{Branch: "main", Message: "m1\n", Files: []repos.FileOp{f("update", "b.txt", "B\n"), f("create", "same.txt", "same\n")}},
	}
	styles := []issues.MergeStyle{issues.MergeStyleMerge, issues.MergeStyleSquash, issues.MergeStyleRebase,
		issues.MergeStyleRebaseMerge, issues.MergeStyleRebaseUpdate}
	type result struct {
		tips  []string
		files []repos.FileChangeStat
		log   []*repos.Commit
	}
	var got [2]result
	for i := range got {
		var g gittest.PullBackend = memgit.New()
		if i == 1 {
			disk, err := gitstore.Open(t.TempDir())
			require.NoError(t, err)
			defer disk.Close()
			g = disk
		}
		require.NoError(t, g.Create(ctx, 1, forge.SHA1, "main"))
		for _, c := range history {
			if c.Author == (repos.Signature{}) {
				c.Author = sig
			}
			c.Committer = c.Author
			_, err := g.Apply(ctx, 1, c)
			require.NoError(t, err)
		}
		main, err := g.Resolve(ctx, 1, "main")
		require.NoError(t, err)
		head, err := g.Resolve(ctx, 1, "feature")
		require.NoError(t, err)
		for _, style := range styles {
			m := issues.MergeCommand{Style: style, Branch: "into-" + string(style), Base: main, Head: head,
				Message: "Merge\n", Author: sig, Committer: merger}
			start := main
			if style == issues.MergeStyleRebaseUpdate {
				start = head
			}
			require.NoError(t, g.SetRef(ctx, 1, "refs/heads/"+m.Branch, start, ""))
			tip, err := g.Merge(ctx, 1, m)
			require.NoError(t, err, style)
			got[i].tips = append(got[i].tips, tip)
		}
		mb, err := g.MergeBase(ctx, 1, main, head)
		require.NoError(t, err)
		got[i].files, err = g.DiffFiles(ctx, 1, mb, head)
		require.NoError(t, err)
		got[i].log, _, err = g.Compare(ctx, 1, main, head, repos.LogOptions{Files: true})
		require.NoError(t, err)
	}
	assert.Equal(t, got[1].tips, got[0].tips, "the same commits")
	assert.Equal(t, got[1].files, got[0].files)
	require.Len(t, got[0].log, 3)
	require.Len(t, got[1].log, 3)
	for i, c := range got[0].log {
		d := got[1].log[i]
		assert.Equal(t, d.ID, c.ID)
		assert.Equal(t, d.Files, c.Files, c.Message)
	}
}

// TestContentChangedAsGit: memgit and the git command line (gitstore)
// agree on Forgejo's checkIfPRContentChanged. The pull request's head was
// f1 (a.txt changed on c0) and main moved to m1 (b.txt changed): a head
// rebased onto m1 or with a new message keeps the content, one that adds
// a file or changes a.txt differently changes it, and one whose a.txt is
// back to main's (nothing left against the merge base) is no path of the
// combined diff either.
func TestContentChangedAsGit(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	sig := repos.Signature{Name: "Ann", Email: "ann@example.com", When: time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)}
	f := func(op, path, content string) repos.FileOp {
		return repos.FileOp{Op: op, Path: path, Content: []byte(content)}
	}
	history := []repos.ChangeSet{
		{NewBranch: "main", Message: "init\n", Files: []repos.FileOp{f("create", "a.txt", "a\n"), f("create", "b.txt", "b\n")}},
		{Branch: "main", NewBranch: "c0", Message: "c0 keeper\n", Files: []repos.FileOp{f("create", "keep.txt", "k\n")}},
		{Branch: "c0", NewBranch: "f1", Message: "f1\n", Files: []repos.FileOp{f("update", "a.txt", "A\n")}},
		{Branch: "c0", NewBranch: "amended", Message: "f1, reworded\n", Files: []repos.FileOp{f("update", "a.txt", "A\n")}},
		{Branch: "c0", NewBranch: "other", Message: "f1 otherwise\n", Files: []repos.FileOp{f("update", "a.txt", "AA\n")}},
		{Branch: "f1", NewBranch: "f2", Message: "f2\n", Files: []repos.FileOp{f("create", "c.txt", "c\n")}},
		{Branch: "f1", NewBranch: "reverted", Message: "revert\n", Files: []repos.FileOp{f("update", "a.txt", "a\n")}},
		{Branch: "c0", Message: "m1\n", Files: []repos.FileOp{f("update", "b.txt", "B\n")}},
		{Branch: "c0", NewBranch: "rebased", Message: "f1\n", Files: []repos.FileOp{f("update", "a.txt", "A\n")}},
	}
	want := map[string]bool{"f1": false, "rebased": false, "amended": false, "f2": true, "other": true, "reverted": false}
	for i := range 2 {
		var g gittest.PullBackend = memgit.New()
		if i == 1 {
			disk, err := gitstore.Open(t.TempDir())
			require.NoError(t, err)
			defer disk.Close()
			g = disk
		}
		require.NoError(t, g.Create(ctx, 1, forge.SHA1, "main"))
		for _, c := range history {
			c.Author, c.Committer = sig, sig
			_, err := g.Apply(ctx, 1, c)
			require.NoError(t, err, c.Message)
		}
		for name, changed := range want {
			got, err := g.ContentChanged(ctx, 1, "c0", "f1", name)
			require.NoError(t, err, name)
			assert.Equal(t, changed, got, "backend %d, head %s", i, name)
		}
		_, err := g.ContentChanged(ctx, 1, "c0", "f1", "no-such-branch")
		assert.ErrorIs(t, err, forge.ErrNotFound)
	}
}
