package sqlstore

import (
	"context"
	"errors"
)

// failureAbortsTx reports whether a failed statement aborts the whole
// transaction on the engine (PostgreSQL: every later statement fails until
// the rollback), where SQLite undoes the failed statement only.
func (d Dialect) failureAbortsTx() bool { return d.Name == "postgres" }

// guarded runs fn, a write that may fail on a constraint (a unique or
// foreign key) in a transaction that carries on after the failure: the
// domain maps the error and goes on, as on SQLite, where a failed
// statement undoes itself only. On an engine where a failure aborts the
// transaction (failureAbortsTx), fn runs inside a savepoint, rolled back
// to when fn fails; fn's error is returned either way. Outside a
// transaction, or on SQLite, it is fn().
func (t *tx) guarded(ctx context.Context, fn func() error) error {
	if t.q == nil || !t.db.d.failureAbortsTx() {
		return fn()
	}
	if _, err := t.q.ExecContext(ctx, "SAVEPOINT hearth_guard"); err != nil {
		return mapError(err, "savepoint")
	}
	if err := fn(); err != nil {
		if _, rerr := t.q.ExecContext(ctx, "ROLLBACK TO SAVEPOINT hearth_guard"); rerr != nil {
			return errors.Join(err, mapError(rerr, "rollback to savepoint"))
		}
		if _, rerr := t.q.ExecContext(ctx, "RELEASE SAVEPOINT hearth_guard"); rerr != nil {
			return errors.Join(err, mapError(rerr, "release savepoint"))
		}
		return err
	}
	_, err := t.q.ExecContext(ctx, "RELEASE SAVEPOINT hearth_guard")
	return mapError(err, "release savepoint")
}
