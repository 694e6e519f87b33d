// Package sqlstore is the store code Hearth's SQL backends share: every
// domain Store of storage/sqlite and storage/postgres is a method set of
// DB, written once in SQL both engines run. What differs between engines
// is a Dialect value: how placeholders and a few functions are spelled,
// which driver errors mean which forge category, how write transactions
// begin and whether they are retried, and whether in-process caches may be
// trusted (they may not when several servers share the database).
//
// The SQL is written in SQLite's spelling (`?` and `?N` placeholders,
// json_each(?) over a JSON list argument, json_group_array) and rewritten
// once per statement text by Dialect.Rebind for PostgreSQL. Everything
// else is spelled so that both engines accept it as written: ON CONFLICT
// … DO NOTHING, RETURNING id, TRUE/FALSE, IS NOT DISTINCT FROM,
// string_agg, count(*) FILTER (WHERE …), CAST(value AS BIGINT).
package sqlstore

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/issues"
	"github.com/hearthforge/hearth/storage/internal/domainstore"
)

// Dialect is what a SQL engine needs from the shared store code.
type Dialect struct {
	// Name is the engine's name in messages ("sqlite", "postgres").
	Name string
	// Rebind rewrites a statement written in SQLite's spelling for the
	// engine; nil leaves it as written. It is called once per distinct
	// statement text and the result is cached.
	Rebind func(query string) string
	// MapError turns a driver error into a forge category (ErrConflict for
	// unique violations, ErrNotFound for foreign-key violations, ErrInvalid
	// for check and not-null violations), or returns nil when it does not
	// know the error. what names the operation for the message.
	MapError func(err error, what string) error
	// Prepare says whether registered statements are prepared once per pool
	// (SQLite: parsing costs more than the lookup). pgx caches prepared
	// statements per connection itself, so PostgreSQL runs the text.
	Prepare bool
	// WriteTx and ViewTx are the options of Update and View transactions.
	WriteTx, ViewTx *sql.TxOptions
	// Retry reports whether a failed write transaction may be run again as
	// a whole (PostgreSQL's serialization failures and deadlocks), and
	// Retries bounds how often. SQLite has one writer and never retries.
	Retry   func(error) bool
	Retries int
	// Shared says several servers may use the database at once: the
	// in-process caches (tokens, users, the write generation) cannot see
	// the other servers' writes and are turned off.
	Shared bool
	// SkipLocked is appended to a SELECT that claims rows for this server
	// (mirror leases, hook deliveries): " FOR UPDATE SKIP LOCKED" on
	// PostgreSQL, so that servers claiming at once take different rows;
	// empty on SQLite, whose one writer already serializes the claims.
	SkipLocked string
}

// DB is an open Hearth database. Its methods are safe for concurrent use.
type DB struct {
	write  *sql.DB    // the write pool (SQLite: one connection)
	read   *sql.DB    // readers; the write pool itself when the engine has one pool
	d      Dialect    // the engine
	rebind sync.Map   // statement text → rebound text (when d.Rebind is set)
	stmts  statements // the registered statements, prepared per pool on first use
	users  userCache
	tokens tokenCache // FindToken's answers (tokencache.go)
	writes generation // write transactions ended (generation.go)
	// counter, when set (CountStatements), counts the statements run.
	counter atomic.Pointer[atomic.Int64]
	faults  faults // FailStatement's countdown (faults.go)

	// counts and pullMirrors keep a repository's issue counters and pull
	// mirror read by Views (viewcache.go).
	counts      genCache[forge.ID, [2]issues.IssueCount]
	pullMirrors genCache[forge.ID, pullMirrorEntry]
	// searchRepos and searchTotals serve the pages of one issue search
	// after its first (issues_search_cache.go).
	searchRepos  genCache[searchReposKey, searchReposEntry]
	searchTotals genCache[[sha256.Size]byte, [2]int64]
	allRepos     genCache[struct{}, []forge.ID]
}

