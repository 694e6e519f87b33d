package sqlstore

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/issues"
)

// Every statement of the pull-request store finds its rows through an
// index: none scans pull_request, review or comment.
func TestPullQueryPlans(t *testing.T) {
	t.Parallel()
	db := openSQLite(t)
	no := false
	type query struct {
		sql  string
		args []any
		// index is the index the plan must use.
		index string
	}
	q := func(index, s string, args ...any) query { return query{s, args, index} }
	find := func(index string, pf issues.PullFilter) query {
		s, args := findPullsQuery(pf)
		return query{s, args, index}
	}
	reviews := func(rf issues.ReviewFilter) query {
		where, args := reviewsWhere(rf)
		return query{"SELECT " + reviewCols + where + " ORDER BY r.id LIMIT 10 OFFSET 0", args, "review_issue"}
	}
	const byIssue = "sqlite_autoindex_pull_request_1"
	for name, c := range map[string]query{
		"by issue":         q(byIssue, sqlPullByIssueID, 1),
		"by issues":        q(byIssue, sqlPullsByIssueIDs, "[1,2]"),
		"base":             find("pull_request_base", issues.PullFilter{BaseRepoID: 1}),
		"base branch open": find("pull_request_base", issues.PullFilter{BaseRepoID: 1, BaseBranch: "main", Open: true}),
		"head branch open": find("pull_request_head", issues.PullFilter{HeadRepoID: 2, HeadBranch: "ba", Open: true}),
		"merged commit":    find("pull_request_merged", issues.PullFilter{BaseRepoID: 1, MergedCommitID: "abc"}),
		"issues":           find(byIssue, issues.PullFilter{IssueIDs: []forge.ID{1, 2}}),
		"reviews":          reviews(issues.ReviewFilter{IssueID: 1}),
		"reviews filtered": reviews(issues.ReviewFilter{IssueID: 1, Types: []issues.ReviewType{4}, ReviewerTeamID: 3, Dismissed: &no}),
		"review comments":  q("comment_review", sqlReviewComments, "[1,2]"),
		"delete comments":  q("comment_review", sqlDeleteReviewComments, 1),
		"auto merge":       q("sqlite_autoindex_pull_auto_merge_1", sqlAutoMergeByPull, 1),
		"team requests": q("review_team",
			`DELETE FROM review WHERE reviewer_team_id = ? AND reviewer_team_id <> 0 AND type = 4`, 1),
	} {
		plan := queryPlan(t, db, c.sql, c.args...)
		assert.Contains(t, strings.Join(plan, "; "), "INDEX "+c.index+" ", name)
		for _, step := range plan {
			if strings.HasPrefix(step, "SCAN ") && !strings.Contains(step, "json_each") && !strings.Contains(step, "USING") {
				t.Errorf("%s scans a table: %q (plan %q)", name, step, plan)
			}
		}
	}
}

// The pull-request list of one repository and state walks issue_repo_pull
// in its order and stops at the page: no sort, no walk over the issues.
func TestPullListPlan(t *testing.T) {
	t.Parallel()
	db := openSQLite(t)
	repoID := forge.ID(1)
	yes := true
	for _, st := range []issues.State{issues.StateOpen, issues.StateClosed} {
		for _, sort := range []issues.IssueSort{issues.IssueSortLatest, issues.IssueSortOldest} {
			where, args, ok := issueWhere(issues.IssueFilter{RepoIDs: []forge.ID{repoID}, State: st, IsPull: &yes}, true)
			require.True(t, ok)
			plan := queryPlan(t, db, "SELECT "+issueCols+" FROM issue i WHERE "+where+
				" ORDER BY "+issueOrders[sort]+" LIMIT 30 OFFSET 0", args...)
			assert.Equal(t, []string{"SEARCH i USING INDEX issue_repo_pull (repo_id=? AND is_pull=? AND is_closed=?)"}, plan,
				"state %s, sort %q", st, sort)
		}
	}
}

// queryPlan returns the details of SQLite's EXPLAIN QUERY PLAN for query.
func queryPlan(t *testing.T, db *DB, query string, args ...any) []string {
	t.Helper()
	rows, err := db.write.QueryContext(context.Background(), "EXPLAIN QUERY PLAN "+query, args...)
	require.NoError(t, err, query)
	defer rows.Close()
	var plan []string
	for rows.Next() {
		var id, parent, unused int
		var detail string
		require.NoError(t, rows.Scan(&id, &parent, &unused, &detail))
		plan = append(plan, detail)
	}
	require.NoError(t, rows.Err())
	return plan
}
