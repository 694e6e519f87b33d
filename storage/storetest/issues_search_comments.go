package storetest

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/issues"
)

// testIssueKeywordComments: the keyword of ListIssues matches the body of
// a plain comment as well as the title and the body of the issue
// (Forgejo's issue indexer), ignoring case, for long keywords and for
// short ones; the match follows the comment's edits and deletion, and an
// event comment's text does not match.
func testIssueKeywordComments(t *testing.T, b Backend) {
	ctx := context.Background()
	s := b.Issues()
	u := newUser(t, b, "kw-user")
	r := newRepo(t, b, u, "kw")
	one := newIssue(t, s, r.ID, u.ID, "first")
	two := newIssue(t, s, r.ID, u.ID, "second")
	c := &issues.Comment{IssueID: one.ID, Type: issues.CommentPlain, PosterID: u.ID, Body: "the Zebra crossing qx", Created: issueAt, Updated: issueAt}
	ev := &issues.Comment{IssueID: two.ID, Type: issues.CommentClose, PosterID: u.ID, Body: "zebra qx", Created: issueAt, Updated: issueAt}
	issueUpdate(t, s, func(tx issues.Tx) error {
		if err := tx.CreateComment(ctx, c); err != nil {
			return err
		}
		return tx.CreateComment(ctx, ev)
	})
	find := func(keyword string) []forge.ID {
		t.Helper()
		var ids []forge.ID
		issueView(t, s, func(tx issues.Tx) error {
			list, n, err := tx.ListIssues(ctx, issues.IssueFilter{RepoIDs: []forge.ID{r.ID}, State: issues.StateAll, Keyword: keyword},
				forge.ListOptions{Page: 1, Limit: 10})
			require.EqualValues(t, len(list), n)
			for _, i := range list {
				ids = append(ids, i.ID)
			}
			return err
		})
		return ids
	}
	assert.Equal(t, []forge.ID{one.ID}, find("zebra"), "a plain comment's body, ignoring case")
	assert.Equal(t, []forge.ID{one.ID}, find("QX"), "a short keyword too")
	assert.Equal(t, []forge.ID{two.ID}, find("second"), "the title still")
	c.Body = "a horse"
	issueUpdate(t, s, func(tx issues.Tx) error { return tx.UpdateComment(ctx, c) })
	assert.Empty(t, find("zebra"), "an edited comment no longer matches its old text")
	assert.Equal(t, []forge.ID{one.ID}, find("horse"))
	issueUpdate(t, s, func(tx issues.Tx) error { return tx.DeleteComment(ctx, c.ID) })
	assert.Empty(t, find("horse"), "a deleted comment no longer matches")
}
