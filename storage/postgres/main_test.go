package postgres

import (
	"context"
	"os"
	"testing"

	"github.com/hearthforge/hearth/storage/postgres/pgtest"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

// migrated is the template every test database of this package copies:
// the schema after every migration.
var migrated = &pgtest.Template{Name: "migrated", Prepare: func(ctx context.Context, dsn string) error {
	db, err := Open(ctx, dsn)
	if err != nil {
		return err
	}
	return db.Close()
}}

// openTest opens a fresh migrated database for t.
func openTest(t *testing.T) *DB {
	t.Helper()
	db, err := Open(context.Background(), pgtest.NewDatabase(t, migrated))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// openServers opens two DBs on one fresh migrated database, as two Hearth
// servers sharing it would.
func openServers(t *testing.T) [2]*DB {
	t.Helper()
	dsn := pgtest.NewDatabase(t, migrated)
	var dbs [2]*DB
	for i := range dbs {
		db, err := Open(context.Background(), dsn)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		dbs[i] = db
	}
	return dbs
}
