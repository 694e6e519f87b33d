package sqlstore

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"

	"github.com/hearthforge/hearth/storage/internal/migrations"
	"github.com/pressly/goose/v3"
	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

// openSQLite opens a new SQLite database file migrated with storage/sqlite's
// migrations (read from the source tree: storage/sqlite imports this
// package, so its tests cannot import it), with storage/sqlite's two pools:
// one writer and a read-only pool.
func openSQLite(t *testing.T) *DB {
	t.Helper()
	return openSQLiteAt(t, filepath.Join(t.TempDir(), "h.db"))
}

// openSQLiteAt is openSQLite on the file at path, migrated if new.
func openSQLiteAt(t *testing.T, path string) *DB {
	t.Helper()
	ctx := context.Background()
	dsn := "file:" + path +
		"?_pragma=journal_mode(WAL)&_pragma=foreign_keys(1)&_pragma=busy_timeout(10000)&_txlock=immediate"
	write, err := sql.Open("sqlite", dsn)
	if err != nil {
		t.Fatal(err)
	}
	write.SetMaxOpenConns(1)
	p, err := goose.NewProvider(goose.DialectSQLite3, write, migrations.MustFS(migrations.SQLite))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Up(ctx); err != nil {
		t.Fatal(err)
	}
	read, err := sql.Open("sqlite", dsn+"&mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	db := New(write, read, Dialect{Name: "sqlite", Prepare: true})
	t.Cleanup(func() { db.Close() })
	return db
}
