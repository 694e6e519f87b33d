package postgres

import (
	"context"
	"database/sql"
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/pressly/goose/v3"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/storage/postgres/pgtest"
)

// updateLayout rewrites testdata/old_layout_schema.txt. It was written once
// from the per-engine migration files that predate
// storage/internal/migrations, and must not be regenerated from the
// current code (that would make the test compare the code with itself).
var updateLayout = flag.Bool("update-layout", false, "rewrite testdata/old_layout_schema.txt from the current migrations")

// schemaDump lists what the migrations make in the public schema: columns
// with their types, defaults and identity, constraints, indexes, triggers,
// functions and sequences, and the versions goose recorded.
func schemaDump(t *testing.T, db *sql.DB) string {
	t.Helper()
	var b strings.Builder
	section := func(title, q string) {
		fmt.Fprintf(&b, "## %s\n", title)
		rows, err := db.Query(q)
		require.NoError(t, err, title)
		defer rows.Close()
		for rows.Next() {
			var line string
			require.NoError(t, rows.Scan(&line))
			b.WriteString(line + "\n")
		}
		require.NoError(t, rows.Err())
	}
	section("columns", `SELECT concat_ws(' ', table_name, column_name, data_type, is_nullable,
			coalesce(column_default, '-'), is_identity, coalesce(identity_generation, '-'), coalesce(character_maximum_length::text, '-'))
		FROM information_schema.columns WHERE table_schema = 'public' ORDER BY table_name, ordinal_position`)
	section("constraints", `SELECT concat_ws(' ', c.conrelid::regclass::text, c.conname, pg_get_constraintdef(c.oid))
		FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace
		WHERE n.nspname = 'public' ORDER BY 1`)
	section("indexes", `SELECT indexdef FROM pg_indexes WHERE schemaname = 'public' ORDER BY tablename, indexname`)
	section("triggers", `SELECT concat_ws(' ', tgrelid::regclass::text, tgname, pg_get_triggerdef(t.oid))
		FROM pg_trigger t WHERE NOT tgisinternal ORDER BY 1`)
	section("functions", `SELECT pg_get_functiondef(p.oid) FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
		WHERE n.nspname = 'public' ORDER BY p.proname`)
	section("sequences", `SELECT concat_ws(' ', sequence_name, data_type) FROM information_schema.sequences
		WHERE sequence_schema = 'public' ORDER BY sequence_name`)
	section("goose", `SELECT concat_ws(' ', version_id, is_applied) FROM goose_db_version ORDER BY id`)
	return b.String()
}

// A new PostgreSQL database gets exactly the schema the per-engine
// migration files made before they were merged into one source.
func TestMigrationLayoutNewSchemaUnchanged(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, err := Open(ctx, pgtest.NewDatabase(t, nil))
	require.NoError(t, err)
	defer db.Close()
	got := schemaDump(t, db.sql)
	if *updateLayout {
		require.NoError(t, os.WriteFile("testdata/old_layout_schema.txt", []byte(got), 0o644))
		t.Skip("golden file rewritten")
	}
	want, err := os.ReadFile("testdata/old_layout_schema.txt")
	require.NoError(t, err)
	requireSameSchema(t, string(want), got)
}

// A database migrated part of the way (as an older Hearth left it) opens:
// Open applies the rest, no migration runs twice, and the result is the
// schema of a new database.
func TestMigrationLayoutPartialDatabaseOpens(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dsn := pgtest.NewDatabase(t, nil)
	raw, err := sql.Open("pgx", dsn)
	require.NoError(t, err)
	defer raw.Close()
	p, err := goose.NewProvider(goose.DialectPostgres, raw, migrations)
	require.NoError(t, err)
	_, err = p.UpTo(ctx, 20)
	require.NoError(t, err)
	db, err := Open(ctx, dsn)
	require.NoError(t, err)
	defer db.Close()
	want, err := os.ReadFile("testdata/old_layout_schema.txt")
	require.NoError(t, err)
	requireSameSchema(t, string(want), schemaDump(t, db.sql))
}

// requireSameSchema fails t with the lines that differ between two dumps.
func requireSameSchema(t *testing.T, want, got string, msg ...any) {
	t.Helper()
	if diff := cmp.Diff(strings.Split(want, "\n"), strings.Split(got, "\n")); diff != "" {
		t.Fatalf("schema differs (-want +got) %v:\n%s", msg, diff)
	}
}
