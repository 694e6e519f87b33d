package sqlite

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/forgetest"
	"github.com/hearthforge/hearth/forge/repos"
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
	_, err = p.DownTo(ctx, 13) // with the later migrations, which may alter 00014's tables
	require.NoError(t, err)
	var n int
	require.NoError(t, raw.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_master WHERE name LIKE 'issue%'`).Scan(&n))
	assert.Zero(t, n, "down drops every table, index and trigger of 00014")
	_, err = p.ApplyVersion(ctx, 14, true)
	require.NoError(t, err)
	require.NoError(t, raw.Close()) // Open applies the later migrations again
	db, err = Open(ctx, path)
	require.NoError(t, err)
	require.NoError(t, db.Close())
}

// The keyword index and the counters follow every way an issue goes: its
// own deletion, an edit, and its repository's deletion (a cascade).
func TestIssueTextFollowsDeletions(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, err := Open(ctx, ":memory:")
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	owner := forgetest.User("owner")
	require.NoError(t, db.Auth().Update(ctx, func(tx auth.Tx) error { return tx.CreateUser(ctx, owner, "") }))
	var a, b *forge.Repository
	require.NoError(t, db.Repos().Update(ctx, func(tx repos.Tx) error {
		a = &forge.Repository{OwnerID: owner.ID, Name: "a", DefaultBranch: "main"}
		b = &forge.Repository{OwnerID: owner.ID, Name: "b", DefaultBranch: "main"}
		if err := tx.CreateRepo(ctx, a); err != nil {
			return err
		}
		return tx.CreateRepo(ctx, b)
	}))
	require.NoError(t, db.Issues().Update(ctx, func(tx issues.Tx) error {
		for k, repo := range []forge.ID{a.ID, a.ID, b.ID} {
			i := &issues.Issue{RepoID: repo, Index: int64(k + 1), PosterID: owner.ID, Title: "zebra crossing", Body: "stripes"}
			if err := tx.CreateIssue(ctx, i); err != nil {
				return err
			}
			if k == 1 {
				i.Title = "lion"
				if err := tx.UpdateIssue(ctx, i); err != nil {
					return err
				}
			}
		}
		return nil
	}))
	count := func(table, where string) int {
		var n int
		require.NoError(t, db.write.QueryRowContext(ctx, "SELECT count(*) FROM "+table+" WHERE "+where).Scan(&n))
		return n
	}
	assert.Equal(t, 2, count("issue_text", `issue_text MATCH '"zebra"'`))
	assert.Equal(t, 1, count("issue_text", `issue_text MATCH '"lion"'`))
	require.NoError(t, db.Repos().Update(ctx, func(tx repos.Tx) error { return tx.DeleteRepo(ctx, a.ID) }))
	assert.Equal(t, 1, count("issue_text", `issue_text MATCH '"zebra"'`), "a repository's deletion takes its issues' text")
	assert.Equal(t, 0, count("issue_text", `issue_text MATCH '"lion"'`))
	assert.Equal(t, 1, count("issue_text", `issue_text MATCH '"stripes"'`))
	assert.Equal(t, 0, count("issue_count", "repo_id = "+fmt.Sprint(a.ID)))
	_, err = db.write.ExecContext(ctx, `INSERT INTO issue_text (issue_text) VALUES ('integrity-check')`)
	require.NoError(t, err, "the keyword index agrees with the issues")
	// The text by state and kind (00035, open issues here) follows too.
	assert.Equal(t, 1, count("issue_text_oi", `issue_text_oi MATCH '"zebra"'`))
	assert.Equal(t, 0, count("issue_text_oi", `issue_text_oi MATCH '"lion"'`))
	assert.Equal(t, 0, count("issue_text_ci", `issue_text_ci MATCH '"zebra"'`))
	for _, part := range []string{"oi", "op", "ci", "cp"} {
		_, err = db.write.ExecContext(ctx, `INSERT INTO issue_text_`+part+` (issue_text_`+part+`) VALUES ('integrity-check')`)
		require.NoError(t, err, "issue_text_%s", part)
	}
}