// New returns a DB over the write and read pools (read may be write),
// whose schema the caller has migrated. Close closes both pools.
func New(write, read *sql.DB, d Dialect) *DB {
	if read == nil {
		read = write
	}
	db := &DB{write: write, read: read, d: d}
	db.searchRepos.limit, db.searchTotals.limit = maxSearchReposCached, maxSearchCached
	return db
}

// Dialect returns the engine's dialect.
func (db *DB) Dialect() Dialect { return db.d }

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

// Registered returns the statements of the store code registered for
// preparation, in SQLite's spelling (for the backends' tests).
func Registered() []string { return append([]string(nil), registered...) }

// Close closes the database.
func (db *DB) Close() error {
	db.stmts.closeAll()
	err := db.write.Close()
	if db.read != db.write {
		err = errors.Join(err, db.read.Close())
	}
	return err
}

// sqlText returns query as the engine spells it.
func (db *DB) sqlText(query string) string {
	if db.d.Rebind == nil {
		return query
	}
	if v, ok := db.rebind.Load(query); ok {
		return v.(string)
	}
	q := db.d.Rebind(query)
	db.rebind.Store(query, q)
	return q
}

// update runs fn in a write transaction, committing iff fn returns nil.
// On an engine that retries (Dialect.Retry), a transaction that failed on
// a serialization conflict is run again as a whole, fn included.
func (db *DB) update(ctx context.Context, fn func(*tx) error) (err error) {
	for attempt := 0; ; attempt++ {
		err = db.updateOnce(ctx, fn)
		if err == nil || db.d.Retry == nil || attempt >= db.d.Retries || !db.d.Retry(err) {
			return err
		}
		// Conflicting transactions that retried at once would conflict
		// again: wait a random time, growing with the attempts (at most
		// ~100 ms), before running again.
		wait := time.Duration(rand.Int64N(int64(time.Millisecond) << min(attempt, 7)))
		select {
		case <-ctx.Done():
			return err
		case <-time.After(wait):
		}
	}
}

