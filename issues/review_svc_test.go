package issues_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/issues"
)

// TestPullStaleApprovalsThroughService: with required_approvals 1, bob's
// approval lets ann merge; a push to the head makes it stale and, per the
// rule's settings, dismissed or not counted, refusing the merge as Forgejo
// does, or still counted.
func TestPullStaleApprovalsThroughService(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name            string
		dismiss, ignore bool
		wantDismissed   bool
		wantMergeable   bool
	}{
		{"neither", false, false, false, true},
		{"dismiss", true, false, true, false},
		{"ignore", false, true, false, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			e := newPullEnv(t)
			if c.name == "dismiss" {
				e = newPullEnvSQL(t)
			}
			ann, bob, cat := e.user("ann"), e.user("bob"), e.user("cat")
			r := e.repo(ann, "proj", forge.SHA1)
			require.NoError(t, e.repos.AddCollaborator(e.ctx, ann, "ann", "proj", "bob", forge.AccessModeWrite))
			_, err := e.repos.CreateProtection(e.ctx, ann, "ann", "proj", repos.BranchProtection{RuleName: "main",
				RequiredApprovals: 1, DismissStaleApprovals: c.dismiss, IgnoreStaleApprovals: c.ignore})
			require.NoError(t, err)
			e.commit(cat, mustFork(t, e, cat, r), "main", "feat", "feat\n", op("create", "c.txt", "c\n"))
			e.pull(cat, r, "cat:feat", "main", "feat")

			err = e.svc.MergePull(e.ctx, ann, "ann", "proj", 1, issues.MergePullOption{Do: issues.MergeStyleMerge})
			require.ErrorIs(t, err, issues.ErrMergeNotAllowed)
			assert.Equal(t, "not allowed to merge [reason: Does not have enough approvals]", err.Error())

			_, err = e.svc.CreateReview(e.ctx, cat, "ann", "proj", 1, issues.CreateReviewOption{Event: issues.ReviewStateApproved})
			require.ErrorIs(t, err, forge.ErrInvalid)
			assert.Equal(t, "approve your own pull is not allowed", err.Error())
			rv, err := e.svc.CreateReview(e.ctx, bob, "ann", "proj", 1, issues.CreateReviewOption{Event: issues.ReviewStateApproved, Body: "ok"})
			require.NoError(t, err)
			assert.True(t, rv.Review.Official)
			assert.False(t, rv.Review.Stale)
			assert.Equal(t, issues.ReviewStateApproved, rv.Review.Type.State())

			// cat pushes to the head.
			fork := forkOf(t, e, cat)
			e.commit(cat, fork, "", "feat", "more\n", op("create", "d.txt", "d\n"))
			v := e.get(ann, r, 1)
			assert.Equal(t, e.tip(fork, "feat"), v.Pull.HeadCommitID, "the push listener synchronised the head")
			got, err := e.svc.GetReview(e.ctx, ann, "ann", "proj", 1, rv.Review.ID)
			require.NoError(t, err)
			assert.True(t, got.Review.Stale)
			assert.Equal(t, c.wantDismissed, got.Review.Dismissed)
			assert.Equal(t, issues.ReviewApprove, got.Review.Type, "a dismissed approval keeps its state")

			err = e.svc.MergePull(e.ctx, ann, "ann", "proj", 1, issues.MergePullOption{Do: issues.MergeStyleMerge})
			if c.wantMergeable {
				require.NoError(t, err)
				return
			}
			require.ErrorIs(t, err, issues.ErrMergeNotAllowed)
			assert.Equal(t, "not allowed to merge [reason: Does not have enough approvals]", err.Error())
			// An admin's force merge passes the protection.
			require.NoError(t, e.svc.MergePull(e.ctx, ann, "ann", "proj", 1, issues.MergePullOption{Do: issues.MergeStyleMerge, ForceMerge: true}))
		})
	}
}

func mustFork(t *testing.T, e *pullEnv, owner forge.Actor, r *forge.Repository) *forge.Repository {
	t.Helper()
	v, err := e.repos.Fork(e.ctx, owner, r.OwnerName, r.Name, r.Name)
	require.NoError(t, err)
	return v.Repo
}

func forkOf(t *testing.T, e *pullEnv, owner forge.Actor) *forge.Repository {
	t.Helper()
	r, _, err := e.repos.RepoAccess(e.ctx, owner, owner.User.Name, "proj")
	require.NoError(t, err)
	return r
}

