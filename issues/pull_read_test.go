package issues_test

import (
	"bytes"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/issues"
)

// TestPullCommitsFilesAndStats: for a commit that adds, modifies, deletes
// and renames files, the files and stats of GET /pulls/{n}/commits equal
// what git show --numstat --name-status says (renames as removed + added,
// repos.md §8), on SHA-1 and SHA-256.
func TestPullCommitsFilesAndStats(t *testing.T) {
	t.Parallel()
	for _, format := range []forge.ObjectFormat{forge.SHA1, forge.SHA256} {
		t.Run(string(format), func(t *testing.T) {
			t.Parallel()
			e := newPullEnv(t)
			ann := e.user("ann")
			r := e.repo(ann, "proj", format)
			e.commit(ann, r, "", "main", "more\n", op("create", "old.txt", "x\ny\nz\n"), op("create", "gone.txt", "g\n"))
			c1 := e.commit(ann, r, "main", "feat", "everything\n",
				op("create", "new.txt", "n1\nn2\n"), op("update", "a.txt", "1\ntwo\n3\nfour\n"),
				op("delete", "gone.txt", ""), repos.FileOp{Op: "update", FromPath: "old.txt", Path: "moved.txt", Content: []byte("x\ny\nz\n")})
			c2 := e.commit(ann, r, "", "feat", "second\n", op("update", "b.txt", "b\nb2\n"))
			e.pull(ann, r, "feat", "main", "x")

			v, err := e.svc.PullCommits(e.ctx, ann, "ann", "proj", 1, issues.PullCommitsOption{Files: true, ListOptions: forge.ListOptions{Page: 1, Limit: 1}})
			require.NoError(t, err)
			assert.EqualValues(t, 2, v.Total)
			require.Len(t, v.Commits, 1)
			assert.Equal(t, c2, v.Commits[0].ID, "newest first")
			v, err = e.svc.PullCommits(e.ctx, ann, "ann", "proj", 1, issues.PullCommitsOption{Files: true, ListOptions: forge.ListOptions{Page: 2, Limit: 1}})
			require.NoError(t, err)
			require.Len(t, v.Commits, 1)
			c := v.Commits[0]
			assert.Equal(t, c1, c.ID)

			// git's view of the same commit.
			status := map[string]string{"A": "added", "D": "removed", "M": "modified"}
			var want []string
			for _, l := range strings.Split(e.gitCLI(r, "show", "--no-renames", "--format=", "--name-status", c1), "\n") {
				f := strings.Fields(l)
				want = append(want, f[1]+" "+status[f[0]])
			}
			adds, dels := 0, 0
			for _, l := range strings.Split(e.gitCLI(r, "show", "--no-renames", "--format=", "--numstat", c1), "\n") {
				f := strings.Fields(l)
				a, _ := strconv.Atoi(f[0])
				d, _ := strconv.Atoi(f[1])
				adds, dels = adds+a, dels+d
			}
			var got []string
			for _, f := range c.Files {
				got = append(got, f.Filename+" "+f.Status)
			}
			sort.Strings(want)
			sort.Strings(got)
			assert.Equal(t, want, got)
			assert.Equal(t, []string{"a.txt modified", "gone.txt removed", "moved.txt added", "new.txt added", "old.txt removed"}, got)
			total, a, d := issues.CommitStats(c)
			assert.Equal(t, adds, a)
			assert.Equal(t, dels, d)
			assert.Equal(t, adds+dels, total)

			// The pull request's files find the rename.
			fv, err := e.svc.PullFiles(e.ctx, ann, "ann", "proj", 1, issues.PullFilesOption{})
			require.NoError(t, err)
			var names []string
			for _, f := range fv.Files {
				names = append(names, f.Filename+" "+f.Status+" "+f.PreviousFilename)
			}
			assert.ElementsMatch(t, []string{"a.txt changed ", "b.txt changed ", "gone.txt deleted ", "moved.txt renamed old.txt", "new.txt added "}, names)
			assert.EqualValues(t, 5, fv.Total)
			page, err := e.svc.PullFiles(e.ctx, ann, "ann", "proj", 1, issues.PullFilesOption{ListOptions: forge.ListOptions{Page: 2, Limit: 2}})
			require.NoError(t, err)
			assert.Len(t, page.Files, 2)

			var diff, patch bytes.Buffer
			require.NoError(t, e.svc.PullDiff(e.ctx, ann, "ann", "proj", 1, "diff", false, &diff))
			assert.Contains(t, diff.String(), "+++ b/new.txt")
			require.NoError(t, e.svc.PullDiff(e.ctx, ann, "ann", "proj", 1, "patch", false, &patch))
			assert.Contains(t, patch.String(), "Subject: [PATCH 1/2] everything")
			require.ErrorIs(t, e.svc.PullDiff(e.ctx, ann, "ann", "proj", 1, "zip", false, &patch), forge.ErrNotFound)

			cmp, err := e.svc.Compare(e.ctx, ann, "ann", "proj", "main...feat")
			require.NoError(t, err)
			assert.Equal(t, 2, cmp.TotalCommits)
			require.Len(t, cmp.Commits, 2)
			assert.Equal(t, c2, cmp.Commits[0].ID)
			var cf []string
			for _, f := range cmp.Files {
				cf = append(cf, f.Filename+" "+f.Status)
			}
			assert.Contains(t, cf, "a.txt modified", "/compare calls a changed file modified")
			_, err = e.svc.Compare(e.ctx, ann, "ann", "proj", "main...nope")
			require.ErrorIs(t, err, forge.ErrNotFound)
			_, err = e.svc.Compare(e.ctx, ann, "ann", "proj", "main")
			require.ErrorIs(t, err, forge.ErrNotFound)
		})
	}
}

