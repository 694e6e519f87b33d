package storetest

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/issues"
)

// testIssueDependencyComments: a comment's DependentIssueID round trips
// through CreateComment, CommentByID, ListComments and UpdateComment, and
// a dependency event goes with the issue it names (Forgejo deletes the
// comments whose dependent_issue_id is a deleted issue), leaving the
// others.
func testIssueDependencyComments(t *testing.T, b Backend) {
	ctx := context.Background()
	s := b.Issues()
	ann := newUser(t, b, "depcann")
	r := newRepo(t, b, ann, "depcomments")
	one := newIssue(t, s, r.ID, ann.ID, "one")
	two := newIssue(t, s, r.ID, ann.ID, "two")
	three := newIssue(t, s, r.ID, ann.ID, "three")
	ev := func(on, names *issues.Issue) *issues.Comment {
		return &issues.Comment{IssueID: on.ID, Type: issues.CommentAddDependency, PosterID: ann.ID,
			DependentIssueID: names.ID, Created: issueAt, Updated: issueAt}
	}
	oneNamesTwo, twoNamesOne, oneNamesThree := ev(one, two), ev(two, one), ev(one, three)
	plain := &issues.Comment{IssueID: one.ID, PosterID: ann.ID, Body: "hi", Created: issueAt, Updated: issueAt}
	issueUpdate(t, s, func(tx issues.Tx) error {
		for _, c := range []*issues.Comment{oneNamesTwo, twoNamesOne, oneNamesThree, plain} {
			if err := tx.CreateComment(ctx, c); err != nil {
				return err
			}
		}
		return nil
	})
	issueView(t, s, func(tx issues.Tx) error {
		got, err := tx.CommentByID(ctx, oneNamesTwo.ID)
		require.NoError(t, err)
		assert.Equal(t, two.ID, got.DependentIssueID)
		assert.Equal(t, issues.CommentAddDependency, got.Type)
		list, _, err := tx.ListComments(ctx, issues.CommentFilter{IssueID: one.ID}, forge.ListOptions{Page: 1, Limit: 10})
		require.NoError(t, err)
		var deps []forge.ID
		for _, c := range list {
			deps = append(deps, c.DependentIssueID)
		}
		assert.Equal(t, []forge.ID{two.ID, three.ID, 0}, deps)
		return nil
	})
	issueUpdate(t, s, func(tx issues.Tx) error {
		c := *oneNamesThree
		c.Type, c.DependentIssueID = issues.CommentRemoveDependency, two.ID
		return tx.UpdateComment(ctx, &c)
	})
	issueView(t, s, func(tx issues.Tx) error {
		got, err := tx.CommentByID(ctx, oneNamesThree.ID)
		require.NoError(t, err)
		assert.Equal(t, two.ID, got.DependentIssueID, "UpdateComment writes it")
		return nil
	})

	// Deleting two takes its own comments and those naming it.
	issueUpdate(t, s, func(tx issues.Tx) error { return tx.DeleteIssue(ctx, two.ID) })
	issueView(t, s, func(tx issues.Tx) error {
		for _, c := range []*issues.Comment{oneNamesTwo, twoNamesOne, oneNamesThree} {
			_, err := tx.CommentByID(ctx, c.ID)
			assert.ErrorIs(t, err, forge.ErrNotFound, "comment %d", c.ID)
		}
		_, err := tx.CommentByID(ctx, plain.ID)
		assert.NoError(t, err, "the plain comment of one stays")
		return nil
	})
}
