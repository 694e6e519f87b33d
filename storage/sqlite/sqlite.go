// Package sqlite is Hearth's embedded storage backend on modernc.org/sqlite
// (pure Go, no cgo). It implements the Store interfaces the domain packages
// declare. Migrations are embedded and applied by Open; the database runs in
// WAL mode with foreign keys on, a busy timeout, and one writer connection so
// that write transactions never fight over the lock.
package sqlite

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"runtime"
	"sync/atomic"

	"github.com/pressly/goose/v3"
	_ "modernc.org/sqlite" // registers the "sqlite" driver

	"github.com/hearthforge/hearth/forge"
)

//go:embed migrations/sqlite/*.sql
var migrations embed.FS

// DB is an open Hearth database. Its methods are safe for concurrent use.
type DB struct {
	write  *sql.DB    // one connection: SQLite admits one writer at a time
	read   *sql.DB    // readers; the same pool as write for in-memory databases
	stmts  statements // the registered statements, prepared per pool on first use
	users  userCache
	tokens tokenCache // FindToken's answers (tokencache.go)
	writes generation // write transactions ended (generation.go)
	// counter, when set (CountStatements), counts the statements run.
	counter atomic.Pointer[atomic.Int64]
	faults  faults // FailStatement's countdown (faults.go)
}

// CountStatements makes the database add one to n for every SQL statement
// it runs from now on (queries, executions, in or outside transactions,
// registered or dynamic), or stop counting with n nil. It is for tests and
// benchmarks that assert a fixed cost per operation; a database that
// counts nothing pays one atomic load per statement.
func (db *DB) CountStatements(n *atomic.Int64) { db.counter.Store(n) }

type stmtKey struct {
	pool  *sql.DB
	query string
}

var memCounter atomic.Int64

// Open opens (creating if needed) the database at path and applies pending
// migrations (a new file starts as a copy of the migrated image: see
// image.go). path ":memory:" opens a private in-memory database, fresh on
// every call. An empty path is forge.ErrInvalid (SQLite would open a
// temporary database per connection, which the read pool would not share).
func Open(ctx context.Context, path string) (*DB, error) {
	if path == "" {
		return nil, forge.Errorf(forge.ErrInvalid, `sqlite: empty database path (give a file path, or ":memory:" for an in-memory database)`)
	}
	if path != ":memory:" {
		if err := seedNewFile(ctx, path); err != nil {
			return nil, err
		}
	}
	return open(ctx, path, true)
}

// open is Open; seedMemory says whether an in-memory database starts from
// the migrated image (false while the image is being built).
func open(ctx context.Context, path string, seedMemory bool) (*DB, error) {
	pragmas := "_pragma=foreign_keys(1)&_pragma=busy_timeout(10000)&_pragma=synchronous(NORMAL)&_txlock=immediate"
	db := &DB{}
	var err error
	if path == ":memory:" {
		// A private named in-memory database; one connection holds it.
		name := fmt.Sprintf("file:hearth-mem-%d?mode=memory&%s", memCounter.Add(1), pragmas)
		if db.write, err = sql.Open("sqlite", name); err != nil {
			return nil, err
		}
		db.write.SetMaxOpenConns(1)
		db.write.SetConnMaxLifetime(0)
		db.write.SetConnMaxIdleTime(0)
		db.read = db.write
	} else {
		dsn := "file:" + (&url.URL{Path: path}).EscapedPath() + "?_pragma=journal_mode(WAL)&" + pragmas
		if db.write, err = sql.Open("sqlite", dsn); err != nil {
			return nil, err
		}
		db.write.SetMaxOpenConns(1)
		if db.read, err = sql.Open("sqlite", dsn+"&mode=ro"); err != nil {
			db.write.Close()
			return nil, err
		}
		// The read pool keeps every connection it opens, with the
		// statements prepared on it: database/sql keeps only 2 idle
		// connections by default, so under load connections (and their
		// prepared statements) were closed and rebuilt constantly.
		readers := max(4, runtime.NumCPU())
		db.read.SetMaxOpenConns(readers)
		db.read.SetMaxIdleConns(readers)
		db.read.SetConnMaxIdleTime(0)
		db.read.SetConnMaxLifetime(0)
	}
	if err := db.write.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("sqlite: open %s: %w", path, err)
	}
	if path == ":memory:" && seedMemory {
		if err := db.seedMemory(ctx); err != nil {
			db.Close()
			return nil, err
		}
	}
	if err := db.migrate(ctx); err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}

// registered holds the fixed statements of this package (see prepared),
// in registration order and as a set.
var (
	registered    []string
	registeredSet = map[string]struct{}{}
)

