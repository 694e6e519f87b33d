package issues_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/issues"
)

func TestPullCreateAndRefusals(t *testing.T) {
	t.Parallel()
	e := newPullEnv(t)
	ann, bob := e.user("ann"), e.user("bob")
	r := e.repo(ann, "proj", forge.SHA1)
	head := e.commit(ann, r, "main", "feat", "feat\n", op("update", "a.txt", "one\n2\n3\n"), op("create", "c.txt", "c\n"))

	v := e.pull(bob, r, "feat", "main", "Add feat")
	assert.EqualValues(t, 1, v.Issue.Index)
	assert.True(t, v.Issue.IsPull)
	assert.Equal(t, head, v.Pull.HeadCommitID)
	assert.Equal(t, issues.PullMergeable, v.Pull.Status)
	assert.True(t, v.Pull.Mergeable())
	assert.Equal(t, e.tip(r, "main"), v.Pull.MergeBase)
	assert.Equal(t, e.tip(r, "main"), v.BaseCommitID)
	assert.Equal(t, 2, v.Pull.ChangedFiles)
	assert.Equal(t, 2, v.Pull.Additions)
	assert.Equal(t, 1, v.Pull.Deletions)
	assert.Equal(t, 1, v.Pull.CommitsAhead)
	assert.Equal(t, r.ID, v.HeadRepo.ID)
	assert.Equal(t, head, e.gitCLI(r, "rev-parse", "refs/pull/1/head"), "the head is kept in the base repository")

	_, err := e.svc.CreatePull(e.ctx, bob, "ann", "proj", issues.CreatePullOption{Head: "feat", Base: "main", Title: "again"})
	require.ErrorIs(t, err, forge.ErrConflict)
	assert.Equal(t, "pull request already exists for these targets [id: 1, issue_id: 1, head_repo_id: 1, base_repo_id: 1, head_branch: feat, base_branch: main]", err.Error())
	_, err = e.svc.CreatePull(e.ctx, bob, "ann", "proj", issues.CreatePullOption{Head: "main", Base: "main", Title: "same"})
	require.ErrorIs(t, err, forge.ErrInvalid)
	assert.Equal(t, "Invalid PullRequest: There are no changes between the head and the base", err.Error())
	_, err = e.svc.CreatePull(e.ctx, bob, "ann", "proj", issues.CreatePullOption{Head: "ann:main", Base: "main", Title: "same"})
	require.ErrorIs(t, err, forge.ErrInvalid, "owner:branch of the same repository is the same branch")
	_, err = e.svc.CreatePull(e.ctx, bob, "ann", "proj", issues.CreatePullOption{Head: "nope", Base: "main", Title: "x"})
	require.ErrorIs(t, err, forge.ErrNotFound)
	assert.Contains(t, err.Error(), "could not find 'nope'")
	_, err = e.svc.CreatePull(e.ctx, bob, "ann", "proj", issues.CreatePullOption{Head: "feat", Base: "nope", Title: "x"})
	require.ErrorIs(t, err, forge.ErrNotFound)
	_, err = e.svc.CreatePull(e.ctx, bob, "ann", "proj", issues.CreatePullOption{Head: "a:b:c", Base: "main", Title: "x"})
	require.ErrorIs(t, err, forge.ErrNotFound)
	_, err = e.svc.CreatePull(e.ctx, bob, "ann", "proj", issues.CreatePullOption{Head: "feat", Base: "main", Title: " "})
	require.ErrorIs(t, err, forge.ErrInvalid, "the form is validated first")
	assert.Equal(t, "[Title]: Required", err.Error())
	_, err = e.svc.CreatePull(e.ctx, forge.Anonymous, "ann", "proj", issues.CreatePullOption{Head: "feat", Base: "main", Title: "x"})
	require.Error(t, err)

	// Only the index-1 pull request exists; an issue is not a pull request.
	is, err := e.svc.Create(e.ctx, ann, "ann", "proj", issues.CreateIssueOption{Title: "an issue"})
	require.NoError(t, err)
	_, err = e.svc.GetPull(e.ctx, ann, "ann", "proj", is.Issue.Index)
	require.ErrorIs(t, err, issues.ErrPullNotFound)
	list, n, err := e.svc.ListPulls(e.ctx, ann, "ann", "proj", issues.ListPullsOption{})
	require.NoError(t, err)
	assert.EqualValues(t, 1, n)
	require.Len(t, list, 1)
	assert.Equal(t, "Add feat", list[0].Issue.Title)
	byBH, err := e.svc.GetPullByBaseHead(e.ctx, ann, "ann", "proj", "main", "feat")
	require.NoError(t, err)
	assert.EqualValues(t, 1, byBH.Issue.Index)
	_, err = e.svc.GetPullByBaseHead(e.ctx, ann, "ann", "proj", "feat", "main")
	require.ErrorIs(t, err, forge.ErrNotFound)
}