func TestPullEditAndUpdate(t *testing.T) {
	t.Parallel()
	e := newPullEnv(t)
	ann, bob, eve := e.user("ann"), e.user("bob"), e.user("eve")
	r := e.repo(ann, "proj", forge.SHA1)
	fork := mustFork(t, e, bob, r)
	e.commit(bob, fork, "main", "feat", "feat\n", op("create", "c.txt", "c\n"))
	e.commit(ann, r, "main", "dev", "dev\n", op("create", "dev.txt", "d\n"))
	e.pull(bob, r, "bob:feat", "main", "Feat")

	title := "Better"
	v, err := e.svc.EditPull(e.ctx, bob, "ann", "proj", 1, issues.EditPullOption{Title: &title})
	require.NoError(t, err)
	assert.Equal(t, "Better", v.Issue.Title)
	_, err = e.svc.EditPull(e.ctx, eve, "ann", "proj", 1, issues.EditPullOption{Title: &title})
	require.ErrorIs(t, err, issues.ErrNotPoster)
	// bob (poster, not writer) cannot change the base: silently ignored.
	dev := "dev"
	v, err = e.svc.EditPull(e.ctx, bob, "ann", "proj", 1, issues.EditPullOption{Base: &dev})
	require.NoError(t, err)
	assert.Equal(t, "main", v.Pull.BaseBranch)
	v, err = e.svc.EditPull(e.ctx, ann, "ann", "proj", 1, issues.EditPullOption{Base: &dev})
	require.NoError(t, err)
	assert.Equal(t, "dev", v.Pull.BaseBranch)
	assert.Equal(t, e.tip(r, "dev"), v.BaseCommitID)
	// Another pull request from feat into main exists: moving back to main is a conflict, nothing changes.
	e.pull(bob, r, "bob:feat", "main", "Feat again")
	mainBase, other := "main", "other title"
	_, err = e.svc.EditPull(e.ctx, ann, "ann", "proj", 1, issues.EditPullOption{Base: &mainBase, Title: &other})
	require.ErrorIs(t, err, forge.ErrConflict)
	assert.Equal(t, "Better", e.get(ann, r, 1).Issue.Title)
	nope := "nope"
	_, err = e.svc.EditPull(e.ctx, ann, "ann", "proj", 1, issues.EditPullOption{Base: &nope})
	require.ErrorIs(t, err, forge.ErrNotFound)
	assert.Equal(t, "new base 'nope' not exist", err.Error())

	// The base moves: bob updates his head by merge, then by rebase.
	e.commit(ann, r, "", "dev", "dev2\n", op("create", "dev2.txt", "d2\n"))
	assert.Equal(t, 2, e.get(ann, r, 1).Pull.CommitsBehind, "dev's two commits")
	require.ErrorIs(t, e.svc.UpdatePull(e.ctx, eve, "ann", "proj", 1, issues.UpdateStyleMerge), forge.ErrForbidden)
	require.NoError(t, e.svc.UpdatePull(e.ctx, bob, "ann", "proj", 1, issues.UpdateStyleMerge))
	head := e.tip(fork, "feat")
	assert.Equal(t, "Merge branch 'dev' into feat", e.gitCLI(fork, "log", "-1", "--format=%s", head))
	v = e.get(ann, r, 1)
	assert.Equal(t, head, v.Pull.HeadCommitID)
	assert.Equal(t, 0, v.Pull.CommitsBehind)

	e.commit(ann, r, "", "dev", "dev3\n", op("create", "dev3.txt", "d3\n"))
	require.NoError(t, e.svc.UpdatePull(e.ctx, bob, "ann", "proj", 1, issues.UpdateStyleRebase))
	head = e.tip(fork, "feat")
	assert.Equal(t, e.tip(r, "dev"), e.gitCLI(fork, "merge-base", head, e.tip(r, "dev")), "rebased onto dev")
	assert.Equal(t, 0, e.get(ann, r, 1).Pull.CommitsBehind)
}

