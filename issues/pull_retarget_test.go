package issues_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/issues"
)

// retargetFixture: ann/proj with b1 (from main) and b2 (from b1), PR1
// b1→main, PR2 b2→b1, and PR3 from bob's fork (branch fb, from b1) into
// b1.
func retargetFixture(t *testing.T, e *pullEnv) (ann, bob forge.Actor, r, fork *forge.Repository) {
	ann, bob = e.user("ann"), e.user("bob")
	r = e.repo(ann, "proj", forge.SHA1)
	e.commit(ann, r, "main", "b1", "b1\n", op("create", "one.txt", "1\n"))
	e.commit(ann, r, "b1", "b2", "b2\n", op("create", "two.txt", "2\n"))
	fv, err := e.repos.Fork(e.ctx, bob, "ann", "proj", "proj")
	require.NoError(t, err)
	fork = fv.Repo
	e.commit(bob, fork, "b1", "fb", "fb\n", op("create", "three.txt", "3\n"))
	e.pull(ann, r, "b1", "main", "PR1")
	e.pull(ann, r, "b2", "b1", "PR2")
	e.pull(bob, r, "bob:fb", "b1", "PR3")
	return ann, bob, r, fork
}

func TestPullRetargetOnMergeWithBranchDeletion(t *testing.T) {
	t.Parallel()
	t.Run("memstore", func(t *testing.T) { t.Parallel(); testRetargetOnMerge(t, newPullEnv(t)) })
	t.Run("sqlite", func(t *testing.T) { t.Parallel(); testRetargetOnMerge(t, newPullEnvSQL(t)) })
}

func testRetargetOnMerge(t *testing.T, e *pullEnv) {
	ann, bob, r, fork := retargetFixture(t, e)
	assert.Equal(t, fork.ID, e.get(ann, r, 3).Pull.HeadRepoID)
	del := true
	require.NoError(t, e.svc.MergePull(e.ctx, ann, "ann", "proj", 1, issues.MergePullOption{Do: issues.MergeStyleMerge, DeleteBranchAfterMerge: &del}))
	assert.False(t, e.hasBranch(r, "b1"), "the head branch is deleted")
	tl1, _, err := e.svc.Timeline(e.ctx, ann, "ann", "proj", 1, issues.ListCommentsOption{})
	require.NoError(t, err)
	var types []issues.CommentType
	for _, c := range tl1 {
		types = append(types, c.Comment.Type)
	}
	assert.Equal(t, []issues.CommentType{issues.CommentMergePull, issues.CommentDeleteBranch}, types)
	for _, idx := range []int64{2, 3} {
		v := e.get(bob, r, idx)
		assert.False(t, v.Issue.IsClosed, "PR%d stays open", idx)
		assert.Equal(t, "main", v.Pull.BaseBranch, "PR%d is retargeted to the merged pull request's base", idx)
		assert.Equal(t, issues.PullMergeable, v.Pull.Status)
	}
	tl, _, err := e.svc.Timeline(e.ctx, ann, "ann", "proj", 2, issues.ListCommentsOption{})
	require.NoError(t, err)
	var change *issues.Comment
	for _, c := range tl {
		if c.Comment.Type == issues.CommentChangeTargetBranch {
			change = c.Comment
		}
	}
	require.NotNil(t, change, "a change_target_branch event")
	assert.Equal(t, "b1", change.OldRef)
	assert.Equal(t, "main", change.NewRef)
	// PR2 can now be merged into main.
	require.NoError(t, e.svc.MergePull(e.ctx, ann, "ann", "proj", 2, issues.MergePullOption{Do: issues.MergeStyleMerge}))
	assert.Equal(t, "2", e.gitCLI(r, "show", "main:two.txt"))
}