func TestPullPrivateRepoIsNotFoundToStrangers(t *testing.T) {
	t.Parallel()
	e := newPullEnv(t)
	ann, eve := e.user("ann"), e.user("eve")
	r := e.repo(ann, "proj", forge.SHA1)
	e.commit(ann, r, "main", "feat", "feat\n", op("create", "c.txt", "c\n"))
	e.pull(ann, r, "feat", "main", "x")
	e.setPrivate(r)
	_, err := e.svc.GetPull(e.ctx, eve, "ann", "proj", 1)
	require.ErrorIs(t, err, forge.ErrNotFound)
	_, err = e.svc.CreatePull(e.ctx, eve, "ann", "proj", issues.CreatePullOption{Head: "feat", Base: "main", Title: "y"})
	require.ErrorIs(t, err, forge.ErrNotFound)
	err = e.svc.MergePull(e.ctx, eve, "ann", "proj", 1, issues.MergePullOption{})
	require.ErrorIs(t, err, forge.ErrNotFound)
	var buf bytes.Buffer
	require.ErrorIs(t, e.svc.PullDiff(e.ctx, eve, "ann", "proj", 1, "diff", false, &buf), forge.ErrNotFound)
	assert.Zero(t, buf.Len())
}

func TestPullMergeRefusals(t *testing.T) {
	t.Parallel()
	e := newPullEnv(t)
	ann, bob := e.user("ann"), e.user("bob")
	r := e.repo(ann, "proj", forge.SHA1)
	e.commit(ann, r, "main", "feat", "feat\n", op("update", "a.txt", "feat\n2\n3\n"))
	e.commit(ann, r, "main", "other", "other\n", op("update", "a.txt", "other\n2\n3\n"))
	e.pull(bob, r, "feat", "main", "feat")
	e.pull(bob, r, "other", "main", "other")
	mainTip := e.tip(r, "main")

	// bob may read but not write: not allowed to merge.
	err := e.svc.MergePull(e.ctx, bob, "ann", "proj", 1, issues.MergePullOption{Do: issues.MergeStyleMerge})
	require.ErrorIs(t, err, issues.ErrMergeNotAllowed)
	assert.Equal(t, "User not allowed to merge PR", err.Error())

	// A disallowed style.
	e.setRepo(r, func(r *forge.Repository) { r.AllowSquash = false })
	err = e.svc.MergePull(e.ctx, ann, "ann", "proj", 1, issues.MergePullOption{Do: issues.MergeStyleSquash})
	require.ErrorIs(t, err, issues.ErrMergeNotAllowed)
	assert.Equal(t, "squash is not allowed an allowed merge style for this repository", err.Error())
	// A stale head commit id.
	err = e.svc.MergePull(e.ctx, ann, "ann", "proj", 1, issues.MergePullOption{Do: issues.MergeStyleMerge, HeadCommitID: mainTip})
	require.ErrorIs(t, err, forge.ErrConflict)
	assert.Equal(t, "head out of date", err.Error())
	assert.Equal(t, mainTip, e.tip(r, "main"), "refused merges leave the refs")

	require.NoError(t, e.svc.MergePull(e.ctx, ann, "ann", "proj", 1, issues.MergePullOption{Do: issues.MergeStyleMerge}))
	merged, err := e.svc.IsPullMerged(e.ctx, bob, "ann", "proj", 1)
	require.NoError(t, err)
	assert.True(t, merged)
	err = e.svc.MergePull(e.ctx, ann, "ann", "proj", 1, issues.MergePullOption{Do: issues.MergeStyleMerge})
	require.ErrorIs(t, err, issues.ErrMergeNotAllowed, "already merged")

	// The other pull request now conflicts (the push listener recomputed it).
	v := e.get(ann, r, 2)
	assert.Equal(t, issues.PullConflict, v.Pull.Status)
	assert.Equal(t, []string{"a.txt"}, v.Pull.ConflictedFiles)
	tip := e.tip(r, "main")
	err = e.svc.MergePull(e.ctx, ann, "ann", "proj", 2, issues.MergePullOption{Do: issues.MergeStyleMerge})
	require.ErrorIs(t, err, issues.ErrMergeNotAllowed)
	assert.Equal(t, "Please try again later", err.Error())
	assert.Equal(t, tip, e.tip(r, "main"))

	// A closed pull request is not found for merging.
	closed := issues.StateClosed
	_, err = e.svc.EditPull(e.ctx, ann, "ann", "proj", 2, issues.EditPullOption{State: &closed})
	require.NoError(t, err)
	err = e.svc.MergePull(e.ctx, ann, "ann", "proj", 2, issues.MergePullOption{Do: issues.MergeStyleMerge})
	require.ErrorIs(t, err, forge.ErrNotFound)
	// The merged one's state cannot change.
	_, err = e.svc.EditPull(e.ctx, ann, "ann", "proj", 1, issues.EditPullOption{State: &closed})
	require.ErrorIs(t, err, issues.ErrPullMergedState)
	merged, err = e.svc.IsPullMerged(e.ctx, bob, "ann", "proj", 2)
	require.NoError(t, err)
	assert.False(t, merged)
}

