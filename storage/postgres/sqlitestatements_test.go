package postgres

import (
	"context"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/storage/internal/sqlstore"
)

// Every registered statement of the store code, rebound for PostgreSQL,
// prepares against the migrated schema: the server's own parser and type
// checker see each one, including those no conformance case runs.
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
	if failed > 0 {
		t.Errorf("%d registered statements of the store code fail on PostgreSQL: see the log (-v)", failed)
	}
}
