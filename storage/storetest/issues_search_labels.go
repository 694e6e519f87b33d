package storetest

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/issues"
)

// testIssueLabelSearch: the label filter lists and counts each issue
// once, with the state and kind filters, whether the labels belong to
// different repositories (no issue may carry two of them) or to one (an
// issue carrying two is still one match), and follows an issue's state
// as it changes, and labels and issues as they go.
func testIssueLabelSearch(t *testing.T, b Backend) {
	ctx := context.Background()
	s := b.Issues()
	ann := newUser(t, b, "lsann")
	r1, r2 := newRepo(t, b, ann, "lsone"), newRepo(t, b, ann, "lstwo")
	label := func(repo forge.ID, name string) *issues.Label {
		l := &issues.Label{RepoID: repo, Name: name, Color: "#00aabb"}
		issueUpdate(t, s, func(tx issues.Tx) error { return tx.CreateLabel(ctx, l) })
		return l
	}
	a1, a2, b1 := label(r1.ID, "a1"), label(r1.ID, "a2"), label(r2.ID, "b1")
	issue := func(repo forge.ID, title string, closed, pull bool, labels ...*issues.Label) *issues.Issue {
		i := newIssue(t, s, repo, ann.ID, title, func(i *issues.Issue) { i.IsClosed, i.IsPull = closed, pull })
		var ids []forge.ID
		for _, l := range labels {
			ids = append(ids, l.ID)
		}
		issueUpdate(t, s, func(tx issues.Tx) error { return tx.SetIssueLabels(ctx, i.ID, ids) })
		return i
	}
	issue(r1.ID, "i1", false, false, a1)
	issue(r1.ID, "i2", false, false, a1, a2)
	issue(r1.ID, "i3", true, false, a2)
	i4 := issue(r2.ID, "i4", false, true, b1)
	i5 := issue(r2.ID, "i5", false, false, b1)
	issue(r1.ID, "i6", false, false)

	list := func(f issues.IssueFilter, o forge.ListOptions) ([]string, int64) {
		t.Helper()
		f.Sort = issues.IssueSortOldest
		return listIssueTitles(t, s, f, o)
	}
	all := forge.ListOptions{Page: 1, Limit: 50}
	both := []forge.ID{r1.ID, r2.ID}
	ids := func(ls ...*issues.Label) []forge.ID {
		var out []forge.ID
		for _, l := range ls {
			out = append(out, l.ID)
		}
		return out
	}
	notPull, pull := false, true
	for _, tc := range []struct {
		name  string
		f     issues.IssueFilter
		want  []string
		total int64
	}{
		{"two repositories, open", issues.IssueFilter{RepoIDs: both, LabelIDs: ids(a1, b1), State: issues.StateOpen}, []string{"i1", "i2", "i4", "i5"}, 4},
		{"two repositories, issues", issues.IssueFilter{RepoIDs: both, LabelIDs: ids(a1, b1), State: issues.StateOpen, IsPull: &notPull}, []string{"i1", "i2", "i5"}, 3},
		{"two repositories, pulls", issues.IssueFilter{RepoIDs: both, LabelIDs: ids(a1, b1), IsPull: &pull}, []string{"i4"}, 1},
		{"two repositories, closed", issues.IssueFilter{RepoIDs: both, LabelIDs: ids(a1, b1), State: issues.StateClosed}, []string{}, 0},
		{"one repository of the two", issues.IssueFilter{RepoIDs: []forge.ID{r1.ID}, LabelIDs: ids(a1, b1), State: issues.StateAll}, []string{"i1", "i2"}, 2},
		{"two labels of one repository", issues.IssueFilter{RepoIDs: both, LabelIDs: ids(a1, a2), State: issues.StateOpen}, []string{"i1", "i2"}, 2},
		{"two labels of one repository, all", issues.IssueFilter{RepoIDs: both, LabelIDs: ids(a1, a2), State: issues.StateAll}, []string{"i1", "i2", "i3"}, 3},
		{"a listed id twice", issues.IssueFilter{RepoIDs: both, LabelIDs: ids(a1, a1), State: issues.StateAll}, []string{"i1", "i2"}, 2},
	} {
		got, n := list(tc.f, all)
		assert.Equal(t, tc.want, got, tc.name)
		assert.Equal(t, tc.total, n, tc.name)
		if tc.total > 1 {
			got, n = list(tc.f, forge.ListOptions{Page: 2, Limit: 1})
			assert.Equal(t, tc.want[1:2], got, tc.name+": page 2")
			assert.Equal(t, tc.total, n, tc.name+": page 2")
		}
	}

	// Closing i5 moves it from the open matches to the closed ones.
	i5.IsClosed, i5.Closed = true, issueAt
	issueUpdate(t, s, func(tx issues.Tx) error { return tx.UpdateIssue(ctx, i5) })
	got, n := list(issues.IssueFilter{RepoIDs: both, LabelIDs: ids(a1, b1), State: issues.StateOpen}, all)
	assert.Equal(t, []string{"i1", "i2", "i4"}, got)
	assert.EqualValues(t, 3, n)
	got, n = list(issues.IssueFilter{RepoIDs: both, LabelIDs: ids(a1, b1), State: issues.StateClosed}, all)
	assert.Equal(t, []string{"i5"}, got)
	assert.EqualValues(t, 1, n)
	// Labels set after the change carry the issue's state too.
	issueUpdate(t, s, func(tx issues.Tx) error { return tx.SetIssueLabels(ctx, i5.ID, ids(b1)) })
	_, n = list(issues.IssueFilter{RepoIDs: both, LabelIDs: ids(b1), State: issues.StateClosed, IsPull: &notPull}, all)
	assert.EqualValues(t, 1, n)

	// Labels taken off, issues and labels deleted leave the counts.
	issueUpdate(t, s, func(tx issues.Tx) error { return tx.SetIssueLabels(ctx, i5.ID, nil) })
	got, n = list(issues.IssueFilter{RepoIDs: both, LabelIDs: ids(a1, b1), State: issues.StateAll}, all)
	assert.Equal(t, []string{"i1", "i2", "i4"}, got, "a label taken off")
	assert.EqualValues(t, 3, n, "a label taken off")
	issueUpdate(t, s, func(tx issues.Tx) error { return tx.DeleteIssue(ctx, i4.ID) })
	got, n = list(issues.IssueFilter{RepoIDs: both, LabelIDs: ids(a1, b1), State: issues.StateAll}, all)
	assert.Equal(t, []string{"i1", "i2"}, got, "an issue deleted")
	assert.EqualValues(t, 2, n, "an issue deleted")
	issueUpdate(t, s, func(tx issues.Tx) error { return tx.DeleteLabel(ctx, a2.ID) })
	b2 := label(r2.ID, "b2")
	issueUpdate(t, s, func(tx issues.Tx) error { return tx.SetIssueLabels(ctx, i5.ID, ids(b2)) })
	got, n = list(issues.IssueFilter{RepoIDs: both, LabelIDs: ids(a1, b2), State: issues.StateAll}, all)
	assert.Equal(t, []string{"i1", "i2", "i5"}, got, "a label deleted, another added")
	assert.EqualValues(t, 3, n, "a label deleted, another added")
}