func (db *DB) updateOnce(ctx context.Context, fn func(*tx) error) (err error) {
	stx, err := db.write.BeginTx(ctx, db.d.WriteTx)
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

// view runs fn in a read-only transaction: one consistent snapshot. The
// transaction begins at fn's first statement (both engines take a view's
// snapshot at its first read anyway), so that a view answered from the
// caches (viewcache.go) costs no BEGIN and no ROLLBACK.
func (db *DB) view(ctx context.Context, fn func(*tx) error) error {
	t := &tx{db: db, pool: db.read, readOnly: true, lazy: ctx, gen: db.writes.load()}
	defer db.stmts.preparePending(ctx, t) // runs after the Rollback below frees the connection
	defer func() {
		if t.q != nil {
			t.q.Rollback()
		}
	}()
	return fn(t)
}

// storeOf returns the domain Store over db whose transactions are seen
// through as (most domains have a Tx type of their own, see issueTx).
func storeOf[T any](db *DB, as func(*tx) T) domainstore.Store[*tx, T] {
	return domainstore.Of(db.update, db.view, as)
}

// begin begins the transaction of a view at its first statement.
func (t *tx) begin() error {
	ctx := t.lazy
	t.lazy = nil
	opts := t.db.d.ViewTx
	if opts == nil {
		opts = &sql.TxOptions{ReadOnly: t.db.read != t.db.write}
	}
	stx, err := t.db.read.BeginTx(ctx, opts)
	if err != nil {
		return mapError(err, "begin")
	}
	t.q = stx
	return nil
}

// tx is one transaction. It implements every domain's Tx interface.
type tx struct {
	db       *DB
	pool     *sql.DB
	q        *sql.Tx  // nil for single registered statements outside a transaction
	readOnly bool     // a View: everything it reads is committed
	pending  []string // registered statements this transaction prepared for itself (see statements)
	// repoCounts keeps, in a View, the issue counters read for a
	// repository (issueTx.IssueCounts).
	repoCounts map[forge.ID][2]issues.IssueCount
	// lazy is a View's context until its transaction has begun (begin).
	lazy context.Context
	// gen is the write generation when the View started (viewcache.go).
	gen uint64
}

// stmt returns a statement bound to the transaction. Parsing SQL costs
// more than an indexed lookup, so every fixed statement is registered (see
// prepared), prepared once per pool on first use (see statements), and
// reused by database/sql on each connection. It returns nil, nil when the
// engine runs statement text (Dialect.Prepare false): the caller runs
// t.text(query) on t.q or the pool.
func (t *tx) stmt(ctx context.Context, query string) (*sql.Stmt, error) {
	if n := t.db.counter.Load(); n != nil {
		n.Add(1)
	}
	if err := t.db.faults.next(t.readOnly); err != nil {
		return nil, err
	}
	if t.lazy != nil {
		if err := t.begin(); err != nil {
			return nil, err
		}
	}
	_, isRegistered := registeredSet[query]
	if !t.db.d.Prepare {
		if t.q == nil && !isRegistered {
			return nil, fmt.Errorf("%s: statement outside a transaction must be registered: %q", t.db.d.Name, query)
		}
		return nil, nil
	}
	if s := t.db.stmts.get(t.pool, query); s != nil {
		if t.q == nil {
			return s, nil // outside a transaction (FindToken)
		}
		return t.q.StmtContext(ctx, s), nil
	}
	switch {
	case t.q == nil && isRegistered:
		return t.db.stmts.prepare(ctx, t.pool, query)
	case t.q == nil:
		return nil, fmt.Errorf("%s: statement outside a transaction must be registered: %q", t.db.d.Name, query)
	case isRegistered:
		// The pool's connection is this transaction's until it ends:
		// prepare for this call, and for the pool once it has ended.
		t.pending = append(t.pending, query)
	}
	// Dynamic SQL (filters, orders): prepared for this call only.
	return t.q.PrepareContext(ctx, query)
}

// runner is what runs statement text: the transaction or, outside one, the
// pool.
type runner interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

func (t *tx) runner() runner {
	if t.q != nil {
		return t.q
	}
	return t.pool
}

// queryRow runs a prepared query expected to return one row.
func (t *tx) queryRow(ctx context.Context, query string, args ...any) *row {
	s, err := t.stmt(ctx, query)
	if err != nil {
		return &row{err: err}
	}
	if s == nil {
		return &row{r: t.runner().QueryRowContext(ctx, t.db.sqlText(query), args...)}
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
	if s == nil {
		return t.runner().QueryContext(ctx, t.db.sqlText(query), args...)
	}
	return s.QueryContext(ctx, args...)
}

// exec runs a prepared statement.
func (t *tx) exec(ctx context.Context, query string, args ...any) (sql.Result, error) {
	s, err := t.stmt(ctx, query)
	if err != nil {
		return nil, err
	}
	if s == nil {
		return t.runner().ExecContext(ctx, t.db.sqlText(query), args...)
	}
	return s.ExecContext(ctx, args...)
}

// rowScanner is a *sql.Rows or a *row: what a row scanner reads from.
type rowScanner = interface{ Scan(dest ...any) error }

// querier runs queries: *tx, and the domain Tx types embedding it.
type querier interface {
	query(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// queryAll runs query and returns its rows, each read by scan, in order;
// never nil. Errors are mapped (mapError) naming what.
func queryAll[T any](ctx context.Context, t querier, scan func(rowScanner) (T, error), what, query string, args ...any) ([]T, error) {
	rows, err := t.query(ctx, query, args...)
	if err != nil {
		return nil, mapError(err, what)
	}
	defer rows.Close()
	out := []T{}
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, mapError(err, what)
		}
		out = append(out, v)
	}
	return out, mapError(rows.Err(), what)
}

// fromDest is the row scanner of a type whose columns dest gives (a new
// value, the scan destinations, and what to do after the scan: userDest,
// issueDest...).
func fromDest[T any](dest func() (T, []any, func())) func(rowScanner) (T, error) {
	return func(r rowScanner) (T, error) {
		v, d, done := dest()
		if err := r.Scan(d...); err != nil {
			var zero T
			return zero, err
		}
		done()
		return v, nil
	}
}

// scanID reads a row of one id column.
func scanID(r rowScanner) (forge.ID, error) {
	var id forge.ID
	err := r.Scan(&id)
	return id, err
}
