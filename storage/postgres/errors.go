package postgres

import (
	"database/sql"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/storage/internal/sqlstore"
)

// ErrRetry marks an error after which the whole transaction may succeed if
// run again: a serialization failure or a deadlock, which PostgreSQL
// reports when concurrent transactions (of this or another server) touched
// the same rows. It is in no forge category; the transaction runner
// retries on it, and what is still failing after the retries is an
// internal error.
var ErrRetry = errors.New("postgres: transaction conflict, retry")

// SQLSTATE codes mapError knows (PostgreSQL Appendix A).
const (
	codeUniqueViolation      = "23505"
	codeForeignKeyViolation  = "23503"
	codeNotNullViolation     = "23502"
	codeCheckViolation       = "23514"
	codeExclusionViolation   = "23P01"
	codeStringTooLong        = "22001"
	codeNumericOutOfRange    = "22003"
	codeInvalidTextRepr      = "22P02"
	codeUntranslatableChar   = "22P05" // e.g. a NUL byte in TEXT
	codeCharacterNotInRepert = "22021" // invalid UTF-8
	codeSerializationFailure = "40001"
	codeDeadlockDetected     = "40P01"
	codeLockNotAvailable     = "55P03" // NOWAIT / lock_timeout
)

func init() { sqlstore.RegisterErrors(mapDriverError) }

// mapError turns driver errors into forge categories, as the store code's
// own mapping does (sql.ErrNoRows first, then mapDriverError).
func mapError(err error, what string) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, sql.ErrNoRows) {
		return forge.Errorf(forge.ErrNotFound, "%s: not found", what)
	}
	if e := mapDriverError(err, what); e != nil {
		return e
	}
	return fmt.Errorf("postgres: %s: %w", what, err)
}

// mapDriverError is the only place that knows PostgreSQL's error codes
// (see sqlstore.Dialect.MapError); it maps them as storage/sqlite maps
// SQLite's, and answers nil for an error that is not PostgreSQL's.
func mapDriverError(err error, what string) error {
	var pe *pgconn.PgError
	if !errors.As(err, &pe) {
		return nil
	}
	switch pe.Code {
	case codeUniqueViolation, codeExclusionViolation:
		return &forge.Error{Kind: forge.ErrConflict, Message: what + ": already exists", Err: err}
	case codeForeignKeyViolation:
		return &forge.Error{Kind: forge.ErrNotFound, Message: what + ": missing referenced row", Err: err}
	case codeCheckViolation, codeNotNullViolation, codeStringTooLong, codeNumericOutOfRange,
		codeInvalidTextRepr, codeUntranslatableChar, codeCharacterNotInRepert:
		return &forge.Error{Kind: forge.ErrInvalid, Message: what + ": invalid value", Err: err}
	case codeSerializationFailure, codeDeadlockDetected, codeLockNotAvailable:
		return fmt.Errorf("postgres: %s: %w", what, errors.Join(ErrRetry, err))
	}
	return fmt.Errorf("postgres: %s: %w", what, err)
}
