package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/issues"
)

func commentBodies(list []*issues.Comment) []string {
	return pluck(list, func(c *issues.Comment) string { return c.Body })
}

func testIssueComments(t *testing.T, b Backend) {
	ctx := context.Background()
	s := b.Issues()
	ann, r, other := newUserRepos(t, b, "cann", "talk", "quiet")
	i1 := newIssue(t, s, r.ID, ann.ID, "one")
	i2 := newIssue(t, s, r.ID, ann.ID, "two", func(i *issues.Issue) { i.IsPull = true })
	i3 := newIssue(t, s, other.ID, ann.ID, "three")

	in := &issues.Comment{IssueID: i1.ID, Type: issues.CommentMilestone, PosterID: ann.ID, OriginalAuthor: "gh",
		OriginalAuthorID: 9, Body: "event", LabelID: 3, Content: "1", OldMilestoneID: 4, MilestoneID: 5,
		AssigneeID: 6, RemovedAssignee: true, OldTitle: "old", NewTitle: "new", OldRef: "main", NewRef: "dev", ContentVersion: 2,
		Created: issueAt, Updated: issueAt.Add(time.Minute)}
	issueUpdate(t, s, func(tx issues.Tx) error { return tx.CreateComment(ctx, in) })
	require.NotZero(t, in.ID)
	want := *in
	issueView(t, s, func(tx issues.Tx) error {
		got, err := tx.CommentByID(ctx, in.ID)
		wantRoundTrip(t, "comment", &want, got, err)
		_, err = tx.CommentByID(ctx, 9999)
		assert.ErrorIs(t, err, forge.ErrNotFound)
		return nil
	})
	err := s.Update(ctx, func(tx issues.Tx) error {
		return tx.CreateComment(ctx, &issues.Comment{IssueID: 9999, PosterID: ann.ID, Body: "x", Created: issueAt, Updated: issueAt})
	})
	assert.ErrorIs(t, err, forge.ErrNotFound, "a comment needs its issue")

	// UpdateComment writes every field but IssueID, Type and Created.
	changed := issues.Comment{ID: in.ID, IssueID: i2.ID, Type: issues.CommentPlain, PosterID: ann.ID + 1, Body: "edited",
		OldRef: "dev", NewRef: "v2",
		ContentVersion: 3, Created: issueAt.Add(-time.Hour), Updated: issueAt.Add(time.Hour)}
	issueUpdate(t, s, func(tx issues.Tx) error { c := changed; return tx.UpdateComment(ctx, &c) })
	want = changed
	want.IssueID, want.Type, want.Created = i1.ID, issues.CommentMilestone, issueAt
	issueView(t, s, func(tx issues.Tx) error {
		got, err := tx.CommentByID(ctx, in.ID)
		require.NoError(t, err)
		assert.Empty(t, cmp.Diff(&want, got), "UpdateComment keeps IssueID, Type and Created")
		return nil
	})
	err = s.Update(ctx, func(tx issues.Tx) error { c := changed; c.ID = 9999; return tx.UpdateComment(ctx, &c) })
	assert.ErrorIs(t, err, forge.ErrNotFound)

	m := func(n int) time.Time { return issueAt.Add(time.Duration(n) * time.Minute) }
	add := func(issue *issues.Issue, typ issues.CommentType, body string, created, updated time.Time) *issues.Comment {
		c := &issues.Comment{IssueID: issue.ID, Type: typ, PosterID: ann.ID, Body: body, Created: created, Updated: updated}
		issueUpdate(t, s, func(tx issues.Tx) error { return tx.CreateComment(ctx, c) })
		return c
	}
	// Created out of order, and two at the same second (then by id).
	add(i2, issues.CommentPlain, "i2 late", m(30), m(30))
	add(i1, issues.CommentPlain, "i1 first", m(10), m(40))
	add(i1, issues.CommentClose, "", m(20), m(20))
	add(i1, issues.CommentPlain, "i1 second", m(20), m(25))
	add(i3, issues.CommentPlain, "elsewhere", m(5), m(5))
	gone := add(i2, issues.CommentPlain, "deleted", m(50), m(50))
	wantDeleteOnce(t, s, func(ctx context.Context, tx issues.Tx) error { return tx.DeleteComment(ctx, gone.ID) })

	plain := []issues.CommentType{issues.CommentPlain}
	yes, no := true, false
	all := forge.ListOptions{Page: 1, Limit: 50}
	checkFilters(t, s, map[string]filterCase[issues.CommentFilter, string]{
		"neither issue nor repository": {issues.CommentFilter{}, []string{}},
		"one issue, oldest first":      {issues.CommentFilter{IssueID: i1.ID}, []string{"edited", "i1 first", "", "i1 second"}},
		"one issue, plain comments":    {issues.CommentFilter{IssueID: i1.ID, Types: plain}, []string{"i1 first", "i1 second"}},
		"no type":                      {issues.CommentFilter{IssueID: i1.ID, Types: []issues.CommentType{}}, []string{}},
		"two types":                    {issues.CommentFilter{IssueID: i1.ID, Types: []issues.CommentType{issues.CommentClose, issues.CommentMilestone}}, []string{"edited", ""}},
		"a repository":                 {issues.CommentFilter{RepoID: r.ID, Types: plain}, []string{"i1 first", "i1 second", "i2 late"}},
		"the other repository":         {issues.CommentFilter{RepoID: other.ID}, []string{"elsewhere"}},
		"comments of pulls":            {issues.CommentFilter{RepoID: r.ID, Types: plain, IsPull: &yes}, []string{"i2 late"}},
		"comments of issues":           {issues.CommentFilter{RepoID: r.ID, Types: plain, IsPull: &no}, []string{"i1 first", "i1 second"}},
		"an issue's, of pulls":         {issues.CommentFilter{IssueID: i1.ID, IsPull: &yes}, []string{}},
		"issue and repository":         {issues.CommentFilter{RepoID: other.ID, IssueID: i1.ID}, []string{}},
		"updated since, inclusive":     {issues.CommentFilter{RepoID: r.ID, UpdatedSince: m(30)}, []string{"edited", "i1 first", "i2 late"}},
		"updated before, inclusive":    {issues.CommentFilter{RepoID: r.ID, UpdatedBefore: m(20)}, []string{""}},
	}, commentBodies, func(ctx context.Context, tx issues.Tx, f issues.CommentFilter) ([]*issues.Comment, int64, error) {
		return tx.ListComments(ctx, f, all)
	})
	issueView(t, s, func(tx issues.Tx) error {
		list, total, err := tx.ListComments(ctx, issues.CommentFilter{RepoID: r.ID}, forge.ListOptions{Page: 2, Limit: 2})
		require.NoError(t, err)
		assert.EqualValues(t, 5, total)
		assert.Equal(t, []string{"", "i1 second"}, commentBodies(list))
		list, _, err = tx.ListComments(ctx, issues.CommentFilter{RepoID: r.ID}, forge.ListOptions{Page: 1, Limit: -1})
		require.NoError(t, err)
		assert.Len(t, list, 5, "a negative limit lists everything")
		return nil
	})
}
