package sqlite

import (
	"database/sql"
	"errors"
	"fmt"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/hearthforge/hearth/forge"
)

// mapError turns driver errors into forge categories; it is the only place
// that knows SQLite's error codes. what names the operation for the message.
func mapError(err error, what string) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, sql.ErrNoRows) {
		return forge.Errorf(forge.ErrNotFound, "%s: not found", what)
	}
	var se *sqlite.Error
	if errors.As(err, &se) {
		switch se.Code() {
		case sqlite3.SQLITE_CONSTRAINT_UNIQUE, sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY:
			return &forge.Error{Kind: forge.ErrConflict, Message: what + ": already exists", Err: err}
		case sqlite3.SQLITE_CONSTRAINT_FOREIGNKEY:
			return &forge.Error{Kind: forge.ErrNotFound, Message: what + ": missing referenced row", Err: err}
		case sqlite3.SQLITE_CONSTRAINT_CHECK, sqlite3.SQLITE_CONSTRAINT_NOTNULL:
			return &forge.Error{Kind: forge.ErrInvalid, Message: what + ": invalid value", Err: err}
		}
	}
	return fmt.Errorf("sqlite: %s: %w", what, err)
}

func isNotFound(err error) bool { return errors.Is(err, forge.ErrNotFound) }
