package sqlite

import (
	"errors"
	"fmt"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/storage/internal/sqlstore"
)

func init() { sqlstore.RegisterErrors(mapDriverError) }

// mapDriverError turns SQLite's errors into forge categories; it is the
// only place that knows SQLite's error codes (see sqlstore.Dialect.MapError).
func mapDriverError(err error, what string) error {
	var se *sqlite.Error
	if !errors.As(err, &se) {
		return nil
	}
	switch se.Code() {
	case sqlite3.SQLITE_CONSTRAINT_UNIQUE, sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY:
		return &forge.Error{Kind: forge.ErrConflict, Message: what + ": already exists", Err: err}
	case sqlite3.SQLITE_CONSTRAINT_FOREIGNKEY:
		return &forge.Error{Kind: forge.ErrNotFound, Message: what + ": missing referenced row", Err: err}
	case sqlite3.SQLITE_CONSTRAINT_CHECK, sqlite3.SQLITE_CONSTRAINT_NOTNULL:
		return &forge.Error{Kind: forge.ErrInvalid, Message: what + ": invalid value", Err: err}
	}
	return fmt.Errorf("sqlite: %s: %w", what, err)
}
