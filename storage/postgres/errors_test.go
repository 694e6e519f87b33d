package postgres

import (
	"context"
	"database/sql"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
)

// mapError on errors the real server returns: each SQLSTATE lands in its
// forge category (or ErrRetry), keeps the driver error reachable, and an
// unknown error stays in no category.
func TestMapErrorRealErrors(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := openTest(t)
	exec := func(q string, args ...any) error {
		_, err := db.sql.ExecContext(ctx, q, args...)
		return err
	}
	require.NoError(t, exec(`INSERT INTO users (name, lower_name, email, lower_email, created_unix, updated_unix)
		VALUES ('alice', 'alice', 'a@example.com', 'a@example.com', 1, 1)`))

	tests := []struct {
		name string
		err  func() error
		kind error // a forge category, ErrRetry, or nil for none
	}{
		{"no rows", func() error {
			var id int64
			return db.sql.QueryRowContext(ctx, `SELECT id FROM users WHERE lower_name = 'nobody'`).Scan(&id)
		}, forge.ErrNotFound},
		{"unique violation", func() error {
			return exec(`INSERT INTO users (name, lower_name, email, lower_email, created_unix, updated_unix)
				VALUES ('Alice', 'alice', 'b@example.com', 'b@example.com', 1, 1)`)
		}, forge.ErrConflict},
		{"foreign key violation", func() error {
			return exec(`INSERT INTO access_token (uid, name, token_hash, token_last_eight, scope, created_unix, updated_unix)
				VALUES (999, 't', 'h', '12345678', 'all', 1, 1)`)
		}, forge.ErrNotFound},
		{"check violation", func() error {
			return exec(`INSERT INTO label (name, color) VALUES ('bug', 'ff0000')`) // neither repo nor org
		}, forge.ErrInvalid},
		{"not null violation", func() error {
			return exec(`INSERT INTO users (name, lower_name, email, lower_email, created_unix, updated_unix)
				VALUES ('bob', 'bob', 'c@example.com', 'c@example.com', NULL, 1)`)
		}, forge.ErrInvalid},
		{"NUL byte in text", func() error {
			return exec(`UPDATE users SET full_name = $1 WHERE lower_name = 'alice'`, "a\x00b")
		}, forge.ErrInvalid},
		{"bigint out of range", func() error {
			return exec(`UPDATE users SET max_repo_creation = 9223372036854775807 + 1 WHERE lower_name = 'alice'`)
		}, forge.ErrInvalid},
		{"serialization failure", func() error { return concurrentUpdate(t, db.sql) }, ErrRetry},
		{"lock not available", func() error { return lockedRow(t, db.sql) }, ErrRetry},
		{"syntax error", func() error { return exec(`SELEC 1`) }, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			raw := tt.err()
			require.Error(t, raw, "the server must refuse this")
			err := mapError(raw, "test op")
			switch {
			case tt.kind == ErrRetry:
				assert.ErrorIs(t, err, ErrRetry)
				assert.Nil(t, forge.KindOf(err), "a retryable error is in no forge category")
			case tt.kind != nil:
				assert.ErrorIs(t, err, tt.kind)
				assert.NotErrorIs(t, err, ErrRetry)
			default:
				assert.Nil(t, forge.KindOf(err))
				assert.NotErrorIs(t, err, ErrRetry)
			}
			if !errors.Is(raw, sql.ErrNoRows) {
				assert.ErrorIs(t, err, raw, "the driver error stays reachable")
			}
		})
	}
	assert.NoError(t, mapError(nil, "nothing"))
}

// concurrentUpdate returns the error of a REPEATABLE READ transaction that
// updates a row another transaction changed after its snapshot: 40001.
func concurrentUpdate(t *testing.T, db *sql.DB) error {
	ctx := context.Background()
	tx, err := db.BeginTx(ctx, &sql.TxOptions{Isolation: sql.LevelRepeatableRead})
	require.NoError(t, err)
	defer tx.Rollback()
	var v int64
	require.NoError(t, tx.QueryRowContext(ctx, `SELECT version FROM users WHERE lower_name = 'alice'`).Scan(&v))
	_, err = db.ExecContext(ctx, `UPDATE users SET version = version + 1 WHERE lower_name = 'alice'`)
	require.NoError(t, err)
	_, err = tx.ExecContext(ctx, `UPDATE users SET version = version + 1 WHERE lower_name = 'alice'`)
	return err
}

// lockedRow returns the error of FOR UPDATE NOWAIT on a row another
// transaction holds: 55P03.
func lockedRow(t *testing.T, db *sql.DB) error {
	ctx := context.Background()
	holder, err := db.BeginTx(ctx, nil)
	require.NoError(t, err)
	defer holder.Rollback()
	_, err = holder.ExecContext(ctx, `SELECT id FROM users WHERE lower_name = 'alice' FOR UPDATE`)
	require.NoError(t, err)
	_, err = db.ExecContext(ctx, `SELECT id FROM users WHERE lower_name = 'alice' FOR UPDATE NOWAIT`)
	return err
}
