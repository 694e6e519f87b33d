package sqlite

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/forgetest"
)

// userRefs counts the rows of every table with a foreign key to users.
func userRefs(t *testing.T, db *sql.DB) map[string]int {
	t.Helper()
	ctx := context.Background()
	rows, err := db.QueryContext(ctx, `SELECT DISTINCT m.name FROM sqlite_master m, pragma_foreign_key_list(m.name) f
		WHERE m.type = 'table' AND f."table" = 'users' ORDER BY m.name`)
	require.NoError(t, err)
	var tables []string
	for rows.Next() {
		var name string
		require.NoError(t, rows.Scan(&name))
		tables = append(tables, name)
	}
	require.NoError(t, rows.Err())
	require.NoError(t, rows.Close())
	counts := map[string]int{}
	for _, table := range tables {
		var n int
		require.NoError(t, db.QueryRowContext(ctx, `SELECT count(*) FROM "`+table+`"`).Scan(&n))
		counts[table] = n
	}
	return counts
}

// The users rows an older database holds, and a row in every table that
// refers to users.
var orgEmailFixture = []string{
	`INSERT INTO users (id, name, lower_name, email, lower_email, created_unix, updated_unix, is_admin, avatar)
	 VALUES (1, 'Ann', 'ann', 'Ann@x', 'ann@x', 10, 20, 1, 'ann-avatar')`,
	`INSERT INTO users (id, name, lower_name, email, lower_email, created_unix, updated_unix) VALUES (2, 'bob', 'bob', 'bob@x', 'bob@x', 1, 1)`,
	`INSERT INTO users (id, name, lower_name, email, lower_email, type, repo_admin_change_team_access, created_unix, updated_unix)
	 VALUES (3, 'Acme', 'acme', 'team@acme', 'team@acme', 1, 1, 1, 1)`,
	`INSERT INTO users (id, name, lower_name, email, lower_email, created_unix, updated_unix) VALUES (9, 'gone', 'gone', 'gone@x', 'gone@x', 1, 1)`,
	`DELETE FROM users WHERE id = 9`,
	`UPDATE users SET version = 5 WHERE id = 2`,
	`INSERT INTO access_token (uid, name, token_hash, token_last_eight, scope, created_unix, updated_unix) VALUES (1, 't', 'h', '12345678', 'all', 1, 1)`,
	`INSERT INTO two_factor (uid, secret, scratch_hash, created_unix, updated_unix) VALUES (1, 's', 'h', 1, 1)`,
	`INSERT INTO repository (id, owner_id, name, lower_name, default_branch, created_unix, updated_unix) VALUES (7, 1, 'p', 'p', 'main', 1, 1)`,
	`INSERT INTO collaboration (repo_id, user_id, mode) VALUES (7, 2, 2)`,
	`INSERT INTO watch (repo_id, user_id, mode, created_unix) VALUES (7, 2, 1, 1)`,
	`INSERT INTO star (repo_id, user_id, created_unix) VALUES (7, 2, 1)`,
	`INSERT INTO repo_transfer (repo_id, doer_id, recipient_id, created_unix) VALUES (7, 1, 3, 1)`,
	`INSERT INTO protected_branch (id, repo_id, rule_name, created_unix, updated_unix) VALUES (3, 7, 'main', 1, 1)`,
	`INSERT INTO protected_branch_user (protection_id, list, pos, user_id) VALUES (3, 'push', 0, 2)`,
	`INSERT INTO protected_tag (id, repo_id, name_pattern, created_unix, updated_unix) VALUES (4, 7, 'v*', 1, 1)`,
	`INSERT INTO protected_tag_user (protection_id, pos, user_id) VALUES (4, 0, 2)`,
	`INSERT INTO org_user (org_id, uid, is_public) VALUES (3, 1, 1)`,
	`INSERT INTO team (id, org_id, name, lower_name, authorize) VALUES (5, 3, 'Owners', 'owners', 4)`,
	`INSERT INTO team_unit (team_id, unit, access_mode) VALUES (5, 'repo.code', 4)`,
	`INSERT INTO team_user (team_id, uid) VALUES (5, 1)`,
	`INSERT INTO team_repo (team_id, repo_id) VALUES (5, 7)`,
	`INSERT INTO user_block (user_id, block_id, created_unix) VALUES (3, 2, 100)`,
}

