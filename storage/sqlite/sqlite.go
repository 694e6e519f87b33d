// Package sqlite is Hearth's embedded storage backend on modernc.org/sqlite
// (pure Go, no cgo). It implements the Store interfaces the domain packages
// declare. Migrations are embedded and applied by Open; the database runs in
// WAL mode with foreign keys on, a busy timeout, and one writer connection so
// that write transactions never fight over the lock.
package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"runtime"
	"sync/atomic"

	"github.com/pressly/goose/v3"
	_ "modernc.org/sqlite" // registers the "sqlite" driver

	"github.com/hearthforge/hearth/forge"
	hmigrations "github.com/hearthforge/hearth/storage/internal/migrations"
	"github.com/hearthforge/hearth/storage/internal/sqlstore"
)

// migrations are SQLite's goose migrations (storage/internal/migrations).
var migrations = hmigrations.MustFS(hmigrations.SQLite)

// DB is an open Hearth database: the shared store code (sqlstore.DB, whose
// methods are the domain stores) on SQLite's two pools. Its methods are
// safe for concurrent use.
type DB struct {
	*sqlstore.DB
	write *sql.DB // one connection: SQLite admits one writer at a time
	read  *sql.DB // readers; the same pool as write for in-memory databases
}

// ErrInjected is the error of a statement FailStatement made fail.
var ErrInjected = sqlstore.ErrInjected

// dialect is SQLite's: the store SQL is written in its spelling, write
// transactions are BEGIN IMMEDIATE (the DSN's _txlock) on the one writer,
// and registered statements are prepared once per pool.
var dialect = sqlstore.Dialect{Name: "sqlite", MapError: mapDriverError, Prepare: true}

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
	db.DB = sqlstore.New(db.write, db.read, dialect)
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

func (db *DB) migrate(ctx context.Context) error {
	p, err := goose.NewProvider(goose.DialectSQLite3, db.write, migrations)
	if err != nil {
		return fmt.Errorf("sqlite: migrations: %w", err)
	}
	if _, err := p.Up(ctx); err != nil {
		return fmt.Errorf("sqlite: migrate: %w", err)
	}
	return nil
}
