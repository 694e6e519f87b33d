package main

import (
	"context"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"

	"github.com/hearthforge/hearth/forge/site"
	"github.com/hearthforge/hearth/storage/postgres"
	"github.com/hearthforge/hearth/storage/sqlite"
)

// database is what forged needs of its database: every domain's store
// (site.Store) and Close. *sqlite.DB and *postgres.DB both are one.
type database interface {
	site.Store
	Close() error
}

var (
	_ database = (*sqlite.DB)(nil)
	_ database = (*postgres.DB)(nil)
)

// dbFlagUsage is the -db flag's line in the usage text.
const dbFlagUsage = "database: empty for SQLite in the data directory (hearth.db), or " +
	"postgres://user@host:port/dbname?sslmode=disable|require|verify-full for PostgreSQL, which several forged servers " +
	"may share (they must share -data's git/ and secret.key, and -blob); the password comes from PGPASSWORD or " +
	"~/.pgpass (PGPASSFILE), never from the URL, which ps shows to every user of the machine"

// parseDBFlag checks -db: empty, or a postgres:// (postgresql://) URL with
// no password in it (neither user:password@ nor ?password=), since
// command lines are visible to every user through ps.
func parseDBFlag(s string) error {
	if s == "" {
		return nil
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql") {
		return fmt.Errorf("-db %q: want postgres://user@host:port/dbname?sslmode=… (omit -db for SQLite in the data directory)", redactDB(s))
	}
	_, inUser := u.User.Password()
	_, inQuery := u.Query()["password"]
	if inUser || inQuery {
		return fmt.Errorf("-db: the URL holds a password, which ps shows to every user of this machine: " +
			"remove it and set PGPASSWORD, or put it in ~/.pgpass (or the file PGPASSFILE names)")
	}
	return nil
}

// redactDB is s for an error message: a URL's password replaced.
func redactDB(s string) string {
	if u, err := url.Parse(s); err == nil {
		return u.Redacted()
	}
	if strings.Contains(s, "password") {
		return "(unparsable, holds a password)"
	}
	return s
}

// openDatabase opens -db (checked by parseDBFlag): SQLite's hearth.db in
// the data directory when dsn is empty, else PostgreSQL at dsn, migrated
// (servers starting together migrate once, under an advisory lock).
func openDatabase(ctx context.Context, dsn, data string) (database, string, error) {
	if dsn == "" {
		db, err := sqlite.Open(ctx, filepath.Join(data, "hearth.db"))
		if err != nil {
			return nil, "", err
		}
		return db, "sqlite", nil
	}
	db, err := postgres.Open(ctx, dsn)
	if err != nil {
		return nil, "", err
	}
	return db, "postgres", nil
}
