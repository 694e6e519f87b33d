package pgtest_test

import (
	"context"
	"database/sql"
	"os"
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/storage/postgres/pgtest"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

var withTable = &pgtest.Template{Name: "pgtest_table", Prepare: func(ctx context.Context, dsn string) error {
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		return err
	}
	defer db.Close()
	_, err = db.ExecContext(ctx, `CREATE TABLE marker (n BIGINT NOT NULL)`)
	return err
}}

// Every test gets its own copy of the template: a row one test writes is
// not in the other's database.
func TestNewDatabaseIsolatedCopies(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	open := func(dsn string) *sql.DB {
		db, err := sql.Open("pgx", dsn)
		require.NoError(t, err)
		t.Cleanup(func() { db.Close() })
		return db
	}
	a, b := pgtest.NewDatabase(t, withTable), pgtest.NewDatabase(t, withTable)
	require.NotEqual(t, a, b)
	dbA, dbB := open(a), open(b)
	_, err := dbA.ExecContext(ctx, `INSERT INTO marker (n) VALUES (1)`)
	require.NoError(t, err)
	var n int
	require.NoError(t, dbA.QueryRowContext(ctx, `SELECT count(*) FROM marker`).Scan(&n))
	require.Equal(t, 1, n)
	require.NoError(t, dbB.QueryRowContext(ctx, `SELECT count(*) FROM marker`).Scan(&n))
	require.Equal(t, 0, n, "the copy must not see the other database's row")

	// An empty database has no table.
	empty := open(pgtest.NewDatabase(t, nil))
	_, err = empty.ExecContext(ctx, `SELECT count(*) FROM marker`)
	require.Error(t, err)
}

// The server is not run as root.
func TestServerNotRoot(t *testing.T) {
	t.Parallel()
	db, err := sql.Open("pgx", pgtest.NewDatabase(t, nil))
	require.NoError(t, err)
	defer db.Close()
	var v string
	require.NoError(t, db.QueryRow(`SHOW server_version`).Scan(&v))
	require.NotEmpty(t, v)
	if os.Getenv(pgtest.EnvDSN) == "" {
		var dir string
		require.NoError(t, db.QueryRow(`SHOW data_directory`).Scan(&dir))
		fi, err := os.Stat(dir)
		require.NoError(t, err)
		// PostgreSQL runs as the owner of its data directory.
		require.NotZero(t, fi.Sys().(*syscall.Stat_t).Uid, "the cluster's owner is not root")
	}
}
