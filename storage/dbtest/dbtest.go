// Package dbtest opens the database of a test on the engine the developer
// chose: SQLite by default, PostgreSQL when HEARTH_TEST_DB=postgres, so
// that one test suite (httpapi's end-to-end tests, examples/forged's) runs
// on both backends:
//
//	go test ./httpapi                          # SQLite
//	HEARTH_TEST_DB=postgres go test ./httpapi  # PostgreSQL
//
// On PostgreSQL every Open is a fresh database copied from a migrated
// template (storage/postgres/pgtest: a throwaway cluster started on first
// use, or the server HEARTH_TEST_POSTGRES names), dropped when the test
// ends. A package that uses dbtest declares
//
//	func TestMain(m *testing.M) { os.Exit(dbtest.Main(m)) }
//
// which costs nothing when no test asked for PostgreSQL.
//
// dbtest imports storage/sqlite and storage/postgres: it is for tests
// only, as forge/forgetest.
package dbtest

import (
	"context"
	"os"
	"testing"

	"github.com/hearthforge/hearth/storage/internal/sqlstore"
	"github.com/hearthforge/hearth/storage/postgres"
	"github.com/hearthforge/hearth/storage/postgres/pgtest"
	"github.com/hearthforge/hearth/storage/sqlite"
)

// EnvEngine names the variable that chooses the engine: "postgres", or
// empty or "sqlite" for SQLite.
const EnvEngine = "HEARTH_TEST_DB"

// DB is an open Hearth database on either engine: its methods are every
// domain's Store (Auth, Repos, Issues, …), Close, and the test hooks
// CountStatements and FailStatement.
type DB = sqlstore.DB

// Postgres reports whether the tests run on PostgreSQL
// (HEARTH_TEST_DB=postgres).
func Postgres() bool { return os.Getenv(EnvEngine) == "postgres" }

// Main runs the tests and stops the PostgreSQL cluster pgtest started, if
// any; it returns m.Run's code. An unknown HEARTH_TEST_DB fails the run
// rather than silently testing SQLite.
func Main(m *testing.M) int {
	switch v := os.Getenv(EnvEngine); v {
	case "", "sqlite", "postgres":
	default:
		os.Stderr.WriteString("dbtest: " + EnvEngine + "=" + v + ": want sqlite or postgres\n")
		return 2
	}
	return pgtest.Main(m)
}

// migrated is the template of every PostgreSQL test database: the schema
// after every migration.
var migrated = &pgtest.Template{Name: "dbtest_migrated", Prepare: func(ctx context.Context, dsn string) error {
	db, err := postgres.Open(ctx, dsn)
	if err != nil {
		return err
	}
	return db.Close()
}}

// PostgresDSN returns the URL of a fresh migrated PostgreSQL database for
// t alone, dropped when t ends, whatever HEARTH_TEST_DB says (for tests
// that need PostgreSQL itself, such as several servers on one database).
// It skips t when no PostgreSQL is available, except under CI=true, where
// it fails (see pgtest).
func PostgresDSN(t testing.TB) string {
	t.Helper()
	return pgtest.NewDatabase(t, migrated)
}

// Open opens t's database, closed when t ends: on SQLite the database at
// sqlitePath (":memory:" or a file path), on PostgreSQL a fresh migrated
// database (sqlitePath is then unused: PostgreSQL has no in-memory
// databases and every connection sees every commit).
func Open(t testing.TB, sqlitePath string) *DB {
	t.Helper()
	ctx := context.Background()
	if Postgres() {
		db, err := postgres.Open(ctx, PostgresDSN(t))
		if err != nil {
			t.Fatalf("dbtest: %v", err)
		}
		t.Cleanup(func() { db.Close() })
		return db.DB
	}
	db, err := sqlite.Open(ctx, sqlitePath)
	if err != nil {
		t.Fatalf("dbtest: %v", err)
	}
	t.Cleanup(func() { db.Close() })
	return db.DB
}

// SkipOnPostgres skips t on PostgreSQL, saying why (a test that reads
// SQLite's files or internals).
func SkipOnPostgres(t testing.TB, why string) {
	t.Helper()
	if Postgres() {
		t.Skipf("%s=postgres: %s", EnvEngine, why)
	}
}
