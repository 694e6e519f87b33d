package sqlite

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
)

// Migrations 00008 and 00009 turn the JSON settings, topics and protection
// lists of existing rows into columns and child rows.
func TestMigrationConvertsJSONRows(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "old.db")
	oldDatabase(t, path, 7,
		`INSERT INTO users (id, name, lower_name, email, lower_email, created_unix, updated_unix) VALUES (1, 'Ann', 'ann', 'ann@x', 'ann@x', 1, 1)`,
		`INSERT INTO repository (id, owner_id, name, lower_name, default_branch, settings, topics, created_unix, updated_unix)
		 VALUES (7, 1, 'Proj', 'proj', 'main', '{"HasIssues":true,"AllowSquash":true,"DefaultMergeStyle":"squash",
		 "InternalTracker":{"enable_time_tracker":true,"allow_only_contributors_to_track_time":false,"enable_issue_dependencies":true},
		 "ExternalWiki":{"external_wiki_url":"https://wiki"},"Avatar":"repo-avatar-7-x"}', '["go","tools"]', 10, 20)`,
		`INSERT INTO protected_branch (id, repo_id, rule_name, settings, created_unix, updated_unix)
		 VALUES (3, 7, 'main', '{"EnablePush":true,"RequiredApprovals":2,"PushWhitelistUsernames":["ann","bob"],
		 "StatusCheckContexts":["ci"],"ProtectedFilePatterns":"*.go"}', 10, 20)`,
		`INSERT INTO protected_tag (id, repo_id, name_pattern, usernames, teams, created_unix, updated_unix)
		 VALUES (4, 7, 'v*', '["ann"]', '[]', 10, 20)`,
	)

	db, err := Open(ctx, path)
	require.NoError(t, err)
	defer db.Close()
	require.NoError(t, db.Repos().View(ctx, func(tx repos.Tx) error {
		r, err := tx.RepoByID(ctx, 7)
		require.NoError(t, err)
		require.True(t, r.HasIssues)
		require.False(t, r.HasWiki)
		require.True(t, r.AllowSquash)
		require.Equal(t, "squash", r.DefaultMergeStyle)
		require.Equal(t, &forge.InternalTracker{EnableTimeTracker: true, EnableIssueDependencies: true}, r.InternalTracker)
		require.Nil(t, r.ExternalTracker)
		require.Equal(t, &forge.ExternalWiki{URL: "https://wiki"}, r.ExternalWiki)
		require.Equal(t, "repo-avatar-7-x", r.Avatar)
		require.Equal(t, []string{"go", "tools"}, r.Topics)
		require.Equal(t, forge.RepoReady, r.Status)

		bp, err := tx.Protection(ctx, 7, "main")
		require.NoError(t, err)
		require.True(t, bp.EnablePush)
		require.EqualValues(t, 2, bp.RequiredApprovals)
		require.Equal(t, []forge.ID{1}, bp.PushWhitelistUserIDs) // 00011: names to ids, unknown bob dropped
		require.Equal(t, []string{"ci"}, bp.StatusCheckContexts)
		require.Nil(t, bp.MergeWhitelistUserIDs)
		require.Equal(t, "*.go", bp.ProtectedFilePatterns)

		tp, err := tx.TagProtection(ctx, 7, 4)
		require.NoError(t, err)
		require.Equal(t, []forge.ID{1}, tp.WhitelistUserIDs)
		require.Equal(t, []string{}, tp.WhitelistTeams)
		return nil
	}))
}

// The new migrations can be rolled back to the JSON schema.
func TestMigrationColumnsRollBack(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	raw, p := rawMigrator(t, filepath.Join(t.TempDir(), "db"))
	defer raw.Close()
	_, err := p.Up(ctx)
	require.NoError(t, err)
	for _, q := range []string{
		`INSERT INTO users (id, name, lower_name, email, lower_email, created_unix, updated_unix) VALUES (1, 'Ann', 'ann', 'ann@x', 'ann@x', 1, 1)`,
		`INSERT INTO repository (id, owner_id, name, lower_name, default_branch, has_issues, created_unix, updated_unix) VALUES (7, 1, 'p', 'p', 'main', 1, 1, 1)`,
		`INSERT INTO repo_topic (repo_id, topic) VALUES (7, 'go')`,
		`INSERT INTO protected_tag (id, repo_id, name_pattern, created_unix, updated_unix) VALUES (4, 7, 'v*', 1, 1)`,
		`INSERT INTO protected_tag_entry (protection_id, list, pos, value) VALUES (4, 'users', 0, 'ann')`,
	} {
		_, err := raw.ExecContext(ctx, q)
		require.NoError(t, err, q)
	}
	_, err = p.DownTo(ctx, 7)
	require.NoError(t, err)
	var topics, settings, users string
	require.NoError(t, raw.QueryRowContext(ctx, `SELECT topics, settings FROM repository WHERE id = 7`).Scan(&topics, &settings))
	require.Equal(t, `["go"]`, topics)
	require.Contains(t, settings, `"HasIssues":true`)
	require.NoError(t, raw.QueryRowContext(ctx, `SELECT usernames FROM protected_tag WHERE id = 4`).Scan(&users))
	require.Equal(t, `["ann"]`, users)
}