func TestPullMergeStyles(t *testing.T) {
	t.Parallel()
	for _, format := range []forge.ObjectFormat{forge.SHA1, forge.SHA256} {
		for _, style := range []issues.MergeStyle{issues.MergeStyleMerge, issues.MergeStyleRebase, issues.MergeStyleRebaseMerge,
			issues.MergeStyleSquash, issues.MergeStyleFastForwardOnly, issues.MergeStyleManuallyMerged} {
			t.Run(string(format)+"/"+string(style), func(t *testing.T) {
				t.Parallel()
				e := newPullEnv(t)
				if format == forge.SHA256 {
					e = newPullEnvSQL(t) // the SHA-256 runs use SQLite
				}
				ann := e.user("ann")
				r := e.repo(ann, "proj", format)
				e.setRepo(r, func(r *forge.Repository) { r.AllowManualMerge = true })
				f1 := e.commit(ann, r, "main", "feat", "feat one\n", op("create", "c.txt", "c\n"))
				f2 := e.commit(ann, r, "", "feat", "feat two\n", op("create", "d.txt", "d\n"))
				if style != issues.MergeStyleFastForwardOnly && style != issues.MergeStyleManuallyMerged {
					e.commit(ann, r, "", "main", "main one\n", op("update", "b.txt", "bb\n"))
				}
				base := e.tip(r, "main")
				e.pull(ann, r, "feat", "main", "Feat")
				opt := issues.MergePullOption{Do: style}
				if style == issues.MergeStyleManuallyMerged {
					// Merged outside: main fast-forwarded to the head by a push.
					e.commitRef(ann, r, "main", base, f2)
					opt.MergeCommitID = f2
				}
				out, err := e.svc.MergePullDetailed(e.ctx, ann, "ann", "proj", 1, opt)
				require.NoError(t, err)
				tip := e.tip(r, "main")
				assert.Equal(t, tip, out.CommitID)
				hexLen := format.HexLen()
				assert.Len(t, tip, hexLen)
				parents := strings.Fields(e.gitCLI(r, "log", "-1", "--format=%P", tip))
				subjects := e.gitCLI(r, "log", "--format=%s", base+".."+tip)
				switch style {
				case issues.MergeStyleMerge:
					assert.Equal(t, []string{base, f2}, parents)
					assert.Equal(t, "Merge pull request 'Feat' (#1) from feat into main\nfeat two\nfeat one", subjects)
				case issues.MergeStyleRebase:
					assert.Len(t, parents, 1)
					assert.Equal(t, "feat two\nfeat one", subjects)
					assert.NotEqual(t, f2, tip, "rebased commits are new")
				case issues.MergeStyleRebaseMerge:
					assert.Len(t, parents, 2)
					assert.Equal(t, base, parents[0])
					assert.NotEqual(t, f2, parents[1])
					assert.Equal(t, "Merge pull request 'Feat' (#1) from feat into main\nfeat two\nfeat one", subjects)
				case issues.MergeStyleSquash:
					assert.Equal(t, []string{base}, parents)
					assert.Equal(t, "Feat (#1)", subjects)
					assert.Equal(t, "ann", e.gitCLI(r, "log", "-1", "--format=%an", tip))
				case issues.MergeStyleFastForwardOnly, issues.MergeStyleManuallyMerged:
					assert.Equal(t, f2, tip)
					assert.Equal(t, []string{f1}, parents)
				}
				assert.Equal(t, "c\n", e.gitCLI(r, "show", tip+":c.txt")+"\n")
				v := e.get(ann, r, 1)
				assert.True(t, v.Pull.HasMerged)
				assert.True(t, v.Issue.IsClosed)
				assert.Equal(t, tip, v.Pull.MergedCommitID)
				assert.Equal(t, "ann", v.Merger.Name)
				if style == issues.MergeStyleManuallyMerged {
					assert.Equal(t, issues.PullManuallyMerged, v.Pull.Status)
				}
				cp, err := e.svc.CommitPull(e.ctx, ann, "ann", "proj", tip)
				require.NoError(t, err)
				assert.EqualValues(t, 1, cp.Issue.Index)
				assert.Contains(t, e.events.kinds(), issues.EventPullMerge)
			})
		}
	}
}

