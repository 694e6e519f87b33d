package sqlite

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/issues"
)

// A filter that can match nothing answers without a statement: the
// search of a user who sees no repository costs no query. The proof: the
// answer comes even with a cancelled context, which any statement would
// return as its error.
func TestListIssuesMatchingNothingRunsNoQuery(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, err := Open(ctx, ":memory:")
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	require.NoError(t, db.Issues().View(ctx, func(tx issues.Tx) error {
		for name, f := range map[string]issues.IssueFilter{
			"no repository":        {State: issues.StateOpen, Keyword: "x"},
			"an empty label list":  {RepoIDs: []forge.ID{1}, LabelIDs: []forge.ID{}},
			"an empty name list":   {PublicRepos: true, LabelNames: []string{}},
			"no milestone":         {RepoIDs: []forge.ID{1}, MilestoneIDs: []forge.ID{}},
			"no milestone by name": {RepoIDs: []forge.ID{1}, MilestoneNames: []string{}},
		} {
			list, total, err := tx.ListIssues(cancelled, f, forge.ListOptions{Page: 1, Limit: 20})
			require.NoError(t, err, name)
			assert.NotNil(t, list, name)
			assert.Empty(t, list, name)
			assert.Zero(t, total, name)
		}
		_, _, err := tx.ListIssues(cancelled, issues.IssueFilter{PublicRepos: true}, forge.ListOptions{Page: 1, Limit: 20})
		assert.ErrorIs(t, err, context.Canceled, "a filter that may match runs its query")
		return nil
	}))
}

// Migration 00014 goes down and up again cleanly (tables, triggers and the
// keyword index).
func TestMigrationIssuesDownUp(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "issues.db")
	db, err := Open(ctx, path)
	require.NoError(t, err)
	require.NoError(t, db.Close())
	raw, p := rawMigrator(t, path)
	defer raw.Close()
	_, err = p.ApplyVersion(ctx, 14, false)
	require.NoError(t, err)
	var n int
	require.NoError(t, raw.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_master WHERE name LIKE 'issue%'`).Scan(&n))
	assert.Zero(t, n, "down drops every table, index and trigger of 00014")
	_, err = p.ApplyVersion(ctx, 14, true)
	require.NoError(t, err)
	require.NoError(t, raw.Close())
	db, err = Open(ctx, path)
	require.NoError(t, err)
	require.NoError(t, db.Close())
}
