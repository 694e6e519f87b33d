package storetest

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/issues"
)

// testIssueMentions: AddMentions records (issue, user) once, the
// MentionedID filter lists and counts by it (with other filters and
// paging), missing issues and users are not found and change nothing, and
// mentions go with their issue and their user.
func testIssueMentions(t *testing.T, b Backend) {
	ctx := context.Background()
	s := b.Issues()
	ann := newUser(t, b, "mann")
	bob := newUser(t, b, "mbob")
	cat := newUser(t, b, "mcat")
	r := newRepo(t, b, ann, "mentions")
	one := newIssue(t, s, r.ID, ann.ID, "one")
	two := newIssue(t, s, r.ID, ann.ID, "two")
	three := newIssue(t, s, r.ID, bob.ID, "three")

	issueUpdate(t, s, func(tx issues.Tx) error {
		if err := tx.AddMentions(ctx, one.ID, []forge.ID{bob.ID, cat.ID}); err != nil {
			return err
		}
		if err := tx.AddMentions(ctx, one.ID, []forge.ID{bob.ID}); err != nil { // again: no change
			return err
		}
		if err := tx.AddMentions(ctx, one.ID, nil); err != nil {
			return err
		}
		return tx.AddMentions(ctx, three.ID, []forge.ID{bob.ID})
	})
	list := func(f issues.IssueFilter, o forge.ListOptions) ([]string, int64) {
		t.Helper()
		return listIssueTitles(t, s, f, o)
	}
	all := forge.ListOptions{Page: 1, Limit: 50}
	in := []forge.ID{r.ID}
	got, n := list(issues.IssueFilter{RepoIDs: in, MentionedID: bob.ID, Sort: issues.IssueSortOldest}, all)
	assert.Equal(t, []string{"one", "three"}, got)
	assert.EqualValues(t, 2, n)
	got, n = list(issues.IssueFilter{RepoIDs: in, MentionedID: bob.ID, Sort: issues.IssueSortOldest}, forge.ListOptions{Page: 2, Limit: 1})
	assert.Equal(t, []string{"three"}, got, "paged")
	assert.EqualValues(t, 2, n, "the count is of every match")
	got, _ = list(issues.IssueFilter{RepoIDs: in, MentionedID: bob.ID, PosterID: ann.ID}, all)
	assert.Equal(t, []string{"one"}, got, "with another filter")
	got, n = list(issues.IssueFilter{RepoIDs: in, MentionedID: ann.ID}, all)
	assert.Empty(t, got, "nobody mentioned ann")
	assert.Zero(t, n)
	got, _ = list(issues.IssueFilter{MentionedID: bob.ID}, all)
	assert.Empty(t, got, "no repository: nothing")

	// Missing issues and users are not found, and the transaction's
	// failed write records nothing.
	err := s.Update(ctx, func(tx issues.Tx) error { return tx.AddMentions(ctx, 1<<40, []forge.ID{bob.ID}) })
	assert.ErrorIs(t, err, forge.ErrNotFound)
	err = s.Update(ctx, func(tx issues.Tx) error { return tx.AddMentions(ctx, two.ID, []forge.ID{ann.ID, 1 << 40}) })
	assert.ErrorIs(t, err, forge.ErrNotFound)
	got, _ = list(issues.IssueFilter{RepoIDs: in, MentionedID: ann.ID}, all)
	assert.Empty(t, got, "a refused write records nothing")

	// Mentions go with their issue and with their user.
	issueUpdate(t, s, func(tx issues.Tx) error { return tx.DeleteIssue(ctx, three.ID) })
	got, _ = list(issues.IssueFilter{RepoIDs: in, MentionedID: bob.ID}, all)
	assert.Equal(t, []string{"one"}, got, "a deleted issue's mentions go")
	update(t, b.Auth(), func(tx auth.Tx) error { return tx.DeleteUser(ctx, cat.ID) })
	got, _ = list(issues.IssueFilter{RepoIDs: in, MentionedID: cat.ID}, all)
	assert.Empty(t, got, "a deleted user's mentions go")
}
