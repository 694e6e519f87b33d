package issues_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/issues"
)

func TestClearLabelsAndIssueListFilters(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	alice, bob := e.user("alice"), e.user("bob")
	e.repo(alice, "r", false)
	e.collab(alice, "r", bob, forge.AccessModeWrite)
	e.issue(alice, "alice", "r", "one crash")
	e.issue(bob, "alice", "r", "two")
	l := e.label(alice, "alice", "r", "bug", false)
	_, err := e.svc.AddLabels(e.ctx, alice, "alice", "r", 2, issues.LabelsOption{Names: []string{"bug"}})
	require.NoError(t, err)

	list := func(opt issues.ListIssuesOption) string {
		vs, _, err := e.svc.List(e.ctx, alice, "alice", "r", opt)
		require.NoError(t, err)
		s := ""
		for _, v := range vs {
			s += v.Issue.Title + ";"
		}
		return s
	}
	require.Equal(t, "two;one crash;", list(issues.ListIssuesOption{}))
	require.Equal(t, "two;", list(issues.ListIssuesOption{Labels: []string{"bug"}}))
	require.Equal(t, "", list(issues.ListIssuesOption{Labels: []string{"nope"}}))
	require.Equal(t, "two;", list(issues.ListIssuesOption{CreatedBy: "bob"}))
	require.Equal(t, "", list(issues.ListIssuesOption{CreatedBy: "nobody"}))
	require.Equal(t, "one crash;", list(issues.ListIssuesOption{Keyword: "CRASH"}))
	require.Equal(t, "", list(issues.ListIssuesOption{State: issues.StateClosed}))
	require.Equal(t, "", list(issues.ListIssuesOption{Type: issues.TypePulls}))

	require.NoError(t, e.svc.ClearLabels(e.ctx, alice, "alice", "r", 2, nil))
	ls, err := e.svc.IssueLabels(e.ctx, alice, "alice", "r", 2)
	require.NoError(t, err)
	require.Empty(t, ls)
	require.NotNil(t, ls)
	got, err := e.svc.GetLabel(e.ctx, alice, "alice", "r", "bug")
	require.NoError(t, err)
	require.Zero(t, got.NumIssues)
	require.NoError(t, e.svc.DeleteLabel(e.ctx, alice, "alice", "r", l.ID))
	_, _, err = e.svc.ListLabels(e.ctx, alice, "alice", "r", "", forge.ListOptions{})
	require.NoError(t, err)
}