func TestPullPushRecordsCommitsAndEvents(t *testing.T) {
	t.Parallel()
	e := newPullEnv(t)
	ann := e.user("ann")
	r := e.repo(ann, "proj", forge.SHA256)
	e.commit(ann, r, "main", "feat", "one\n", op("create", "c.txt", "c\n"))
	e.pull(ann, r, "feat", "main", "x")
	c2 := e.commit(ann, r, "", "feat", "two\n", op("create", "d.txt", "d\n"))
	c3 := e.commit(ann, r, "", "feat", "three\n", op("create", "e.txt", "e\n"))
	tl, _, err := e.svc.Timeline(e.ctx, ann, "ann", "proj", 1, issues.ListCommentsOption{})
	require.NoError(t, err)
	var pushes []map[string]any
	for _, c := range tl {
		if c.Comment.Type == issues.CommentPullPush {
			var m map[string]any
			require.NoError(t, json.Unmarshal([]byte(c.Comment.Content), &m))
			pushes = append(pushes, m)
		}
	}
	require.Len(t, pushes, 2)
	assert.Equal(t, []any{c2}, pushes[0]["commit_ids"])
	assert.Equal(t, []any{c3}, pushes[1]["commit_ids"])
	assert.Equal(t, false, pushes[1]["is_force_push"])
	assert.Contains(t, e.events.kinds(), issues.EventPullSync)
	assert.Equal(t, c3, e.get(ann, r, 1).Pull.HeadCommitID)
	assert.Equal(t, 3, e.get(ann, r, 1).Pull.CommitsAhead)
}

