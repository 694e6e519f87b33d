package postgres

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" driver
	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/lock"

	"github.com/hearthforge/hearth/forge"
	hmigrations "github.com/hearthforge/hearth/storage/internal/migrations"
	"github.com/hearthforge/hearth/storage/internal/sqlstore"
)

// migrations are PostgreSQL's goose migrations (storage/internal/migrations).
var migrations = hmigrations.MustFS(hmigrations.PostgreSQL)

// DB is an open Hearth database on PostgreSQL. Its methods are safe for
// concurrent use, and several processes may share one database.
type DB struct {
	*sqlstore.DB
	sql *sql.DB // the pool: reads and writes share it
}

// dialect is PostgreSQL's: statements written in SQLite's spelling are
// rebound (rebind.go); write transactions run SERIALIZABLE and are run
// again as a whole on a serialization failure or deadlock (ErrRetry), so
// every read-modify-write the store code does in one transaction stays
// atomic across servers, as SQLite's single writer makes it; reads run in
// one REPEATABLE READ snapshot; in-process caches are off (Shared).
var dialect = sqlstore.Dialect{
	Name:       "postgres",
	Rebind:     translate,
	MapError:   mapDriverError,
	WriteTx:    &sql.TxOptions{Isolation: sql.LevelSerializable},
	ViewTx:     &sql.TxOptions{Isolation: sql.LevelRepeatableRead, ReadOnly: true},
	Retry:      func(err error) bool { return errors.Is(err, ErrRetry) },
	Retries:    20,
	Shared:     true,
	SkipLocked: " FOR UPDATE SKIP LOCKED",
}

// Open connects to the database at dsn (a postgres:// URL or a key=value
// string, as pgx reads them) and applies pending migrations. Servers that
// start together migrate one at a time: goose holds a PostgreSQL advisory
// lock while it migrates. An empty dsn is forge.ErrInvalid.
func Open(ctx context.Context, dsn string) (*DB, error) {
	if dsn == "" {
		return nil, forge.Errorf(forge.ErrInvalid, "postgres: empty DSN (give a postgres:// URL)")
	}
	pool, err := sql.Open("pgx", dsn)
	if err != nil {
		return nil, fmt.Errorf("postgres: open: %w", err)
	}
	pool.SetMaxIdleConns(8)
	if err := pool.PingContext(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("postgres: connect: %w", err)
	}
	db := &DB{DB: sqlstore.New(pool, pool, dialect), sql: pool}
	if err := db.migrate(ctx); err != nil {
		pool.Close()
		return nil, err
	}
	return db, nil
}

func (db *DB) migrate(ctx context.Context) error {
	locker, err := lock.NewPostgresSessionLocker()
	if err != nil {
		return err
	}
	p, err := goose.NewProvider(goose.DialectPostgres, db.sql, migrations, goose.WithSessionLocker(locker))
	if err != nil {
		return fmt.Errorf("postgres: migrations: %w", err)
	}
	if _, err := p.Up(ctx); err != nil {
		return fmt.Errorf("postgres: migrate: %w", err)
	}
	return nil
}
