package sqlstore

import (
	"errors"
	"sync/atomic"
)

// ErrInjected is the error of a statement FailStatement made fail.
var ErrInjected = errors.New("store: injected fault")

// faults counts down the statements of write transactions to the one that
// must fail; zero means off.
type faults struct{ left atomic.Int64 }

func (f *faults) next(readOnly bool) error {
	if readOnly || f.left.Load() == 0 {
		return nil
	}
	if f.left.Add(-1) == 0 {
		return ErrInjected
	}
	return nil
}

// FailStatement makes the n-th statement run from now in a write
// transaction (Update, or a single write outside one) fail with
// ErrInjected, once; n <= 0 turns injection off. Statements of read-only
// transactions are not counted. It is for fault-injection tests: the
// transaction's caller must roll everything back.
func (db *DB) FailStatement(n int64) { db.faults.left.Store(max(n, 0)) }

// Armed reports whether a fault set by FailStatement has not fired yet.
func (db *DB) Armed() bool { return db.faults.left.Load() > 0 }
