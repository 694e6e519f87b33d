package sqlstore

import (
	"context"
	"database/sql"
	"sync"
)

// statements holds the registered statements prepared so far, per pool.
//
// They are prepared on first use rather than all by Open: a database that
// serves one kind of request never parses the SQL of the others, and a
// process that opens many databases (a test suite) does not parse every
// statement for each. A transaction holds its pool's connection (the write
// pool has only one), so preparing on the pool inside it could wait for
// itself: a transaction prepares a registered statement it has not met for
// its own use and records it, and the pool-level preparation runs after the
// transaction has ended (preparePending). Statements outside a transaction
// are prepared on the pool at once.
type statements struct {
	m sync.Map // stmtKey → *sql.Stmt
}

// get returns the pool's prepared statement for query, or nil.
func (st *statements) get(pool *sql.DB, query string) *sql.Stmt {
	if v, ok := st.m.Load(stmtKey{pool, query}); ok {
		return v.(*sql.Stmt)
	}
	return nil
}

// prepare prepares query on pool, keeping the first of concurrent
// preparations. The caller must not hold one of pool's connections.
func (st *statements) prepare(ctx context.Context, pool *sql.DB, query string) (*sql.Stmt, error) {
	s, err := pool.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	if v, loaded := st.m.LoadOrStore(stmtKey{pool, query}, s); loaded {
		s.Close()
		return v.(*sql.Stmt), nil
	}
	return s, nil
}

// preparePending prepares on t's pool the registered statements t met for
// the first time, once t has ended. A failure (a closed database, a
// cancelled context) is not an error: the next transaction that needs the
// statement prepares it again.
func (st *statements) preparePending(ctx context.Context, t *tx) {
	for _, q := range t.pending {
		if st.get(t.pool, q) == nil {
			_, _ = st.prepare(context.WithoutCancel(ctx), t.pool, q)
		}
	}
}

// closeAll closes every prepared statement.
func (st *statements) closeAll() {
	st.m.Range(func(k, v any) bool {
		v.(*sql.Stmt).Close()
		st.m.Delete(k)
		return true
	})
}
