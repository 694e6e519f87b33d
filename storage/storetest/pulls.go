package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/issues"
)

// testPulls covers issues.PullTx: pull requests, reviews with their code
// comments, scheduled merges, and their cascades with the issue.
func testPulls(t *testing.T, b Backend) {
	ctx := context.Background()
	s := b.Issues()
	ann := newUser(t, b, "pann")
	bob := newUser(t, b, "pbob")
	r := newRepo(t, b, ann, "pulls")
	fork := newRepo(t, b, bob, "pulls-fork")
	pull := func(b string) func(*issues.Issue) { return func(i *issues.Issue) { i.IsPull = true; i.Ref = b } }
	i1 := newIssue(t, s, r.ID, ann.ID, "one", pull("a"))
	i2 := newIssue(t, s, r.ID, bob.ID, "two", pull("b"))
	i3 := newIssue(t, s, r.ID, bob.ID, "three", pull("c"))
	plain := newIssue(t, s, r.ID, ann.ID, "plain")
	merged := issueAt.Add(time.Hour)

	p1 := &issues.PullRequest{IssueID: i1.ID, Index: i1.Index, BaseRepoID: r.ID, HeadRepoID: r.ID, BaseBranch: "main",
		HeadBranch: "a", HeadCommitID: "aaaa", MergeBase: "0000", Status: issues.PullMergeable, Additions: 3,
		Deletions: 1, ChangedFiles: 2, CommitsAhead: 2, AllowMaintainerEdit: true}
	p2 := &issues.PullRequest{IssueID: i2.ID, Index: i2.Index, BaseRepoID: r.ID, HeadRepoID: fork.ID, BaseBranch: "a",
		HeadBranch: "b", HeadCommitID: "bbbb", Status: issues.PullConflict, ConflictedFiles: []string{"x.txt", "y/z"}}
	p3 := &issues.PullRequest{IssueID: i3.ID, Index: i3.Index, BaseRepoID: r.ID, HeadRepoID: r.ID, BaseBranch: "a",
		HeadBranch: "c", HeadCommitID: "cccc", Status: issues.PullChecking}
	issueUpdate(t, s, func(tx issues.Tx) error {
		for _, p := range []*issues.PullRequest{p1, p2, p3} {
			require.NoError(t, tx.CreatePull(ctx, p))
			require.NotZero(t, p.ID)
		}
		return nil
	})
	err := s.Update(ctx, func(tx issues.Tx) error {
		return tx.CreatePull(ctx, &issues.PullRequest{IssueID: i1.ID, Index: i1.Index, BaseRepoID: r.ID, HeadRepoID: r.ID})
	})
	assert.ErrorIs(t, err, forge.ErrConflict, "one pull request per issue")
	err = s.Update(ctx, func(tx issues.Tx) error {
		return tx.CreatePull(ctx, &issues.PullRequest{IssueID: 99999, BaseRepoID: r.ID, HeadRepoID: r.ID})
	})
	assert.ErrorIs(t, err, forge.ErrNotFound)

	t.Run("Read", func(t *testing.T) {
		issueView(t, s, func(tx issues.Tx) error {
			got, err := tx.PullByIssueID(ctx, i2.ID)
			require.NoError(t, err)
			assert.Equal(t, *p2, *got)
			_, err = tx.PullByIssueID(ctx, plain.ID)
			assert.ErrorIs(t, err, forge.ErrNotFound)
			m, err := tx.PullsByIssueID(ctx, []forge.ID{i1.ID, i3.ID, plain.ID, 99999})
			require.NoError(t, err)
			require.Len(t, m, 2)
			assert.Equal(t, *p1, *m[i1.ID])
			assert.Equal(t, *p3, *m[i3.ID])
			m, err = tx.PullsByIssueID(ctx, nil)
			require.NoError(t, err)
			assert.NotNil(t, m)
			assert.Empty(t, m)
			return nil
		})
	})

	t.Run("Find", func(t *testing.T) {
		find := func(f issues.PullFilter) []forge.ID {
			var ids []forge.ID
			issueView(t, s, func(tx issues.Tx) error {
				list, err := tx.FindPulls(ctx, f)
				require.NoError(t, err)
				require.NotNil(t, list)
				for _, p := range list {
					ids = append(ids, p.ID)
				}
				return nil
			})
			return ids
		}
		assert.Equal(t, []forge.ID{p1.ID, p2.ID, p3.ID}, find(issues.PullFilter{BaseRepoID: r.ID}))
		assert.Equal(t, []forge.ID{p2.ID, p3.ID}, find(issues.PullFilter{BaseRepoID: r.ID, BaseBranch: "a"}))
		assert.Equal(t, []forge.ID{p2.ID}, find(issues.PullFilter{HeadRepoID: fork.ID}))
		assert.Equal(t, []forge.ID{p3.ID}, find(issues.PullFilter{HeadRepoID: r.ID, HeadBranch: "c"}))
		assert.Empty(t, find(issues.PullFilter{BaseRepoID: fork.ID}))
		assert.Empty(t, find(issues.PullFilter{}), "a filter without repository or issues matches nothing")
		assert.Empty(t, find(issues.PullFilter{IssueIDs: []forge.ID{}}))
		assert.Equal(t, []forge.ID{p1.ID, p3.ID}, find(issues.PullFilter{IssueIDs: []forge.ID{i3.ID, i1.ID}}))
		assert.Equal(t, []forge.ID{p3.ID}, find(issues.PullFilter{Checking: true}), "Checking alone selects")
		assert.Empty(t, find(issues.PullFilter{Checking: true, BaseRepoID: fork.ID}))
	})

	t.Run("UpdateAndOpen", func(t *testing.T) {
		up := *p1
		up.IssueID, up.Index, up.BaseRepoID = 777, 777, 777 // not written
		up.BaseBranch, up.HeadCommitID, up.HasMerged, up.Merged = "dev", "dddd", true, merged
		up.MergedCommitID, up.MergerID, up.Status, up.ChangedProtectedFiles = "mmmm", bob.ID, issues.PullMergeable, []string{"p"}
		issueUpdate(t, s, func(tx issues.Tx) error { return tx.UpdatePull(ctx, &up) })
		want := up
		want.IssueID, want.Index, want.BaseRepoID = p1.IssueID, p1.Index, p1.BaseRepoID
		issueView(t, s, func(tx issues.Tx) error {
			got, err := tx.PullByIssueID(ctx, i1.ID)
			require.NoError(t, err)
			assert.Equal(t, want, *got)
			list, err := tx.FindPulls(ctx, issues.PullFilter{MergedCommitID: "mmmm", BaseRepoID: r.ID})
			require.NoError(t, err)
			require.Len(t, list, 1)
			assert.Equal(t, p1.ID, list[0].ID)
			return nil
		})
		err := s.Update(ctx, func(tx issues.Tx) error { return tx.UpdatePull(ctx, &issues.PullRequest{ID: 99999}) })
		assert.ErrorIs(t, err, forge.ErrNotFound)
		// Closing the issue of p3: Open leaves out closed and merged pulls.
		issueUpdate(t, s, func(tx issues.Tx) error {
			is, err := tx.IssueByID(ctx, i3.ID)
			require.NoError(t, err)
			is.IsClosed, is.Closed = true, merged
			return tx.UpdateIssue(ctx, is)
		})
		issueView(t, s, func(tx issues.Tx) error {
			list, err := tx.FindPulls(ctx, issues.PullFilter{BaseRepoID: r.ID, Open: true})
			require.NoError(t, err)
			require.Len(t, list, 1)
			assert.Equal(t, p2.ID, list[0].ID)
			return nil
		})
	})

	// MarkPullsChecking: one write marks the open, unmerged pulls of the
	// filter (p1 is merged and p3 closed by now) and returns their issues.
	t.Run("MarkChecking", func(t *testing.T) {
		mark := func(f issues.PullFilter) []forge.ID {
			var ids []forge.ID
			issueUpdate(t, s, func(tx issues.Tx) error {
				var err error
				ids, err = tx.MarkPullsChecking(ctx, f)
				require.NoError(t, err)
				require.NotNil(t, ids)
				return nil
			})
			return ids
		}
		assert.Empty(t, mark(issues.PullFilter{}), "a filter without repository or issues marks nothing")
		assert.Empty(t, mark(issues.PullFilter{BaseRepoID: r.ID, BaseBranch: "main"}), "merged pulls are not marked")
		assert.Empty(t, mark(issues.PullFilter{HeadRepoID: r.ID, HeadBranch: "c"}), "closed pulls are not marked")
		assert.Equal(t, []forge.ID{i2.ID}, mark(issues.PullFilter{BaseRepoID: r.ID}))
		issueView(t, s, func(tx issues.Tx) error {
			got, err := tx.PullByIssueID(ctx, i2.ID)
			require.NoError(t, err)
			want := *p2
			want.Status = issues.PullChecking
			assert.Equal(t, want, *got, "only the status is written")
			list, err := tx.FindPulls(ctx, issues.PullFilter{Checking: true})
			require.NoError(t, err)
			require.Len(t, list, 2)
			assert.Equal(t, []forge.ID{p2.ID, p3.ID}, []forge.ID{list[0].ID, list[1].ID})
			return nil
		})
		assert.Equal(t, []forge.ID{i2.ID}, mark(issues.PullFilter{HeadRepoID: fork.ID, HeadBranch: "b"}), "a pull already checking is returned again")
		issueUpdate(t, s, func(tx issues.Tx) error { return tx.UpdatePull(ctx, p2) })
	})

	t.Run("Reviews", func(t *testing.T) {
		at := issueAt.Add(2 * time.Hour)
		rv1 := &issues.Review{IssueID: i2.ID, Type: issues.ReviewApprove, ReviewerID: ann.ID, Content: "lgtm",
			Official: true, CommitID: "bbbb", Created: at, Updated: at}
		rv2 := &issues.Review{IssueID: i2.ID, Type: issues.ReviewRequest, ReviewerTeamID: 42, Created: at, Updated: at}
		rv3 := &issues.Review{IssueID: i2.ID, Type: issues.ReviewPending, ReviewerID: bob.ID, Created: at, Updated: at}
		other := &issues.Review{IssueID: i1.ID, Type: issues.ReviewReject, ReviewerID: bob.ID, Created: at, Updated: at}
		issueUpdate(t, s, func(tx issues.Tx) error {
			for _, rv := range []*issues.Review{rv1, rv2, rv3, other} {
				require.NoError(t, tx.CreateReview(ctx, rv))
				require.NotZero(t, rv.ID)
			}
			return nil
		})
		err := s.Update(ctx, func(tx issues.Tx) error {
			return tx.CreateReview(ctx, &issues.Review{IssueID: 99999, Created: at, Updated: at})
		})
		assert.ErrorIs(t, err, forge.ErrNotFound)
		code := []*issues.Comment{
			{IssueID: i2.ID, Type: issues.CommentCode, PosterID: bob.ID, Body: "nit", ReviewID: rv3.ID, TreePath: "a/b.go",
				Line: -4, CommitSHA: "bbbb", Patch: "@@ -1 +1 @@", Created: at.Add(time.Second), Updated: at},
			{IssueID: i2.ID, Type: issues.CommentCode, PosterID: bob.ID, Body: "first", ReviewID: rv3.ID, TreePath: "c",
				Line: 7, Invalidated: true, ResolveDoerID: ann.ID, Created: at, Updated: at},
			{IssueID: i2.ID, Type: issues.CommentReview, PosterID: ann.ID, ReviewID: rv1.ID, Created: at, Updated: at},
			{IssueID: i2.ID, Type: issues.CommentReviewRequest, PosterID: ann.ID, AssigneeTeamID: 42, Created: at, Updated: at},
		}
		issueUpdate(t, s, func(tx issues.Tx) error {
			for _, c := range code {
				require.NoError(t, tx.CreateComment(ctx, c))
			}
			return nil
		})
		issueView(t, s, func(tx issues.Tx) error {
			got, err := tx.ReviewByID(ctx, rv1.ID)
			require.NoError(t, err)
			assert.Equal(t, *rv1, *got)
			_, err = tx.ReviewByID(ctx, 99999)
			assert.ErrorIs(t, err, forge.ErrNotFound)
			c, err := tx.CommentByID(ctx, code[3].ID)
			require.NoError(t, err)
			assert.Equal(t, *code[3], *c, "the review-request comment keeps its team")
			list, n, err := tx.ListReviews(ctx, issues.ReviewFilter{IssueID: i2.ID}, forge.ListOptions{Page: 1, Limit: 2})
			require.NoError(t, err)
			assert.EqualValues(t, 3, n)
			require.Len(t, list, 2)
			assert.Equal(t, []forge.ID{rv1.ID, rv2.ID}, []forge.ID{list[0].ID, list[1].ID})
			list, n, err = tx.ListReviews(ctx, issues.ReviewFilter{IssueID: i2.ID, Types: []issues.ReviewType{issues.ReviewRequest, issues.ReviewPending}},
				forge.ListOptions{Page: 1, Limit: -1})
			require.NoError(t, err)
			assert.EqualValues(t, 2, n)
			assert.Equal(t, []forge.ID{rv2.ID, rv3.ID}, []forge.ID{list[0].ID, list[1].ID})
			list, _, err = tx.ListReviews(ctx, issues.ReviewFilter{IssueID: i2.ID, ReviewerTeamID: 42}, forge.ListOptions{Page: 1, Limit: -1})
			require.NoError(t, err)
			require.Len(t, list, 1)
			assert.Equal(t, rv2.ID, list[0].ID)
			list, _, err = tx.ListReviews(ctx, issues.ReviewFilter{IssueID: i2.ID, ReviewerID: bob.ID}, forge.ListOptions{Page: 1, Limit: -1})
			require.NoError(t, err)
			require.Len(t, list, 1)
			assert.Equal(t, rv3.ID, list[0].ID)
			cm, err := tx.ReviewComments(ctx, []forge.ID{rv3.ID, rv1.ID, rv2.ID})
			require.NoError(t, err)
			require.Len(t, cm, 2)
			require.Len(t, cm[rv3.ID], 2)
			assert.Equal(t, *code[1], *cm[rv3.ID][0], "ordered by creation")
			assert.Equal(t, *code[0], *cm[rv3.ID][1])
			assert.Equal(t, code[2].ID, cm[rv1.ID][0].ID)
			return nil
		})
		// Dismissing and marking stale.
		up := *rv1
		up.IssueID, up.Created = 777, at.Add(time.Hour) // not written
		up.Dismissed, up.Stale, up.Content, up.Type, up.Updated = true, true, "changed", issues.ReviewReject, at.Add(time.Minute)
		issueUpdate(t, s, func(tx issues.Tx) error { return tx.UpdateReview(ctx, &up) })
		want := up
		want.IssueID, want.Created = rv1.IssueID, rv1.Created
		dismissed := true
		issueView(t, s, func(tx issues.Tx) error {
			got, err := tx.ReviewByID(ctx, rv1.ID)
			require.NoError(t, err)
			assert.Equal(t, want, *got)
			list, _, err := tx.ListReviews(ctx, issues.ReviewFilter{IssueID: i2.ID, Dismissed: &dismissed}, forge.ListOptions{Page: 1, Limit: -1})
			require.NoError(t, err)
			require.Len(t, list, 1)
			assert.Equal(t, rv1.ID, list[0].ID)
			return nil
		})
		err = s.Update(ctx, func(tx issues.Tx) error { return tx.UpdateReview(ctx, &issues.Review{ID: 99999}) })
		assert.ErrorIs(t, err, forge.ErrNotFound)
		// Deleting a review takes its code comments.
		issueUpdate(t, s, func(tx issues.Tx) error { return tx.DeleteReview(ctx, rv3.ID) })
		issueView(t, s, func(tx issues.Tx) error {
			_, err := tx.ReviewByID(ctx, rv3.ID)
			assert.ErrorIs(t, err, forge.ErrNotFound)
			_, err = tx.CommentByID(ctx, code[0].ID)
			assert.ErrorIs(t, err, forge.ErrNotFound)
			_, err = tx.CommentByID(ctx, code[2].ID)
			assert.NoError(t, err, "other reviews' comments stay")
			return nil
		})
		err = s.Update(ctx, func(tx issues.Tx) error { return tx.DeleteReview(ctx, rv3.ID) })
		assert.ErrorIs(t, err, forge.ErrNotFound)
	})

	t.Run("AutoMerge", func(t *testing.T) {
		m := &issues.AutoMerge{PullID: p2.ID, DoerID: ann.ID, Style: issues.MergeStyleSquash, Message: "msg",
			DeleteBranchAfterMerge: true, Created: issueAt}
		issueUpdate(t, s, func(tx issues.Tx) error { return tx.CreateAutoMerge(ctx, m) })
		require.NotZero(t, m.ID)
		err := s.Update(ctx, func(tx issues.Tx) error {
			return tx.CreateAutoMerge(ctx, &issues.AutoMerge{PullID: p2.ID, DoerID: bob.ID, Created: issueAt})
		})
		assert.ErrorIs(t, err, forge.ErrConflict)
		err = s.Update(ctx, func(tx issues.Tx) error {
			return tx.CreateAutoMerge(ctx, &issues.AutoMerge{PullID: 99999, DoerID: bob.ID, Created: issueAt})
		})
		assert.ErrorIs(t, err, forge.ErrNotFound)
		issueView(t, s, func(tx issues.Tx) error {
			got, err := tx.AutoMergeByPull(ctx, p2.ID)
			require.NoError(t, err)
			assert.Equal(t, *m, *got)
			_, err = tx.AutoMergeByPull(ctx, p1.ID)
			assert.ErrorIs(t, err, forge.ErrNotFound)
			return nil
		})
		issueUpdate(t, s, func(tx issues.Tx) error { return tx.DeleteAutoMerge(ctx, p2.ID) })
		err = s.Update(ctx, func(tx issues.Tx) error { return tx.DeleteAutoMerge(ctx, p2.ID) })
		assert.ErrorIs(t, err, forge.ErrNotFound)
	})

	t.Run("Cascade", func(t *testing.T) {
		rv := &issues.Review{IssueID: i3.ID, Type: issues.ReviewComment, ReviewerID: ann.ID, Created: issueAt, Updated: issueAt}
		issueUpdate(t, s, func(tx issues.Tx) error {
			require.NoError(t, tx.CreateReview(ctx, rv))
			require.NoError(t, tx.CreateAutoMerge(ctx, &issues.AutoMerge{PullID: p3.ID, DoerID: ann.ID, Style: issues.MergeStyleMerge, Created: issueAt}))
			return tx.DeleteIssue(ctx, i3.ID)
		})
		issueView(t, s, func(tx issues.Tx) error {
			_, err := tx.PullByIssueID(ctx, i3.ID)
			assert.ErrorIs(t, err, forge.ErrNotFound)
			_, err = tx.ReviewByID(ctx, rv.ID)
			assert.ErrorIs(t, err, forge.ErrNotFound)
			_, err = tx.AutoMergeByPull(ctx, p3.ID)
			assert.ErrorIs(t, err, forge.ErrNotFound)
			list, err := tx.FindPulls(ctx, issues.PullFilter{BaseRepoID: r.ID})
			require.NoError(t, err)
			assert.Len(t, list, 2)
			return nil
		})
	})
}
