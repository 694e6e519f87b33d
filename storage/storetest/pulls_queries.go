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
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/issues"
)

// testPullsQueries: pull requests and reviews as stored and queried, past
// testPulls's basics: combined filters and their order, the Open filter on
// merged pulls, path lists that are empty but not nil, review paging and
// filters, the code-comment columns through UpdateComment, the attachments
// of a deleted review's comments, concurrent creations, and what goes with
// a repository or an account.
func testPullsQueries(t *testing.T, b Backend) {
	ctx := context.Background()
	s := b.Issues()
	ann := newUser(t, b, "xpann")
	bob := newUser(t, b, "xpbob")
	r := newRepo(t, b, ann, "xpulls")
	doomed := newRepo(t, b, ann, "xpulls-doomed")
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