// prepared registers a fixed SQL statement, to be prepared once per pool
// on first use, and returns it. Call it from package-level var
// declarations only.
func prepared(query string) string {
	if _, dup := registeredSet[query]; !dup {
		registered = append(registered, query)
		registeredSet[query] = struct{}{}
	}
	return query
}

func (db *DB) migrate(ctx context.Context) error {
	sub, err := fs.Sub(migrations, "migrations/sqlite")
	if err != nil {
		return err
	}
	p, err := goose.NewProvider(goose.DialectSQLite3, db.write, sub)
	if err != nil {
		return fmt.Errorf("sqlite: migrations: %w", err)
	}
	if _, err := p.Up(ctx); err != nil {
		return fmt.Errorf("sqlite: migrate: %w", err)
	}
	return nil
}

// Close closes the database.
func (db *DB) Close() error {
	db.stmts.closeAll()
	err := db.write.Close()
	if db.read != db.write {
		err = errors.Join(err, db.read.Close())
	}
	return err
}

// update runs fn in a write transaction (BEGIN IMMEDIATE), committing iff fn
// returns nil.
func (db *DB) update(ctx context.Context, fn func(*tx) error) (err error) {
	stx, err := db.write.BeginTx(ctx, nil)
	if err != nil {
		return mapError(err, "begin")
	}
	defer db.writes.bump() // after the commit or rollback: see generation
	defer func() {
		if p := recover(); p != nil {
			stx.Rollback()
			panic(p)
		}
	}()
	t := &tx{db: db, pool: db.write, q: stx}
	defer db.stmts.preparePending(ctx, t) // after the commit or rollback: the pool's one connection is free
	if err := fn(t); err != nil {
		stx.Rollback()
		return err
	}
	return mapError(stx.Commit(), "commit")
}

// view runs fn in a read-only transaction: one consistent snapshot.
func (db *DB) view(ctx context.Context, fn func(*tx) error) error {
	stx, err := db.read.BeginTx(ctx, &sql.TxOptions{ReadOnly: db.read != db.write})
	if err != nil {
		return mapError(err, "begin")
	}
	t := &tx{db: db, pool: db.read, q: stx, readOnly: true}
	defer db.stmts.preparePending(ctx, t) // runs after the Rollback below frees the connection
	defer stx.Rollback()
	return fn(t)
}

// tx is one transaction. It implements every domain's Tx interface.
type tx struct {
	db       *DB
	pool     *sql.DB
	q        *sql.Tx  // nil for single registered statements outside a transaction
	readOnly bool     // a View: everything it reads is committed
	pending  []string // registered statements this transaction prepared for itself (see statements)
}

// stmt returns a statement bound to the transaction. Parsing SQL costs
// more than an indexed lookup, so every fixed statement is registered (see
// prepared), prepared once per pool on first use (see statements), and
// reused by database/sql on each connection.
func (t *tx) stmt(ctx context.Context, query string) (*sql.Stmt, error) {
	if n := t.db.counter.Load(); n != nil {
		n.Add(1)
	}
	if err := t.db.faults.next(t.readOnly); err != nil {
		return nil, err
	}
	if s := t.db.stmts.get(t.pool, query); s != nil {
		if t.q == nil {
			return s, nil // outside a transaction (FindToken)
		}
		return t.q.StmtContext(ctx, s), nil
	}
	_, isRegistered := registeredSet[query]
	switch {
	case t.q == nil && isRegistered:
		return t.db.stmts.prepare(ctx, t.pool, query)
	case t.q == nil:
		return nil, fmt.Errorf("sqlite: statement outside a transaction must be registered: %q", query)
	case isRegistered:
		// The pool's connection is this transaction's until it ends:
		// prepare for this call, and for the pool once it has ended.
		t.pending = append(t.pending, query)
	}
	// Dynamic SQL (filters, orders): prepared for this call only.
	return t.q.PrepareContext(ctx, query)
}

// queryRow runs a prepared query expected to return one row.
func (t *tx) queryRow(ctx context.Context, query string, args ...any) *row {
	s, err := t.stmt(ctx, query)
	if err != nil {
		return &row{err: err}
	}
	return &row{r: s.QueryRowContext(ctx, args...)}
}

// row is a *sql.Row that may carry a preparation error.
type row struct {
	r   *sql.Row
	err error
}

func (r *row) Scan(dest ...any) error {
	if r.err != nil {
		return r.err
	}
	return r.r.Scan(dest...)
}

// query runs a prepared query.
func (t *tx) query(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	s, err := t.stmt(ctx, query)
	if err != nil {
		return nil, err
	}
	return s.QueryContext(ctx, args...)
}

// exec runs a prepared statement.
func (t *tx) exec(ctx context.Context, query string, args ...any) (sql.Result, error) {
	s, err := t.stmt(ctx, query)
	if err != nil {
		return nil, err
	}
	return s.ExecContext(ctx, args...)
}