func TestPullReviews(t *testing.T) {
	t.Parallel()
	e := newPullEnv(t)
	ann, bob, eve := e.user("ann"), e.user("bob"), e.user("eve")
	r := e.repo(ann, "proj", forge.SHA1)
	e.commit(ann, r, "main", "feat", "feat\n", op("update", "a.txt", "one\n2\n3\n"))
	e.pull(ann, r, "feat", "main", "x")

	// A pending review with a line comment, invisible to others until submitted.
	pend, err := e.svc.CreateReview(e.ctx, bob, "ann", "proj", 1, issues.CreateReviewOption{
		Comments: []issues.CreateReviewCommentOption{{Path: "a.txt", Body: "why?", NewLineNum: 1}, {Path: "a.txt", Body: "old", OldLineNum: 1}}})
	require.NoError(t, err)
	assert.Equal(t, issues.ReviewPending, pend.Review.Type)
	assert.Equal(t, 2, pend.CodeComments)
	_, err = e.svc.GetReview(e.ctx, eve, "ann", "proj", 1, pend.Review.ID)
	require.ErrorIs(t, err, forge.ErrNotFound)
	list, _, err := e.svc.ListReviews(e.ctx, eve, "ann", "proj", 1, forge.ListOptions{})
	require.NoError(t, err)
	assert.Empty(t, list)
	cs, err := e.svc.ReviewComments(e.ctx, bob, "ann", "proj", 1, pend.Review.ID)
	require.NoError(t, err)
	require.Len(t, cs, 2)
	assert.EqualValues(t, 1, cs[0].Comment.Line)
	assert.EqualValues(t, -1, cs[1].Comment.Line)
	assert.Equal(t, "a.txt", cs[0].Comment.TreePath)
	assert.Equal(t, e.tip(r, "feat"), cs[0].Comment.CommitSHA)
	assert.Contains(t, cs[0].Comment.Patch, "@@ -1,1 +1,1 @@\n-1\n+one", "the diff hunk up to the new line")
	assert.True(t, strings.HasSuffix(cs[1].Comment.Patch, "@@ -1,1 +1,0 @@\n-1"), "the hunk up to the old line: %q", cs[1].Comment.Patch)
	extra, err := e.svc.CreateReviewComment(e.ctx, bob, "ann", "proj", 1, pend.Review.ID, issues.CreateReviewCommentOption{Path: "b.txt", Body: "and this", NewLineNum: 1})
	require.NoError(t, err)
	_, err = e.svc.CreateReviewComment(e.ctx, ann, "ann", "proj", 1, pend.Review.ID, issues.CreateReviewCommentOption{Path: "b.txt", Body: "x", NewLineNum: 1})
	require.ErrorIs(t, err, forge.ErrNotFound, "another user's pending review is not found")
	require.NoError(t, e.svc.DeleteReviewComment(e.ctx, bob, "ann", "proj", 1, pend.Review.ID, extra.Comment.ID))
	_, err = e.svc.GetReviewComment(e.ctx, bob, "ann", "proj", 1, pend.Review.ID, extra.Comment.ID)
	require.ErrorIs(t, err, forge.ErrNotFound)

	_, err = e.svc.SubmitReview(e.ctx, bob, "ann", "proj", 1, pend.Review.ID, issues.SubmitReviewOption{Event: issues.ReviewStateRequestChanges})
	require.ErrorIs(t, err, forge.ErrInvalid)
	assert.Equal(t, "review event REQUEST_CHANGES requires a body", err.Error())
	sub, err := e.svc.SubmitReview(e.ctx, bob, "ann", "proj", 1, pend.Review.ID, issues.SubmitReviewOption{Event: issues.ReviewStateComment})
	require.NoError(t, err)
	assert.Equal(t, issues.ReviewComment, sub.Review.Type)
	assert.Equal(t, pend.Review.ID, sub.Review.ID)
	_, err = e.svc.SubmitReview(e.ctx, bob, "ann", "proj", 1, pend.Review.ID, issues.SubmitReviewOption{Event: issues.ReviewStateComment, Body: "x"})
	require.ErrorIs(t, err, forge.ErrInvalid)
	assert.Equal(t, "only a pending review can be submitted", err.Error())
	list, n, err := e.svc.ListReviews(e.ctx, eve, "ann", "proj", 1, forge.ListOptions{})
	require.NoError(t, err)
	assert.EqualValues(t, 1, n)
	require.Len(t, list, 1)
	assert.Equal(t, 2, list[0].CodeComments)

	_, err = e.svc.CreateReview(e.ctx, bob, "ann", "proj", 1, issues.CreateReviewOption{Event: issues.ReviewStateComment})
	require.ErrorIs(t, err, forge.ErrInvalid)
	assert.Equal(t, "review event COMMENT requires a body or a comment", err.Error())

	// Requests: ann asks bob and eve; bob is not a collaborator but may
	// read a public repository.
	reqs, err := e.svc.RequestReviews(e.ctx, ann, "ann", "proj", 1, issues.ReviewRequestOption{Reviewers: []string{"bob", "eve"}})
	require.NoError(t, err)
	require.Len(t, reqs, 2)
	assert.Equal(t, issues.ReviewStateRequestReview, reqs[0].Review.Type.State())
	v := e.get(ann, r, 1)
	assert.Len(t, v.RequestedReviewers, 2)
	_, err = e.svc.RequestReviews(e.ctx, ann, "ann", "proj", 1, issues.ReviewRequestOption{Reviewers: []string{"ann"}})
	require.ErrorIs(t, err, forge.ErrInvalid, "the poster cannot review")
	_, err = e.svc.RequestReviews(e.ctx, ann, "ann", "proj", 1, issues.ReviewRequestOption{Reviewers: []string{"nobody"}})
	require.ErrorIs(t, err, forge.ErrNotFound)
	_, err = e.svc.RequestReviews(e.ctx, eve, "ann", "proj", 1, issues.ReviewRequestOption{Reviewers: []string{"bob"}})
	require.ErrorIs(t, err, forge.ErrInvalid, "a stranger may not ask")
	assert.Equal(t, fmt.Sprintf("Doer can't choose reviewer [user_id: %d, repo_id: %d]", eve.UserID(), r.ID), err.Error())
	require.NoError(t, e.svc.CancelReviewRequests(e.ctx, ann, "ann", "proj", 1, issues.ReviewRequestOption{Reviewers: []string{"eve"}}))
	assert.Len(t, e.get(ann, r, 1).RequestedReviewers, 1)

	// Reviewing answers the request; dismissal is for admins.
	rej, err := e.svc.CreateReview(e.ctx, bob, "ann", "proj", 1, issues.CreateReviewOption{Event: issues.ReviewStateRequestChanges, Body: "no"})
	require.NoError(t, err)
	assert.False(t, rej.Review.Official, "bob cannot write: not official")
	rr := e.get(ann, r, 1).RequestedReviewers
	require.Len(t, rr, 1, "the request is answered, the reviewer stays listed (observed on Forgejo)")
	assert.Equal(t, "bob", rr[0].Name)
	_, err = e.svc.DismissReview(e.ctx, bob, "ann", "proj", 1, rej.Review.ID, issues.DismissReviewOption{Message: "x"})
	require.ErrorIs(t, err, forge.ErrForbidden)
	assert.Equal(t, "Must be repo admin", err.Error())
	_, err = e.svc.DismissReview(e.ctx, ann, "ann", "proj", 1, sub.Review.ID, issues.DismissReviewOption{Message: "x"})
	require.ErrorIs(t, err, forge.ErrForbidden, "a comment review is not dismissed")
	d, err := e.svc.DismissReview(e.ctx, ann, "ann", "proj", 1, rej.Review.ID, issues.DismissReviewOption{Message: "outdated"})
	require.NoError(t, err)
	assert.True(t, d.Review.Dismissed)
	u, err := e.svc.UndismissReview(e.ctx, ann, "ann", "proj", 1, rej.Review.ID)
	require.NoError(t, err)
	assert.False(t, u.Review.Dismissed)

	require.ErrorIs(t, e.svc.DeleteReview(e.ctx, ann, "ann", "proj", 1, rej.Review.ID), forge.ErrForbidden, "not the reviewer")
	require.NoError(t, e.svc.DeleteReview(e.ctx, bob, "ann", "proj", 1, rej.Review.ID))
	_, err = e.svc.GetReview(e.ctx, bob, "ann", "proj", 1, rej.Review.ID)
	require.ErrorIs(t, err, forge.ErrNotFound)
	assert.Contains(t, e.events.kinds(), issues.EventPullReview)
}
