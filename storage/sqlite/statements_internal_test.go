package sqlite

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// A new database file is a copy of the migrated image: nothing is pending
// for goose, and the file equals what running every migration gives in
// tables, indexes and triggers.
func TestNewFileStartsAsTheMigratedImage(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	seeded, err := Open(ctx, filepath.Join(dir, "seeded.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer seeded.Close()
	migrated, err := open(ctx, filepath.Join(dir, "migrated.db"), false)
	if err != nil {
		t.Fatal(err)
	}
	defer migrated.Close()
	if _, err := os.Stat(filepath.Join(dir, "migrated.db")); err != nil {
		t.Fatal(err)
	}
	schema := func(db *DB) map[string]string {
		rows, err := db.read.QueryContext(ctx, `SELECT type || ' ' || name, COALESCE(sql, '') FROM sqlite_master`)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		out := map[string]string{}
		for rows.Next() {
			var k, v string
			if err := rows.Scan(&k, &v); err != nil {
				t.Fatal(err)
			}
			out[k] = v
		}
		return out
	}
	a, b := schema(seeded), schema(migrated)
	if len(a) < 50 || len(a) != len(b) {
		t.Fatalf("seeded schema has %d objects, migrated %d", len(a), len(b))
	}
	for k, v := range b {
		if a[k] != v {
			t.Errorf("%s differs:\nseeded:   %s\nmigrated: %s", k, a[k], v)
		}
	}
	var mode string
	if err := seeded.write.QueryRowContext(ctx, `PRAGMA journal_mode`).Scan(&mode); err != nil || mode != "wal" {
		t.Fatalf("journal mode %q, %v; want wal", mode, err)
	}
	var ok string
	if err := seeded.write.QueryRowContext(ctx, `PRAGMA integrity_check`).Scan(&ok); err != nil || ok != "ok" {
		t.Fatalf("integrity_check %q, %v", ok, err)
	}
}