func TestPullListPinAndCandidates(t *testing.T) {
	t.Parallel()
	e := newPullEnv(t)
	ann, bob, cat := e.user("ann"), e.user("bob"), e.user("cat")
	r := e.repo(ann, "proj", forge.SHA1)
	require.NoError(t, e.repos.AddCollaborator(e.ctx, ann, "ann", "proj", "bob", forge.AccessModeWrite))
	require.NoError(t, e.repos.AddCollaborator(e.ctx, ann, "ann", "proj", "cat", forge.AccessModeRead))
	e.commit(ann, r, "main", "f1", "f1\n", op("create", "1.txt", "1\n"))
	e.commit(ann, r, "main", "f2", "f2\n", op("create", "2.txt", "2\n"))
	e.pull(ann, r, "f1", "main", "one")
	e.pull(bob, r, "f2", "main", "two")
	closed := issues.StateClosed
	_, err := e.svc.EditPull(e.ctx, ann, "ann", "proj", 1, issues.EditPullOption{State: &closed})
	require.NoError(t, err)

	list, n, err := e.svc.ListPulls(e.ctx, cat, "ann", "proj", issues.ListPullsOption{})
	require.NoError(t, err)
	assert.EqualValues(t, 1, n)
	assert.Equal(t, "two", list[0].Issue.Title)
	list, n, err = e.svc.ListPulls(e.ctx, cat, "ann", "proj", issues.ListPullsOption{State: issues.StateAll, Sort: issues.PullSortOldest})
	require.NoError(t, err)
	assert.EqualValues(t, 2, n)
	assert.Equal(t, "one", list[0].Issue.Title)
	list, _, err = e.svc.ListPulls(e.ctx, cat, "ann", "proj", issues.ListPullsOption{State: issues.StateAll, Poster: "bob"})
	require.NoError(t, err)
	require.Len(t, list, 1)
	assert.Equal(t, "two", list[0].Issue.Title)

	require.NoError(t, e.svc.Pin(e.ctx, ann, "ann", "proj", 2))
	pinned, err := e.svc.PinnedPulls(e.ctx, cat, "ann", "proj")
	require.NoError(t, err)
	require.Len(t, pinned, 1)
	assert.EqualValues(t, 2, pinned[0].Issue.Index)

	names := func(us []*forge.User) []string {
		var out []string
		for _, u := range us {
			out = append(out, u.Name)
		}
		return out
	}
	rev, err := e.svc.ReviewerCandidates(e.ctx, ann, "ann", "proj")
	require.NoError(t, err)
	assert.Equal(t, []string{"ann", "bob", "cat"}, names(rev), "the caller too")
	as, err := e.svc.AssigneeCandidates(e.ctx, cat, "ann", "proj")
	require.NoError(t, err)
	assert.Equal(t, []string{"ann", "bob"}, names(as))
}