// testIssueAssigneeSearch: the assignee filter counts each issue once,
// with the state, kind and milestone filters, and follows an issue's
// state and milestone as they change, and assignees and issues as they
// go.
func testIssueAssigneeSearch(t *testing.T, b Backend) {
	ctx := context.Background()
	s := b.Issues()
	ann := newUser(t, b, "asann")
	bob := newUser(t, b, "asbob")
	r1, r2 := newRepo(t, b, ann, "asone"), newRepo(t, b, ann, "astwo")
	m1 := &issues.Milestone{RepoID: r1.ID, Title: "m1", Deadline: issues.NoDeadline, Created: issueAt, Updated: issueAt}
	issueUpdate(t, s, func(tx issues.Tx) error { return tx.CreateMilestone(ctx, m1) })
	issue := func(repo forge.ID, title string, closed, pull bool, ms forge.ID, who ...*forge.User) *issues.Issue {
		i := newIssue(t, s, repo, ann.ID, title, func(i *issues.Issue) { i.IsClosed, i.IsPull, i.MilestoneID = closed, pull, ms })
		var ids []forge.ID
		for _, u := range who {
			ids = append(ids, u.ID)
		}
		issueUpdate(t, s, func(tx issues.Tx) error { return tx.SetAssignees(ctx, i.ID, ids) })
		return i
	}
	j1 := issue(r1.ID, "j1", false, false, m1.ID, bob)
	issue(r1.ID, "j2", true, false, 0, bob)
	j3 := issue(r2.ID, "j3", false, true, 0, bob)
	issue(r1.ID, "j4", false, false, 0, ann)
	issue(r1.ID, "j5", false, false, m1.ID, bob, ann)

	both := []forge.ID{r1.ID, r2.ID}
	count := func(f issues.IssueFilter) ([]string, int64) {
		t.Helper()
		f.Sort, f.RepoIDs, f.AssigneeID = issues.IssueSortOldest, both, bob.ID
		return listIssueTitles(t, s, f, forge.ListOptions{Page: 1, Limit: 50})
	}
	notPull := false
	check := func(f issues.IssueFilter, want ...string) {
		t.Helper()
		got, n := count(f)
		if want == nil {
			want = []string{}
		}
		assert.Equal(t, want, got)
		assert.EqualValues(t, len(want), n)
	}
	check(issues.IssueFilter{State: issues.StateOpen}, "j1", "j3", "j5")
	check(issues.IssueFilter{State: issues.StateAll}, "j1", "j2", "j3", "j5")
	check(issues.IssueFilter{State: issues.StateOpen, IsPull: &notPull}, "j1", "j5")
	check(issues.IssueFilter{State: issues.StateOpen, MilestoneIDs: []forge.ID{m1.ID}}, "j1", "j5")
	check(issues.IssueFilter{State: issues.StateAll, MilestoneIDs: []forge.ID{0}}, "j2", "j3")
	check(issues.IssueFilter{State: issues.StateClosed}, "j2")

	// Leaving the milestone and closing follow.
	j1.MilestoneID = 0
	j3.IsClosed, j3.Closed = true, issueAt
	issueUpdate(t, s, func(tx issues.Tx) error {
		if err := tx.UpdateIssue(ctx, j1); err != nil {
			return err
		}
		return tx.UpdateIssue(ctx, j3)
	})
	check(issues.IssueFilter{State: issues.StateOpen, MilestoneIDs: []forge.ID{m1.ID}}, "j5")
	check(issues.IssueFilter{State: issues.StateOpen}, "j1", "j5")
	check(issues.IssueFilter{State: issues.StateClosed, MilestoneIDs: []forge.ID{0}}, "j2", "j3")

	// Unassigning and deleting follow too.
	issueUpdate(t, s, func(tx issues.Tx) error { return tx.SetAssignees(ctx, j1.ID, []forge.ID{ann.ID}) })
	check(issues.IssueFilter{State: issues.StateOpen}, "j5")
	issueUpdate(t, s, func(tx issues.Tx) error { return tx.DeleteIssue(ctx, j3.ID) })
	check(issues.IssueFilter{State: issues.StateClosed, MilestoneIDs: []forge.ID{0}}, "j2")
}
