package postgres

import (
	"context"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/storage/internal/sqlstore"
)

// sqliteStatementsFailing is how many of storage/sqlite's registered
// statements PostgreSQL refuses to prepare (after rebind) on this schema.
// It may only go down: the store port lowers it to 0, and a change to
// storage/sqlite or to the migrations that makes more statements fail
// here fails the test. -v lists the failures grouped by error.
const sqliteStatementsFailing = 48

// storage/sqlite's fixed statements (the string literals given to
// prepared), prepared on PostgreSQL against the migrated schema: the
// worklist of the port, checked by the server's own parser and type
// checker.
func TestSQLiteStatementsOnPostgres(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	stmts := sqlstore.Registered()
	require.Greater(t, len(stmts), 200, "the store code's registered statements were not found")
	db := openTest(t)

	failures := map[string][]string{} // error → statements
	failed := 0
	for _, q := range stmts {
		s, err := db.sql.PrepareContext(ctx, translate(q))
		if err != nil {
			msg := err.Error()
			failures[msg] = append(failures[msg], q)
			failed++
			continue
		}
		s.Close()
	}
	msgs := make([]string, 0, len(failures))
	for m := range failures {
		msgs = append(msgs, m)
	}
	sort.Strings(msgs)
	for _, m := range msgs {
		t.Logf("%d× %s", len(failures[m]), m)
		for _, q := range failures[m] {
			t.Logf("    %s", strings.Join(strings.Fields(q), " "))
		}
	}
	t.Logf("%d statements, %d prepared, %d refused", len(stmts), len(stmts)-failed, failed)
	if failed > sqliteStatementsFailing {
		t.Errorf("%d registered statements of storage/sqlite fail on PostgreSQL, more than the %d recorded: see the log (-v)", failed, sqliteStatementsFailing)
	}
	if failed < sqliteStatementsFailing {
		t.Logf("fewer failures than recorded: lower sqliteStatementsFailing to %d", failed)
	}
}

// sqliteRegistered returns the distinct string-literal arguments of
// prepared(…) in storage/sqlite's non-test files, and how many calls had
// another argument.
