package sqlstore

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The issue counters of a repository view read issue_count rows by its
// primary key (one repository's rows of both kinds, or the rows of a kind
// for each repository of the JSON list), with no GROUP BY (no temporary b-tree) and no scan.
func TestIssueCountPlans(t *testing.T) {
	t.Parallel()
	db := openSQLite(t)
	ctx := context.Background()
	for name, c := range map[string]struct {
		sql    string
		args   []any
		search string // the lookup the plan must make
	}{
		"one repository": {sqlIssueCountsOne, []any{1}, "SEARCH issue_count USING PRIMARY KEY (repo_id=?)"},
		"repositories":   {sqlIssueCounts, []any{"[1,2]", true}, "SEARCH issue_count USING PRIMARY KEY (repo_id=? AND is_pull=?)"},
	} {
		rows, err := db.write.QueryContext(ctx, "EXPLAIN QUERY PLAN "+c.sql, c.args...)
		require.NoError(t, err, name)
		var plan []string
		for rows.Next() {
			var id, parent, unused int
			var detail string
			require.NoError(t, rows.Scan(&id, &parent, &unused, &detail))
			plan = append(plan, detail)
		}
		require.NoError(t, rows.Err())
		rows.Close()
		joined := strings.Join(plan, "; ")
		assert.Contains(t, joined, c.search, name)
		assert.NotContains(t, joined, "TEMP B-TREE", name)
		for _, step := range plan {
			if strings.HasPrefix(step, "SCAN ") && !strings.Contains(step, "json_each") {
				t.Errorf("%s scans a table: %q (plan %q)", name, step, plan)
			}
		}
	}
}