func TestPullScheduledMerge(t *testing.T) {
	t.Parallel()
	e := newPullEnv(t)
	ann := e.user("ann")
	r := e.repo(ann, "proj", forge.SHA1)
	_, err := e.repos.CreateProtection(e.ctx, ann, "ann", "proj", repos.BranchProtection{RuleName: "main",
		EnableStatusCheck: true, StatusCheckContexts: []string{"ci"}})
	require.NoError(t, err)
	e.commit(ann, r, "main", "feat", "feat\n", op("create", "c.txt", "c\n"))
	e.pull(ann, r, "feat", "main", "x")
	err = e.svc.MergePull(e.ctx, ann, "ann", "proj", 1, issues.MergePullOption{Do: issues.MergeStyleMerge})
	require.ErrorIs(t, err, issues.ErrMergeNotAllowed)
	assert.Equal(t, "not allowed to merge [reason: Not all required status checks successful]", err.Error())
	out, err := e.svc.MergePullDetailed(e.ctx, ann, "ann", "proj", 1, issues.MergePullOption{Do: issues.MergeStyleMerge, MergeWhenChecksSucceed: true})
	require.NoError(t, err)
	assert.True(t, out.Scheduled)
	_, err = e.svc.MergePullDetailed(e.ctx, ann, "ann", "proj", 1, issues.MergePullOption{Do: issues.MergeStyleMerge, MergeWhenChecksSucceed: true})
	require.ErrorIs(t, err, forge.ErrConflict)
	require.NoError(t, e.svc.CancelScheduledMerge(e.ctx, ann, "ann", "proj", 1))
	require.ErrorIs(t, e.svc.CancelScheduledMerge(e.ctx, ann, "ann", "proj", 1), forge.ErrNotFound)
	// Scheduled again with a squash: a pending status keeps it waiting, a
	// successful one merges it as scheduled.
	out, err = e.svc.MergePullDetailed(e.ctx, ann, "ann", "proj", 1, issues.MergePullOption{Do: issues.MergeStyleSquash,
		MergeTitleField: "Squashed", MergeWhenChecksSucceed: true})
	require.NoError(t, err)
	require.True(t, out.Scheduled)
	head := e.tip(r, "feat")
	_, _, err = e.repos.CreateStatus(e.ctx, ann, "ann", "proj", head, repos.CommitStatus{State: repos.StatusPending, Context: "ci"})
	require.NoError(t, err)
	merged, err := e.ports.ChecksChanged(e.ctx, r, head)
	require.NoError(t, err)
	assert.Empty(t, merged)
	assert.False(t, e.get(ann, r, 1).Pull.HasMerged)
	_, _, err = e.repos.CreateStatus(e.ctx, ann, "ann", "proj", head, repos.CommitStatus{State: repos.StatusSuccess, Context: "ci"})
	require.NoError(t, err)
	merged, err = e.ports.ChecksChanged(e.ctx, r, head)
	require.NoError(t, err)
	assert.Equal(t, []int64{1}, merged)
	v := e.get(ann, r, 1)
	assert.True(t, v.Pull.HasMerged)
	assert.Equal(t, "Squashed", e.gitCLI(r, "log", "-1", "--format=%s", "main"))
	require.ErrorIs(t, e.svc.CancelScheduledMerge(e.ctx, ann, "ann", "proj", 1), forge.ErrNotFound, "the schedule is gone")
}

func TestPullReadOnlyToken(t *testing.T) {
	t.Parallel()
	e := newPullEnv(t)
	ann := e.user("ann")
	r := e.repo(ann, "proj", forge.SHA1)
	e.commit(ann, r, "main", "feat", "feat\n", op("create", "c.txt", "c\n"))
	e.pull(ann, r, "feat", "main", "x")
	tok := forgetestTokenFor(ann, "read:repository")
	_, err := e.svc.GetPull(e.ctx, tok, "ann", "proj", 1)
	require.NoError(t, err)
	_, err = e.svc.PinnedPulls(e.ctx, tok, "ann", "proj")
	require.NoError(t, err, "the pull routes need the repository scope, not the issue scope")
	_, err = e.svc.GetPull(e.ctx, forgetestTokenFor(ann, "read:issue"), "ann", "proj", 1)
	require.ErrorIs(t, err, forge.ErrForbidden)
	err = e.svc.MergePull(e.ctx, tok, "ann", "proj", 1, issues.MergePullOption{Do: issues.MergeStyleMerge})
	require.ErrorIs(t, err, forge.ErrForbidden, "read cannot write")
	_, err = e.svc.CreatePull(e.ctx, tok, "ann", "proj", issues.CreatePullOption{Head: "feat", Base: "main", Title: "y"})
	require.ErrorIs(t, err, forge.ErrForbidden)
	assert.False(t, e.get(ann, r, 1).Pull.HasMerged)
}

func TestPullAllowMaintainerEditIsThePosters(t *testing.T) {
	t.Parallel()
	e := newPullEnv(t)
	ann, bob := e.user("ann"), e.user("bob")
	r := e.repo(ann, "proj", forge.SHA1)
	e.commit(bob, mustFork(t, e, bob, r), "main", "feat", "feat\n", op("create", "c.txt", "c\n"))
	e.pull(bob, r, "bob:feat", "main", "x")
	yes, title := true, "changed"
	_, err := e.svc.EditPull(e.ctx, ann, "ann", "proj", 1, issues.EditPullOption{AllowMaintainerEdit: &yes, Title: &title})
	require.ErrorIs(t, err, forge.ErrForbidden)
	v := e.get(ann, r, 1)
	assert.False(t, v.Pull.AllowMaintainerEdit)
	assert.Equal(t, "x", v.Issue.Title, "nothing changed")
	v, err = e.svc.EditPull(e.ctx, bob, "ann", "proj", 1, issues.EditPullOption{AllowMaintainerEdit: &yes})
	require.NoError(t, err)
	assert.True(t, v.Pull.AllowMaintainerEdit)
}