func TestPullFastForwardOnlyRefusedWhenDiverged(t *testing.T) {
	t.Parallel()
	e := newPullEnv(t)
	ann := e.user("ann")
	r := e.repo(ann, "proj", forge.SHA1)
	e.commit(ann, r, "main", "feat", "feat\n", op("create", "c.txt", "c\n"))
	e.commit(ann, r, "", "main", "main\n", op("create", "d.txt", "d\n"))
	e.pull(ann, r, "feat", "main", "x")
	tip := e.tip(r, "main")
	err := e.svc.MergePull(e.ctx, ann, "ann", "proj", 1, issues.MergePullOption{Do: issues.MergeStyleFastForwardOnly})
	require.ErrorIs(t, err, forge.ErrConflict)
	assert.Equal(t, tip, e.tip(r, "main"))
	assert.False(t, e.get(ann, r, 1).Pull.HasMerged)
}

func TestPullAutodetectManualMerge(t *testing.T) {
	t.Parallel()
	for _, on := range []bool{false, true} {
		e := newPullEnv(t)
		ann := e.user("ann")
		r := e.repo(ann, "proj", forge.SHA1)
		e.setRepo(r, func(r *forge.Repository) { r.AutodetectManualMerge = on })
		r.AutodetectManualMerge = on
		head := e.commit(ann, r, "main", "feat", "feat\n", op("create", "c.txt", "c\n"))
		e.pull(ann, r, "feat", "main", "x")
		// main is fast-forwarded to the head by a push.
		e.commitRef(ann, r, "main", e.tip(r, "main"), head)
		v := e.get(ann, r, 1)
		assert.Equal(t, on, v.Pull.HasMerged, "autodetect %v", on)
		assert.Equal(t, on, v.Issue.IsClosed)
		if on {
			assert.Equal(t, issues.PullManuallyMerged, v.Pull.Status)
			assert.Equal(t, head, v.Pull.MergedCommitID)
		}
	}
}

// A pull request created with assignees tells an EventAssign per assignee
// before its EventCreate, as an issue does (Forgejo's NewPullRequest).
func TestPullCreateTellsAssignees(t *testing.T) {
	t.Parallel()
	e := newPullEnv(t)
	ann := e.user("ann")
	r := e.repo(ann, "proj", forge.SHA1)
	e.commit(ann, r, "main", "feat", "feat\n", op("create", "c.txt", "c\n"))
	_, err := e.svc.CreatePull(e.ctx, ann, "ann", "proj", issues.CreatePullOption{Head: "feat", Base: "main", Title: "t",
		Assignees: []string{"ann"}})
	require.NoError(t, err)
	var kinds []issues.EventKind
	var assignees []forge.ID
	for _, ev := range e.events.all() {
		kinds = append(kinds, ev.Kind)
		if ev.Kind == issues.EventAssign {
			require.NotNil(t, ev.Comment)
			assignees = append(assignees, ev.Comment.AssigneeID)
			assert.True(t, ev.Issue.IsPull)
		}
	}
	assert.Equal(t, []issues.EventKind{issues.EventAssign, issues.EventCreate}, kinds)
	assert.Equal(t, []forge.ID{ann.UserID()}, assignees)
}
