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

// testIssueSocial covers issues.SocialTx: reactions, issue watches, pinned
// issues and cross-references, with their cascades.
func testIssueSocial(t *testing.T, b Backend) {
	ctx := context.Background()
	s := b.Issues()
	ann, r := newUserRepo(t, b, "sann", "social")
	bob := newUser(t, b, "sbob")
	i1 := newIssue(t, s, r.ID, ann.ID, "one")
	i2 := newIssue(t, s, r.ID, ann.ID, "two")
	c1 := &issues.Comment{IssueID: i1.ID, PosterID: ann.ID, Body: "hi", Created: issueAt, Updated: issueAt}
	c2 := &issues.Comment{IssueID: i2.ID, PosterID: ann.ID, Body: "other", Created: issueAt, Updated: issueAt}
	issueUpdate(t, s, func(tx issues.Tx) error {
		require.NoError(t, tx.CreateComment(ctx, c1))
		return tx.CreateComment(ctx, c2)
	})

	t.Run("Reactions", func(t *testing.T) {
		at := issueAt.Add(time.Minute)
		r1 := &issues.Reaction{IssueID: i1.ID, UserID: ann.ID, Content: "+1", Created: at}
		r2 := &issues.Reaction{IssueID: i1.ID, UserID: bob.ID, Content: "+1", Created: at}
		r3 := &issues.Reaction{IssueID: i1.ID, CommentID: c1.ID, UserID: ann.ID, Content: "+1", Created: at}
		issueUpdate(t, s, func(tx issues.Tx) error {
			for _, r := range []*issues.Reaction{r1, r2, r3} {
				require.NoError(t, tx.CreateReaction(ctx, r))
				require.NotZero(t, r.ID)
			}
			return nil
		})
		err := s.Update(ctx, func(tx issues.Tx) error {
			return tx.CreateReaction(ctx, &issues.Reaction{IssueID: i1.ID, UserID: ann.ID, Content: "+1", Created: at})
		})
		assert.ErrorIs(t, err, forge.ErrConflict, "one reaction per user, content and target")
		err = s.Update(ctx, func(tx issues.Tx) error {
			return tx.CreateReaction(ctx, &issues.Reaction{IssueID: 9999, UserID: ann.ID, Content: "+1", Created: at})
		})
		assert.ErrorIs(t, err, forge.ErrNotFound)
		err = s.Update(ctx, func(tx issues.Tx) error {
			return tx.CreateReaction(ctx, &issues.Reaction{IssueID: i1.ID, CommentID: c2.ID, UserID: ann.ID, Content: "+1", Created: at})
		})
		assert.ErrorIs(t, err, forge.ErrNotFound, "a comment of another issue")
		issueView(t, s, func(tx issues.Tx) error {
			list, n, err := tx.Reactions(ctx, i1.ID, 0, forge.ListOptions{Page: 1, Limit: 1})
			require.NoError(t, err)
			assert.EqualValues(t, 2, n)
			require.Len(t, list, 1)
			assert.Equal(t, *r1, *list[0])
			list, n, err = tx.Reactions(ctx, i1.ID, c1.ID, forge.ListOptions{Page: 1, Limit: -1})
			require.NoError(t, err)
			assert.EqualValues(t, 1, n)
			assert.Equal(t, []*issues.Reaction{r3}, list)
			return nil
		})
		issueUpdate(t, s, func(tx issues.Tx) error {
			require.NoError(t, tx.DeleteReaction(ctx, i1.ID, 0, ann.ID, "+1"))
			return tx.DeleteReaction(ctx, i1.ID, 0, ann.ID, "heart") // none: no error
		})
		issueView(t, s, func(tx issues.Tx) error {
			list, _, err := tx.Reactions(ctx, i1.ID, 0, forge.ListOptions{Page: 1, Limit: -1})
			require.NoError(t, err)
			assert.Equal(t, []*issues.Reaction{r2}, list)
			list, _, err = tx.Reactions(ctx, i1.ID, c1.ID, forge.ListOptions{Page: 1, Limit: -1})
			require.NoError(t, err)
			assert.Len(t, list, 1, "the comment's reaction stays")
			return nil
		})
	})

	t.Run("Watches", func(t *testing.T) {
		wantNotFound(t, s, func(ctx context.Context, tx issues.Tx) error { _, err := tx.IssueWatch(ctx, ann.ID, i2.ID); return err })
		w := &issues.IssueWatch{UserID: bob.ID, IssueID: i2.ID, IsWatching: true, Created: issueAt, Updated: issueAt}
		issueUpdate(t, s, func(tx issues.Tx) error {
			require.NoError(t, tx.SetIssueWatch(ctx, w))
			return tx.SetIssueWatch(ctx, &issues.IssueWatch{UserID: ann.ID, IssueID: i2.ID, IsWatching: false, Created: issueAt, Updated: issueAt})
		})
		require.NotZero(t, w.ID)
		later := issueAt.Add(time.Hour)
		again := &issues.IssueWatch{UserID: bob.ID, IssueID: i2.ID, IsWatching: true, Created: later, Updated: later}
		issueUpdate(t, s, func(tx issues.Tx) error { return tx.SetIssueWatch(ctx, again) })
		assert.Equal(t, w.ID, again.ID, "a second watch replaces the first")
		assert.Equal(t, issueAt, again.Created, "and keeps its creation")
		issueView(t, s, func(tx issues.Tx) error {
			got, err := tx.IssueWatch(ctx, bob.ID, i2.ID)
			require.NoError(t, err)
			assert.Equal(t, issues.IssueWatch{ID: w.ID, UserID: bob.ID, IssueID: i2.ID, IsWatching: true, Created: issueAt, Updated: later}, *got)
			list, n, err := tx.IssueWatchers(ctx, i2.ID, forge.ListOptions{Page: 1, Limit: 10})
			require.NoError(t, err)
			assert.EqualValues(t, 1, n, "only those watching")
			require.Len(t, list, 1)
			assert.Equal(t, bob.ID, list[0].UserID)
			return nil
		})
		err := s.Update(ctx, func(tx issues.Tx) error {
			return tx.SetIssueWatch(ctx, &issues.IssueWatch{UserID: 9999, IssueID: i2.ID, IsWatching: true, Created: issueAt, Updated: issueAt})
		})
		assert.ErrorIs(t, err, forge.ErrNotFound)
	})

	t.Run("Pins", func(t *testing.T) {
		i3 := newIssue(t, s, r.ID, ann.ID, "three")
		p := newIssue(t, s, r.ID, ann.ID, "pull", func(i *issues.Issue) { i.IsPull = true; i.PinOrder = 1 })
		issueUpdate(t, s, func(tx issues.Tx) error {
			for order, is := range map[int]*issues.Issue{2: i2, 1: i3} {
				is.PinOrder = order
				require.NoError(t, tx.UpdateIssue(ctx, is))
			}
			return nil
		})
		issueView(t, s, func(tx issues.Tx) error {
			list, err := tx.PinnedIssues(ctx, r.ID, false)
			require.NoError(t, err)
			assert.Equal(t, []string{"three", "two"}, issueTitles(list))
			list, err = tx.PinnedIssues(ctx, r.ID, true)
			require.NoError(t, err)
			require.Len(t, list, 1)
			assert.Equal(t, p.ID, list[0].ID)
			return nil
		})
	})

	t.Run("CrossRefs", func(t *testing.T) {
		ref := &issues.Comment{IssueID: i2.ID, Type: issues.CommentCommentRef, PosterID: ann.ID, Created: issueAt, Updated: issueAt}
		issueUpdate(t, s, func(tx issues.Tx) error {
			require.NoError(t, tx.CreateComment(ctx, ref))
			return tx.CreateCrossRef(ctx, &issues.CrossRef{CommentID: ref.ID, RefRepoID: r.ID, RefIssueID: i1.ID, RefCommentID: c1.ID, RefIsPull: true})
		})
		want := issues.CrossRef{CommentID: ref.ID, RefRepoID: r.ID, RefIssueID: i1.ID, RefCommentID: c1.ID, RefIsPull: true}
		issueView(t, s, func(tx issues.Tx) error {
			m, err := tx.CrossRefs(ctx, []forge.ID{ref.ID, c1.ID})
			require.NoError(t, err)
			assert.Equal(t, map[forge.ID]*issues.CrossRef{ref.ID: &want}, m)
			list, err := tx.CrossRefsFrom(ctx, i1.ID, c1.ID)
			require.NoError(t, err)
			assert.Equal(t, []*issues.CrossRef{&want}, list)
			list, err = tx.CrossRefsFrom(ctx, i1.ID, 0)
			require.NoError(t, err)
			assert.Empty(t, list, "the issue's own text made none")
			return nil
		})
		issueUpdate(t, s, func(tx issues.Tx) error { return tx.SetCrossRefAction(ctx, ref.ID, issues.RefActionNeutered) })
		issueView(t, s, func(tx issues.Tx) error {
			m, err := tx.CrossRefs(ctx, []forge.ID{ref.ID})
			require.NoError(t, err)
			assert.Equal(t, issues.RefActionNeutered, m[ref.ID].Action)
			return nil
		})
		err := s.Update(ctx, func(tx issues.Tx) error { return tx.SetCrossRefAction(ctx, 9999, issues.RefActionNone) })
		assert.ErrorIs(t, err, forge.ErrNotFound)
		err = s.Update(ctx, func(tx issues.Tx) error { return tx.CreateCrossRef(ctx, &issues.CrossRef{CommentID: 9999}) })
		assert.ErrorIs(t, err, forge.ErrNotFound)

		// Deleting the reference comment removes its cross-reference.
		issueUpdate(t, s, func(tx issues.Tx) error { return tx.DeleteComment(ctx, ref.ID) })
		issueView(t, s, func(tx issues.Tx) error {
			m, err := tx.CrossRefs(ctx, []forge.ID{ref.ID})
			require.NoError(t, err)
			assert.Empty(t, m)
			return nil
		})
	})

	t.Run("Cascades", func(t *testing.T) {
		issueUpdate(t, s, func(tx issues.Tx) error { return tx.DeleteIssue(ctx, i1.ID) })
		issueView(t, s, func(tx issues.Tx) error {
			list, n, err := tx.Reactions(ctx, i1.ID, 0, forge.ListOptions{Page: 1, Limit: -1})
			require.NoError(t, err)
			assert.Zero(t, n, "an issue's reactions go with it")
			assert.Empty(t, list)
			return nil
		})
	})
}
