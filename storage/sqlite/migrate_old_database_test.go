package sqlite

import (
	"context"
	"database/sql"
	"testing"

	"github.com/pressly/goose/v3"
	"github.com/stretchr/testify/require"
)

// rawMigrator opens the SQLite file at path without migrating it, and a
// goose provider over Hearth's migrations for it. The caller closes db.
func rawMigrator(t *testing.T, path string) (*sql.DB, *goose.Provider) {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=foreign_keys(1)")
	require.NoError(t, err)
	p, err := goose.NewProvider(goose.DialectSQLite3, db, migrations)
	require.NoError(t, err)
	return db, p
}

// oldDatabase leaves at path a database migrated up to version and holding
// what the statements insert, as an older Hearth would have left it.
func oldDatabase(t *testing.T, path string, version int64, statements ...string) {
	t.Helper()
	ctx := context.Background()
	db, p := rawMigrator(t, path)
	_, err := p.UpTo(ctx, version)
	require.NoError(t, err)
	for _, q := range statements {
		_, err := db.ExecContext(ctx, q)
		require.NoError(t, err, q)
	}
	require.NoError(t, db.Close())
}