// Migration 00013 rebuilds users so that only people's e-mails are unique:
// every row of every table referring to users survives it, the users keep
// every column (and the version the user cache checks), ids of deleted
// accounts are not given again, and foreign keys are enforced afterwards.
func TestMigrationOrgEmailKeepsRows(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "old.db")
	oldDatabase(t, path, 12, orgEmailFixture...)
	raw, _ := rawMigrator(t, path)
	before := userRefs(t, raw)
	require.NoError(t, raw.Close())
	for table, n := range before {
		require.NotZero(t, n, "the fixture fills %s", table)
	}

	db, err := Open(ctx, path)
	require.NoError(t, err)
	defer db.Close()
	later := userRefs(t, db.write)
	for table := range later {
		if _, ok := before[table]; !ok {
			delete(later, table) // created by a later migration
		}
	}
	assert.Equal(t, before, later, "no row referring to users is lost")
	var version int64
	require.NoError(t, db.write.QueryRowContext(ctx, `SELECT version FROM users WHERE id = 2`).Scan(&version))
	assert.EqualValues(t, 5, version)

	s := db.Auth()
	require.NoError(t, s.View(ctx, func(tx auth.Tx) error {
		ann, err := tx.UserByEmail(ctx, "ANN@x")
		require.NoError(t, err)
		assert.Equal(t, "ann-avatar", ann.Avatar)
		assert.True(t, ann.IsAdmin)
		assert.Equal(t, time.Unix(10, 0).UTC(), ann.Created)
		acme, err := tx.UserByName(ctx, "acme")
		require.NoError(t, err)
		assert.Equal(t, forge.UserTypeOrganization, acme.Type)
		assert.True(t, acme.RepoAdminChangeTeamAccess)
		assert.Equal(t, "team@acme", acme.Email)
		_, err = tx.UserByEmail(ctx, "team@acme")
		assert.ErrorIs(t, err, forge.ErrNotFound, "an organisation is never found by e-mail")
		return nil
	}))

	org := func(name, email string) *forge.User {
		return forgetest.User(name, func(u *forge.User) { u.Type, u.Email = forge.UserTypeOrganization, email })
	}
	var newOrg *forge.User
	require.NoError(t, s.Update(ctx, func(tx auth.Tx) error {
		newOrg = org("Other", "Team@Acme")
		if err := tx.CreateUser(ctx, newOrg, ""); err != nil {
			return err
		}
		return tx.CreateUser(ctx, org("third", "ann@x"), "")
	}), "organisations share e-mails with each other and with people")
	assert.Greater(t, newOrg.ID, forge.ID(9), "the id of a deleted account is not given again")
	err = s.Update(ctx, func(tx auth.Tx) error {
		return tx.CreateUser(ctx, forgetest.User("ann2", func(u *forge.User) { u.Email = "ANN@X" }), "")
	})
	assert.ErrorIs(t, err, forge.ErrConflict, "people's e-mails stay unique")

	require.NoError(t, s.Update(ctx, func(tx auth.Tx) error { return tx.DeleteUser(ctx, 2) }))
	after := userRefs(t, db.write)
	for _, table := range []string{"collaboration", "watch", "star", "protected_branch_user", "protected_tag_user", "user_block"} {
		assert.Zero(t, after[table], "foreign keys cascade again after the migration: %s", table)
	}
	err = s.Update(ctx, func(tx auth.Tx) error { return tx.DeleteUser(ctx, 1) })
	assert.ErrorIs(t, err, forge.ErrPrecondition, "a user owning a repository cannot be deleted")
}

// Migration 00013 rolls back: e-mails are unique again, organisations keep
// their rows and people their e-mails.
func TestMigrationOrgEmailRollsBack(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "old.db")
	oldDatabase(t, path, 12, orgEmailFixture...)
	db, err := Open(ctx, path)
	require.NoError(t, err)
	require.NoError(t, db.Auth().Update(ctx, func(tx auth.Tx) error {
		return tx.CreateUser(ctx, forgetest.User("Other", func(u *forge.User) {
			u.Type, u.Email = forge.UserTypeOrganization, "ann@x"
		}), "")
	}))
	require.NoError(t, db.Close())

	raw, p := rawMigrator(t, path)
	defer raw.Close()
	_, err = p.DownTo(ctx, 12)
	require.NoError(t, err)
	var n int
	require.NoError(t, raw.QueryRowContext(ctx, `SELECT count(*) FROM users WHERE lower_email = 'ann@x'`).Scan(&n))
	assert.Equal(t, 1, n, "the person keeps the e-mail key")
	_, err = raw.ExecContext(ctx, `INSERT INTO users (name, lower_name, email, lower_email, created_unix, updated_unix)
		VALUES ('x', 'x', 'bob@x', 'bob@x', 1, 1)`)
	assert.Error(t, err, "e-mails are unique again")
	require.NoError(t, raw.QueryRowContext(ctx, `SELECT count(*) FROM org_user`).Scan(&n))
	assert.Equal(t, 1, n)
}

// Migration 00013 checks every foreign key before it commits: a database
// holding a row that refers to no user is refused and left as it was.
func TestMigrationOrgEmailRefusesDanglingRows(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "old.db")
	oldDatabase(t, path, 12, orgEmailFixture[0])
	raw, err := sql.Open("sqlite", "file:"+path+"?_pragma=foreign_keys(0)")
	require.NoError(t, err)
	_, err = raw.ExecContext(ctx, `INSERT INTO org_user (org_id, uid) VALUES (1, 4242)`)
	require.NoError(t, err)
	require.NoError(t, raw.Close())

	_, err = Open(ctx, path)
	require.Error(t, err)
	raw, p := rawMigrator(t, path)
	defer raw.Close()
	v, err := p.GetDBVersion(ctx)
	require.NoError(t, err)
	assert.EqualValues(t, 12, v)
	var n int
	require.NoError(t, raw.QueryRowContext(ctx, `SELECT count(*) FROM users`).Scan(&n))
	assert.Equal(t, 1, n, "the users table is untouched")
	require.Error(t, raw.QueryRowContext(ctx, `SELECT count(*) FROM users_new`).Scan(&n), "no half-built table is left")
}
