package postgres

import (
	"context"
	"testing"

	"github.com/pressly/goose/v3"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/storage/postgres/pgtest"
)

// Every migration goes down and up again on PostgreSQL: the Down sections
// are valid and undo what Up made.
func TestMigrationsDownAndUp(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, err := Open(ctx, pgtest.NewDatabase(t, nil))
	require.NoError(t, err)
	defer db.Close()
	p, err := goose.NewProvider(goose.DialectPostgres, db.sql, migrations)
	require.NoError(t, err)
	_, err = p.DownTo(ctx, 0)
	require.NoError(t, err)
	var tables int
	require.NoError(t, db.sql.QueryRowContext(ctx, `SELECT count(*) FROM information_schema.tables
		WHERE table_schema = 'public' AND table_name <> 'goose_db_version'`).Scan(&tables))
	require.Zero(t, tables, "every table dropped")
	_, err = p.Up(ctx)
	require.NoError(t, err)
}
