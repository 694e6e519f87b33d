package sqlite

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// Every registered statement prepares against the migrated schema on both
// pools: Open no longer prepares them all, so a statement with a typo would
// otherwise fail only when first used.
func TestRegisteredStatementsPrepare(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, err := Open(ctx, filepath.Join(t.TempDir(), "h.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if len(registered) < 100 {
		t.Fatalf("only %d registered statements: registration is broken", len(registered))
	}
	for _, pool := range []*sql.DB{db.write, db.read} {
		for _, q := range registered {
			if _, err := db.stmts.prepare(ctx, pool, q); err != nil {
				t.Errorf("prepare %q: %v", q, err)
			}
		}
	}
}

// A registered statement first met inside a write transaction is prepared
// for that transaction, then on the pool once the transaction has ended
// (preparing on the one-connection write pool inside it would wait for
// itself); concurrent transactions meeting it at once all succeed.
func TestStatementsPreparedOnFirstUse(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, err := Open(ctx, filepath.Join(t.TempDir(), "h.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	q := registered[0]
	if db.stmts.get(db.write, q) != nil {
		t.Fatal("prepared before first use")
	}
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := db.update(ctx, func(tx *tx) error {
				_, err := tx.stmt(ctx, q)
				return err
			})
			if err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if db.stmts.get(db.write, q) == nil {
		t.Fatal("not prepared on the pool after the transactions ended")
	}
	if err := db.view(ctx, func(tx *tx) error { _, err := tx.stmt(ctx, q); return err }); err != nil {
		t.Fatal(err)
	}
	if db.stmts.get(db.read, q) == nil {
		t.Fatal("not prepared on the read pool after the view ended")
	}
}

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
