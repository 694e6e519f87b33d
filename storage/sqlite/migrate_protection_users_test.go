package sqlite

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
)

// Migration 00011 turns whitelisted names into the ids of the users that
// have them (ignoring case), drops names no user has, keeps team lists,
// and rolls back to the names.
func TestMigrationWhitelistNamesToIDs(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "old.db")
	oldDatabase(t, path, 10,
		`INSERT INTO users (id, name, lower_name, email, lower_email, created_unix, updated_unix) VALUES (1, 'Ann', 'ann', 'ann@x', 'ann@x', 1, 1)`,
		`INSERT INTO users (id, name, lower_name, email, lower_email, created_unix, updated_unix) VALUES (2, 'bob', 'bob', 'bob@x', 'bob@x', 1, 1)`,
		`INSERT INTO repository (id, owner_id, name, lower_name, default_branch, created_unix, updated_unix) VALUES (7, 1, 'p', 'p', 'main', 1, 1)`,
		`INSERT INTO protected_branch (id, repo_id, rule_name, enable_push, enable_push_whitelist, created_unix, updated_unix) VALUES (3, 7, 'main', 1, 1, 1, 1)`,
		`INSERT INTO protected_branch_entry (protection_id, list, pos, value) VALUES
			(3, 'push_users', 0, 'BOB'), (3, 'push_users', 1, 'ghost'), (3, 'push_users', 2, 'ann'),
			(3, 'merge_users', 0, 'ann'), (3, 'approvals_users', 0, 'ghost'), (3, 'push_teams', 0, 'core'),
			(3, 'status_contexts', 0, 'ci')`,
		`INSERT INTO protected_tag (id, repo_id, name_pattern, created_unix, updated_unix) VALUES (4, 7, 'v*', 1, 1)`,
		`INSERT INTO protected_tag_entry (protection_id, list, pos, value) VALUES (4, 'users', 0, 'nobody'), (4, 'users', 1, 'Ann'), (4, 'teams', 0, 'core')`,
	)

	db, err := Open(ctx, path)
	require.NoError(t, err)
	require.NoError(t, db.Repos().View(ctx, func(tx repos.Tx) error {
		bp, err := tx.Protection(ctx, 7, "main")
		require.NoError(t, err)
		require.Equal(t, []forge.ID{2, 1}, bp.PushWhitelistUserIDs)
		require.Equal(t, []forge.ID{1}, bp.MergeWhitelistUserIDs)
		require.Nil(t, bp.ApprovalsWhitelistUserIDs)
		require.Nil(t, bp.PushWhitelistUsernames)
		require.Equal(t, []string{"core"}, bp.PushWhitelistTeams)
		require.Equal(t, []string{"ci"}, bp.StatusCheckContexts)
		tp, err := tx.TagProtection(ctx, 7, 4)
		require.NoError(t, err)
		require.Equal(t, []forge.ID{1}, tp.WhitelistUserIDs)
		require.Equal(t, []string{"core"}, tp.WhitelistTeams)
		return nil
	}))
	require.NoError(t, db.Close())

	raw, p := rawMigrator(t, path)
	defer raw.Close()
	_, err = p.DownTo(ctx, 10)
	require.NoError(t, err)
	var push, tag string
	require.NoError(t, raw.QueryRowContext(ctx, `SELECT group_concat(value, ',') FROM (SELECT value FROM protected_branch_entry
		WHERE protection_id = 3 AND list = 'push_users' ORDER BY pos)`).Scan(&push))
	require.Equal(t, "bob,Ann", push)
	require.NoError(t, raw.QueryRowContext(ctx, `SELECT group_concat(value, ',') FROM protected_tag_entry
		WHERE protection_id = 4 AND list = 'users'`).Scan(&tag))
	require.Equal(t, "Ann", tag)
}
