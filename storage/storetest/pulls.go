package storetest

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/orgs"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/issues"
)

// testPulls covers issues.PullTx: pull requests, reviews with their code
// comments, scheduled merges, and their cascades with the issue.
func testPulls(t *testing.T, b Backend) {
	ctx := context.Background()
	s := b.Issues()
	ann, r := newUserRepo(t, b, "pann", "pulls")
	bob, fork := newUserRepo(t, b, "pbob", "pulls-fork")
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
		wantDeleteOnce(t, s, func(ctx context.Context, tx issues.Tx) error { return tx.DeleteAutoMerge(ctx, p2.ID) })
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

// testPullsQueries: pull requests and reviews as stored and queried, past
// testPulls's basics: combined filters and their order, the Open filter on
// merged pulls, path lists that are empty but not nil, review paging and
// filters, the code-comment columns through UpdateComment, the attachments
// of a deleted review's comments, concurrent creations, and what goes with
// a repository or an account.
func testPullsQueries(t *testing.T, b Backend) {
	ctx := context.Background()
	s := b.Issues()
	ann, r, doomed := newUserRepos(t, b, "xpann", "xpulls", "xpulls-doomed")
	bob := newUser(t, b, "xpbob")
	pullIssue := func(repo forge.ID, title string) *issues.Issue {
		return newIssue(t, s, repo, ann.ID, title, func(i *issues.Issue) { i.IsPull = true })
	}
	// Six pulls of r created out of issue order, on two bases and heads.
	var is []*issues.Issue
	for _, title := range []string{"a", "b", "c", "d", "e", "f"} {
		is = append(is, pullIssue(r.ID, title))
	}
	var ps []*issues.PullRequest
	issueUpdate(t, s, func(tx issues.Tx) error {
		for _, k := range []int{3, 0, 5, 1, 4, 2} {
			p := &issues.PullRequest{IssueID: is[k].ID, Index: is[k].Index, BaseRepoID: r.ID, HeadRepoID: r.ID,
				BaseBranch: []string{"main", "dev"}[k%2], HeadBranch: []string{"x", "y", "z"}[k%3],
				ConflictedFiles: []string{}, Status: issues.PullMergeable}
			if k == 5 {
				p.HasMerged, p.Merged, p.MergedCommitID, p.MergerID = true, issueAt.Add(time.Hour), "feed", bob.ID
			}
			require.NoError(t, tx.CreatePull(ctx, p))
			ps = append(ps, p)
		}
		return nil
	})
	byIssue := map[forge.ID]*issues.PullRequest{}
	for _, p := range ps {
		byIssue[p.IssueID] = p
	}
	pullOf := func(k int) forge.ID { return byIssue[is[k].ID].ID }
	find := func(f issues.PullFilter) []forge.ID {
		t.Helper()
		ids := []forge.ID{}
		issueView(t, s, func(tx issues.Tx) error {
			list, err := tx.FindPulls(ctx, f)
			require.NoError(t, err)
			for _, p := range list {
				ids = append(ids, p.ID)
			}
			return nil
		})
		return ids
	}
	// Creation order: 3, 0, 5, 1, 4, 2 (ids ascending).
	t.Run("FindCombined", func(t *testing.T) {
		assert.Equal(t, []forge.ID{pullOf(3), pullOf(0), pullOf(5), pullOf(1), pullOf(4), pullOf(2)},
			find(issues.PullFilter{BaseRepoID: r.ID}), "by id, not by issue")
		assert.Equal(t, []forge.ID{pullOf(0), pullOf(4), pullOf(2)}, find(issues.PullFilter{BaseRepoID: r.ID, BaseBranch: "main"}))
		assert.Equal(t, []forge.ID{pullOf(3), pullOf(0)}, find(issues.PullFilter{BaseRepoID: r.ID, HeadBranch: "x"}))
		assert.Equal(t, []forge.ID{pullOf(3)}, find(issues.PullFilter{BaseRepoID: r.ID, BaseBranch: "dev", HeadRepoID: r.ID, HeadBranch: "x"}))
		assert.Equal(t, []forge.ID{pullOf(1), pullOf(2)},
			find(issues.PullFilter{BaseRepoID: r.ID, IssueIDs: []forge.ID{is[2].ID, is[1].ID, 99999}}))
		assert.Empty(t, find(issues.PullFilter{BaseRepoID: doomed.ID, IssueIDs: []forge.ID{is[1].ID}}))
		assert.Empty(t, find(issues.PullFilter{BaseRepoID: r.ID, IssueIDs: []forge.ID{}}), "an empty id list matches nothing")
		assert.Equal(t, []forge.ID{pullOf(5)}, find(issues.PullFilter{BaseRepoID: r.ID, MergedCommitID: "feed"}))
		assert.Empty(t, find(issues.PullFilter{BaseRepoID: doomed.ID, MergedCommitID: "feed"}))
		assert.Equal(t, []forge.ID{pullOf(3), pullOf(0), pullOf(1), pullOf(4), pullOf(2)},
			find(issues.PullFilter{HeadRepoID: r.ID, Open: true}), "a merged pull is not open though its issue is")
		issueUpdate(t, s, func(tx issues.Tx) error {
			i, err := tx.IssueByID(ctx, is[0].ID)
			require.NoError(t, err)
			i.IsClosed, i.Closed = true, issueAt
			return tx.UpdateIssue(ctx, i)
		})
		assert.Equal(t, []forge.ID{pullOf(3), pullOf(1), pullOf(4), pullOf(2)}, find(issues.PullFilter{BaseRepoID: r.ID, Open: true}))
		assert.Equal(t, []forge.ID{pullOf(4), pullOf(2)}, find(issues.PullFilter{BaseRepoID: r.ID, BaseBranch: "main", Open: true}))
	})

	t.Run("PathLists", func(t *testing.T) {
		issueView(t, s, func(tx issues.Tx) error {
			got, err := tx.PullByIssueID(ctx, is[1].ID)
			require.NoError(t, err)
			assert.NotNil(t, got.ConflictedFiles, "an empty list stays a list")
			assert.Empty(t, got.ConflictedFiles)
			assert.Nil(t, got.ChangedProtectedFiles, "nil stays nil")
			return nil
		})
		up := *byIssue[is[1].ID]
		up.ConflictedFiles, up.ChangedProtectedFiles = nil, []string{"a b", `q"uote`, "ü/é"}
		issueUpdate(t, s, func(tx issues.Tx) error { return tx.UpdatePull(ctx, &up) })
		issueView(t, s, func(tx issues.Tx) error {
			got, err := tx.PullByIssueID(ctx, is[1].ID)
			require.NoError(t, err)
			assert.Equal(t, up, *got)
			return nil
		})
	})

	rv := func(issue forge.ID, typ issues.ReviewType, reviewer forge.ID) *issues.Review {
		return &issues.Review{IssueID: issue, Type: typ, ReviewerID: reviewer, Created: issueAt, Updated: issueAt}
	}
	t.Run("ReviewPages", func(t *testing.T) {
		var list []*issues.Review
		for k := range 7 {
			list = append(list, rv(is[2].ID, issues.ReviewType(k%4), []forge.ID{ann.ID, bob.ID}[k%2]))
		}
		list[6].Dismissed = true
		issueUpdate(t, s, func(tx issues.Tx) error {
			for _, r := range list {
				require.NoError(t, tx.CreateReview(ctx, r))
			}
			return nil
		})
		ids := func(l []*issues.Review) []forge.ID {
			out := []forge.ID{}
			for _, r := range l {
				out = append(out, r.ID)
			}
			return out
		}
		issueView(t, s, func(tx issues.Tx) error {
			page, n, err := tx.ListReviews(ctx, issues.ReviewFilter{IssueID: is[2].ID}, forge.ListOptions{Page: 2, Limit: 3})
			require.NoError(t, err)
			assert.EqualValues(t, 7, n)
			assert.Equal(t, ids(list[3:6]), ids(page))
			page, n, err = tx.ListReviews(ctx, issues.ReviewFilter{IssueID: is[2].ID}, forge.ListOptions{Page: 4, Limit: 3})
			require.NoError(t, err)
			assert.EqualValues(t, 7, n, "a page past the end still counts")
			assert.NotNil(t, page)
			assert.Empty(t, page)
			undismissed := false
			page, n, err = tx.ListReviews(ctx, issues.ReviewFilter{IssueID: is[2].ID, ReviewerID: ann.ID, Dismissed: &undismissed,
				Types: []issues.ReviewType{issues.ReviewPending, issues.ReviewComment}}, forge.ListOptions{Page: 1, Limit: 10})
			require.NoError(t, err)
			assert.EqualValues(t, 3, n, "list[6] is dismissed")
			assert.Equal(t, []forge.ID{list[0].ID, list[2].ID, list[4].ID}, ids(page))
			page, n, err = tx.ListReviews(ctx, issues.ReviewFilter{IssueID: is[2].ID, Types: []issues.ReviewType{}}, forge.ListOptions{Page: 1, Limit: 10})
			require.NoError(t, err)
			assert.Zero(t, n, "an empty type list matches nothing")
			assert.NotNil(t, page)
			page, n, err = tx.ListReviews(ctx, issues.ReviewFilter{IssueID: 99999}, forge.ListOptions{Page: 1, Limit: 10})
			require.NoError(t, err)
			assert.Zero(t, n)
			assert.NotNil(t, page)
			return nil
		})
	})

	t.Run("CodeComments", func(t *testing.T) {
		review := rv(is[3].ID, issues.ReviewComment, bob.ID)
		issueUpdate(t, s, func(tx issues.Tx) error { return tx.CreateReview(ctx, review) })
		at := issueAt.Add(time.Minute)
		cs := []*issues.Comment{
			{IssueID: is[3].ID, Type: issues.CommentCode, PosterID: bob.ID, Body: "same time, first id", ReviewID: review.ID,
				TreePath: "f", Line: 3, CommitSHA: "c0", Created: at, Updated: at},
			{IssueID: is[3].ID, Type: issues.CommentCode, PosterID: bob.ID, Body: "same time, second id", ReviewID: review.ID,
				TreePath: "f", Line: -3, CommitSHA: "c0", Created: at, Updated: at},
			{IssueID: is[3].ID, Type: issues.CommentCode, PosterID: bob.ID, Body: "earlier", ReviewID: review.ID,
				TreePath: "g", Line: 1, Created: issueAt, Updated: issueAt},
			{IssueID: is[3].ID, Type: issues.CommentPlain, PosterID: bob.ID, Body: "not of a review", Created: issueAt, Updated: issueAt},
		}
		a := &issues.Attachment{UUID: "xp-code-asset", RepoID: r.ID, IssueID: is[3].ID, UploaderID: bob.ID, Name: "shot.png", Created: issueAt}
		issueUpdate(t, s, func(tx issues.Tx) error {
			for _, c := range cs {
				require.NoError(t, tx.CreateComment(ctx, c))
			}
			a.CommentID = cs[0].ID
			return tx.CreateAttachment(ctx, a)
		})
		// Resolving and invalidating are updates of the comment.
		up := *cs[1]
		up.ResolveDoerID, up.Invalidated, up.Line, up.Patch, up.CommitSHA, up.Updated = ann.ID, true, -4, "@@ -4 +4 @@", "c1", at.Add(time.Hour)
		issueUpdate(t, s, func(tx issues.Tx) error { return tx.UpdateComment(ctx, &up) })
		issueView(t, s, func(tx issues.Tx) error {
			got, err := tx.CommentByID(ctx, cs[1].ID)
			require.NoError(t, err)
			assert.Equal(t, up, *got)
			m, err := tx.ReviewComments(ctx, []forge.ID{review.ID, 99999})
			require.NoError(t, err)
			require.Len(t, m, 1)
			require.Len(t, m[review.ID], 3)
			assert.Equal(t, []forge.ID{cs[2].ID, cs[0].ID, cs[1].ID},
				[]forge.ID{m[review.ID][0].ID, m[review.ID][1].ID, m[review.ID][2].ID}, "by creation, then id")
			m, err = tx.ReviewComments(ctx, nil)
			require.NoError(t, err)
			assert.NotNil(t, m)
			assert.Empty(t, m)
			m, err = tx.ReviewComments(ctx, []forge.ID{0})
			require.NoError(t, err)
			assert.Empty(t, m, "review 0 is no review: plain comments are not its comments")
			return nil
		})
		issueUpdate(t, s, func(tx issues.Tx) error { return tx.DeleteReview(ctx, review.ID) })
		issueView(t, s, func(tx issues.Tx) error {
			_, err := tx.AttachmentByUUID(ctx, a.UUID)
			assert.ErrorIs(t, err, forge.ErrNotFound, "a deleted review's comments take their attachments")
			_, err = tx.CommentByID(ctx, cs[3].ID)
			assert.NoError(t, err, "the issue's other comments stay")
			return nil
		})
		err := s.Update(ctx, func(tx issues.Tx) error { return tx.DeleteReview(ctx, 0) })
		assert.ErrorIs(t, err, forge.ErrNotFound)
	})

	t.Run("Concurrent", func(t *testing.T) {
		i := pullIssue(r.ID, "raced")
		const n = 16
		pulls := make([]*issues.PullRequest, n)
		errs := race(n, func(k int) error {
			pulls[k] = &issues.PullRequest{IssueID: i.ID, Index: i.Index, BaseRepoID: r.ID, HeadRepoID: r.ID, HeadBranch: "race"}
			return s.Update(ctx, func(tx issues.Tx) error { return tx.CreatePull(ctx, pulls[k]) })
		})
		require.Equal(t, 1, winners(t, errs, forge.ErrConflict), "one pull request per issue, however many try")
		pull := pulls[slices.IndexFunc(errs, func(err error) bool { return err == nil })]
		errs = race(n, func(int) error {
			return s.Update(ctx, func(tx issues.Tx) error {
				return tx.CreateAutoMerge(ctx, &issues.AutoMerge{PullID: pull.ID, DoerID: ann.ID, Style: issues.MergeStyleMerge, Created: issueAt})
			})
		})
		assert.Equal(t, 1, winners(t, errs, forge.ErrConflict), "one scheduled merge per pull request")
	})

	t.Run("GoWithRepoNotAccount", func(t *testing.T) {
		i := pullIssue(doomed.ID, "doomed pull")
		p := &issues.PullRequest{IssueID: i.ID, Index: i.Index, BaseRepoID: doomed.ID, HeadRepoID: doomed.ID, BaseBranch: "main",
			HeadBranch: "h", MergerID: bob.ID}
		review := rv(i.ID, issues.ReviewApprove, bob.ID)
		kept := rv(is[4].ID, issues.ReviewApprove, bob.ID)
		issueUpdate(t, s, func(tx issues.Tx) error {
			require.NoError(t, tx.CreatePull(ctx, p))
			require.NoError(t, tx.CreateReview(ctx, review))
			require.NoError(t, tx.CreateReview(ctx, kept))
			return tx.CreateAutoMerge(ctx, &issues.AutoMerge{PullID: p.ID, DoerID: bob.ID, Style: issues.MergeStyleMerge, Created: issueAt})
		})
		// A deleted account's reviews and merges stay (the ghost's).
		update(t, b.Auth(), func(tx auth.Tx) error { return tx.DeleteUser(ctx, bob.ID) })
		issueView(t, s, func(tx issues.Tx) error {
			got, err := tx.ReviewByID(ctx, kept.ID)
			require.NoError(t, err)
			assert.Equal(t, bob.ID, got.ReviewerID)
			pr, err := tx.PullByIssueID(ctx, i.ID)
			require.NoError(t, err)
			assert.Equal(t, bob.ID, pr.MergerID)
			_, err = tx.AutoMergeByPull(ctx, p.ID)
			assert.NoError(t, err)
			return nil
		})
		// A deleted repository takes its pulls, their reviews and merges.
		repoUpdate(t, b.Repos(), func(tx repos.Tx) error { return tx.DeleteRepo(ctx, doomed.ID) })
		issueView(t, s, func(tx issues.Tx) error {
			_, err := tx.PullByIssueID(ctx, i.ID)
			assert.ErrorIs(t, err, forge.ErrNotFound)
			m, err := tx.PullsByIssueID(ctx, []forge.ID{i.ID, is[4].ID})
			require.NoError(t, err)
			assert.Len(t, m, 1)
			_, err = tx.ReviewByID(ctx, review.ID)
			assert.ErrorIs(t, err, forge.ErrNotFound)
			_, err = tx.AutoMergeByPull(ctx, p.ID)
			assert.ErrorIs(t, err, forge.ErrNotFound)
			_, err = tx.ReviewByID(ctx, kept.ID)
			assert.NoError(t, err, "another repository's review stays")
			return nil
		})
		assert.Empty(t, find(issues.PullFilter{BaseRepoID: doomed.ID}))
		err := s.Update(ctx, func(tx issues.Tx) error { return tx.UpdatePull(ctx, p) })
		assert.ErrorIs(t, err, forge.ErrNotFound, "a gone pull cannot be updated")
		err = s.Update(ctx, func(tx issues.Tx) error { return tx.UpdateReview(ctx, review) })
		assert.ErrorIs(t, err, forge.ErrNotFound, "a gone review cannot be updated")
	})
}

// testPullsDeletions: what other deletions do to pull requests and review
// requests. Deleting the head fork leaves its pull requests with head
// repository 0 (PullRequest.HeadRepoID's contract); deleting a team, or its
// organisation, withdraws the reviews requested from it (Forgejo's
// DeleteTeam), and no other review.
func testPullsDeletions(t *testing.T, b Backend) {
	ctx := context.Background()
	s := b.Issues()
	ann, r, fork := newUserRepos(t, b, "dpann", "dpulls", "dpulls-fork")
	i := newIssue(t, s, r.ID, ann.ID, "from the fork", func(i *issues.Issue) { i.IsPull = true })
	p := &issues.PullRequest{IssueID: i.ID, Index: i.Index, BaseRepoID: r.ID, HeadRepoID: fork.ID, BaseBranch: "main", HeadBranch: "h"}
	issueUpdate(t, s, func(tx issues.Tx) error { return tx.CreatePull(ctx, p) })

	org := newOrg(t, b, "dpreviewers")
	t1 := &forge.Team{OrgID: org.ID, Name: "one", Mode: forge.AccessModeRead}
	t2 := &forge.Team{OrgID: org.ID, Name: "two", Mode: forge.AccessModeRead}
	orgUpdate(t, b.Orgs(), func(tx orgs.Tx) error {
		require.NoError(t, tx.CreateTeam(ctx, t1))
		return tx.CreateTeam(ctx, t2)
	})
	req := func(team, user forge.ID) *issues.Review {
		return &issues.Review{IssueID: i.ID, Type: issues.ReviewRequest, ReviewerTeamID: team, ReviewerID: user, Created: issueAt, Updated: issueAt}
	}
	r1, r2, userReq := req(t1.ID, 0), req(t2.ID, 0), req(0, ann.ID)
	issueUpdate(t, s, func(tx issues.Tx) error {
		for _, rv := range []*issues.Review{r1, r2, userReq} {
			require.NoError(t, tx.CreateReview(ctx, rv))
		}
		return nil
	})
	exists := func(id forge.ID) bool {
		var err error
		issueView(t, s, func(tx issues.Tx) error { _, err = tx.ReviewByID(ctx, id); return nil })
		return err == nil
	}

	t.Run("HeadFork", func(t *testing.T) {
		repoUpdate(t, b.Repos(), func(tx repos.Tx) error { return tx.DeleteRepo(ctx, fork.ID) })
		issueView(t, s, func(tx issues.Tx) error {
			got, err := tx.PullByIssueID(ctx, i.ID)
			require.NoError(t, err, "the base's pull request stays")
			assert.Zero(t, got.HeadRepoID, "a deleted head fork is head repository 0")
			assert.Equal(t, "h", got.HeadBranch)
			list, err := tx.FindPulls(ctx, issues.PullFilter{HeadRepoID: fork.ID})
			require.NoError(t, err)
			assert.Empty(t, list)
			list, err = tx.FindPulls(ctx, issues.PullFilter{BaseRepoID: r.ID})
			require.NoError(t, err)
			assert.Len(t, list, 1)
			return nil
		})
	})

	t.Run("Teams", func(t *testing.T) {
		orgUpdate(t, b.Orgs(), func(tx orgs.Tx) error { return tx.DeleteTeam(ctx, t1.ID) })
		assert.False(t, exists(r1.ID), "the deleted team's request")
		assert.True(t, exists(r2.ID), "another team's request")
		orgUpdate(t, b.Orgs(), func(tx orgs.Tx) error { return tx.DeleteOrg(ctx, org.ID) })
		assert.False(t, exists(r2.ID), "the requests of a deleted organisation's teams")
		assert.True(t, exists(userReq.ID), "a user's request")
		issueView(t, s, func(tx issues.Tx) error {
			list, n, err := tx.ListReviews(ctx, issues.ReviewFilter{IssueID: i.ID}, forge.ListOptions{Page: 1, Limit: 10})
			require.NoError(t, err)
			assert.EqualValues(t, 1, n)
			require.Len(t, list, 1)
			assert.Equal(t, userReq.ID, list[0].ID)
			return nil
		})
	})
}