func TestPullRetargetOffClosesChildren(t *testing.T) {
	t.Parallel()
	e := newPullEnv(t, func(c *issues.PullConfig) { c.NoRetargetChildrenOnMerge = true })
	ann, _, r, _ := retargetFixture(t, e)
	del := true
	require.NoError(t, e.svc.MergePull(e.ctx, ann, "ann", "proj", 1, issues.MergePullOption{Do: issues.MergeStyleMerge, DeleteBranchAfterMerge: &del}))
	for _, idx := range []int64{2, 3} {
		v := e.get(ann, r, idx)
		assert.True(t, v.Issue.IsClosed, "PR%d is closed", idx)
		assert.Equal(t, "b1", v.Pull.BaseBranch)
	}
	open := issues.StateOpen
	_, err := e.svc.EditPull(e.ctx, ann, "ann", "proj", 2, issues.EditPullOption{State: &open})
	require.ErrorIs(t, err, issues.ErrPullReopen)
	assert.Equal(t, "The pull request cannot be reopened, because the base branch doesn't exist anymore.", err.Error())
	assert.True(t, e.get(ann, r, 2).Issue.IsClosed)
}

func TestPullBranchDeletedByPushClosesChildren(t *testing.T) {
	t.Parallel()
	e := newPullEnv(t)
	ann, _, r, _ := retargetFixture(t, e)
	e.deleteBranch(ann, r, "b1")
	for _, idx := range []int64{1, 2, 3} {
		v := e.get(ann, r, idx)
		assert.True(t, v.Issue.IsClosed, "PR%d is closed (head or base deleted)", idx)
		assert.False(t, v.Pull.HasMerged)
	}
	open := issues.StateOpen
	_, err := e.svc.EditPull(e.ctx, ann, "ann", "proj", 1, issues.EditPullOption{State: &open})
	require.ErrorIs(t, err, issues.ErrPullReopen)
	assert.Equal(t, "The pull request cannot be reopened, because the head branch doesn't exist anymore.", err.Error())
}

func TestPullFromForkParentDoesNotRetarget(t *testing.T) {
	t.Parallel()
	e := newPullEnv(t)
	ann, bob := e.user("ann"), e.user("bob")
	r := e.repo(ann, "proj", forge.SHA1)
	fv, err := e.repos.Fork(e.ctx, bob, "ann", "proj", "proj")
	require.NoError(t, err)
	fork := fv.Repo
	e.commit(bob, fork, "main", "fb1", "fb1\n", op("create", "one.txt", "1\n"))
	e.commit(bob, fork, "fb1", "fb2", "fb2\n", op("create", "two.txt", "2\n"))
	e.pull(bob, r, "bob:fb1", "main", "parent from the fork")
	e.pull(bob, fork, "fb2", "fb1", "child in the fork")
	// bob merges the parent (as a writer of ann/proj) and deletes its head.
	require.NoError(t, e.repos.AddCollaborator(e.ctx, ann, "ann", "proj", "bob", forge.AccessModeWrite))
	del := true
	require.NoError(t, e.svc.MergePull(e.ctx, bob, "ann", "proj", 1, issues.MergePullOption{Do: issues.MergeStyleMerge, DeleteBranchAfterMerge: &del}))
	assert.False(t, e.hasBranch(fork, "fb1"))
	child := e.get(bob, fork, 1)
	assert.True(t, child.Issue.IsClosed, "a child of a pull request from another repository is closed, not retargeted")
	assert.Equal(t, "fb1", child.Pull.BaseBranch)
}

func TestPullDeleteBranchAfterMergeRefusals(t *testing.T) {
	t.Parallel()
	e := newPullEnv(t)
	ann, bob := e.user("ann"), e.user("bob")
	r := e.repo(ann, "proj", forge.SHA1)
	fv, err := e.repos.Fork(e.ctx, bob, "ann", "proj", "proj")
	require.NoError(t, err)
	e.commit(bob, fv.Repo, "main", "fb", "fb\n", op("create", "one.txt", "1\n"))
	e.pull(bob, r, "bob:fb", "main", "from the fork")
	del := true
	// ann merges but may not delete bob's branch: Forgejo answers 403 after the merge.
	err = e.svc.MergePull(e.ctx, ann, "ann", "proj", 1, issues.MergePullOption{Do: issues.MergeStyleMerge, DeleteBranchAfterMerge: &del})
	require.ErrorIs(t, err, forge.ErrForbidden)
	assert.Equal(t, "insufficient permission to delete head branch", err.Error())
	assert.True(t, e.get(ann, r, 1).Pull.HasMerged)
	assert.True(t, e.hasBranch(fv.Repo, "fb"))
}
