package sqlstore

import (
	"context"
	"database/sql"
	"sync"
	"testing"
)

// Every registered statement prepares against the migrated schema on both
// pools: Open no longer prepares them all, so a statement with a typo would
// otherwise fail only when first used.
func TestRegisteredStatementsPrepare(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := openSQLite(t)
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
	db := openSQLite(t)
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
