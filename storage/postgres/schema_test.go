package postgres

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	_ "modernc.org/sqlite" // the plain driver, to read the schema storage/sqlite made

	"github.com/hearthforge/hearth/storage/postgres/pgtest"
	"github.com/hearthforge/hearth/storage/sqlite"
)

// column is what the two schemas must agree on: name, type family and
// nullability.
type column struct {
	Name    string
	Kind    string // "int" (INTEGER / BIGINT or BOOLEAN), "text", "bytes"
	NotNull bool
}

// ftsContent matches the content table of an FTS5 virtual table (empty
// for a contentless one).
var ftsContent = regexp.MustCompile(`content\s*=\s*'(\w*)'`)

// sqliteVirtual returns SQLite's full-text tables (CREATE VIRTUAL TABLE …
// USING fts5, content = 'table') and the table each indexes. PostgreSQL has
// no such tables: it indexes the content table itself with a trigram
// index named as the virtual table (issue_text in 00014). A contentless
// table (an empty content option: the issue text by state and kind of
// 00035) maps to "": PostgreSQL counts through the trigram indexes of the
// issue columns and has no counterpart.
func sqliteVirtual(t *testing.T, db *sql.DB) map[string]string {
	t.Helper()
	rows, err := db.Query(`SELECT name, sql FROM sqlite_master WHERE type = 'table' AND sql LIKE 'CREATE VIRTUAL TABLE%'`)
	require.NoError(t, err)
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var name, def string
		require.NoError(t, rows.Scan(&name, &def))
		m := ftsContent.FindStringSubmatch(def)
		require.NotNil(t, m, "virtual table %s without content='table': say in schema_test.go what PostgreSQL has instead", name)
		out[name] = m[1]
	}
	require.NoError(t, rows.Err())
	return out
}

// sqliteOnly says whether a SQLite table has no PostgreSQL counterpart:
// SQLite's own tables, goose's, and the full-text tables with their shadow
// tables (name_data, name_idx, …).
func sqliteOnly(table string, virtual map[string]string) bool {
	if strings.HasPrefix(table, "sqlite_") || table == "goose_db_version" {
		return true
	}
	for v := range virtual {
		if table == v || strings.HasPrefix(table, v+"_") {
			return true
		}
	}
	return false
}

// The migrations apply on a real PostgreSQL, and the tables, columns and
// indexes they make are those of the SQLite migrations: a column added to
// one schema and not the other fails here.
func TestMigrationsMatchSQLiteSchema(t *testing.T) {
	t.Parallel()
	ctx := context.Background()

	// Apply the migrations on an empty database (not the template: this is
	// the test that they apply).
	pg, err := Open(ctx, pgtest.NewDatabase(t, nil))
	require.NoError(t, err)
	defer pg.Close()

	path := filepath.Join(t.TempDir(), "hearth.db")
	sdb, err := sqlite.Open(ctx, path)
	require.NoError(t, err)
	require.NoError(t, sdb.Close())
	lite, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	require.NoError(t, err)
	defer lite.Close()

	virtual := sqliteVirtual(t, lite)
	want := sqliteColumns(t, lite, virtual)
	got := postgresColumns(t, pg.sql)
	require.NotEmpty(t, want)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("columns differ (-sqlite +postgres):\n%s", diff)
	}
	if diff := cmp.Diff(sqliteIndexes(t, lite, virtual), postgresIndexes(t, pg.sql)); diff != "" {
		t.Errorf("named indexes differ (-sqlite +postgres):\n%s", diff)
	}

	var version int64
	require.NoError(t, pg.sql.QueryRowContext(ctx, `SELECT max(version_id) FROM goose_db_version`).Scan(&version))
	var liteVersion int64
	require.NoError(t, lite.QueryRowContext(ctx, `SELECT max(version_id) FROM goose_db_version`).Scan(&liteVersion))
	require.Equal(t, liteVersion, version, "both engines at the same migration")
}

func sqliteColumns(t *testing.T, db *sql.DB, virtual map[string]string) map[string][]column {
	t.Helper()
	tables := strings.Fields(queryStrings(t, db, `SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`))
	out := map[string][]column{}
	for _, table := range tables {
		if sqliteOnly(table, virtual) {
			continue
		}
		rows, err := db.Query(fmt.Sprintf(`SELECT name, type, "notnull", pk FROM pragma_table_info('%s')`, table))
		require.NoError(t, err)
		var cols []column
		for rows.Next() {
			var name, typ string
			var notNull, pk int
			require.NoError(t, rows.Scan(&name, &typ, &notNull, &pk))
			kind := map[string]string{"INTEGER": "int", "TEXT": "text", "BLOB": "bytes"}[strings.ToUpper(typ)]
			if kind == "" {
				kind = "unknown " + typ
			}
			// A primary key is NOT NULL in PostgreSQL whatever it says.
			cols = append(cols, column{Name: name, Kind: kind, NotNull: notNull == 1 || pk > 0})
		}
		require.NoError(t, rows.Err())
		rows.Close()
		sort.Slice(cols, func(i, j int) bool { return cols[i].Name < cols[j].Name })
		out[table] = cols
	}
	return out
}

func postgresColumns(t *testing.T, db *sql.DB) map[string][]column {
	t.Helper()
	rows, err := db.Query(`SELECT table_name, column_name, data_type, is_nullable
		FROM information_schema.columns
		WHERE table_schema = 'public' AND table_name <> 'goose_db_version'
		ORDER BY table_name, column_name`)
	require.NoError(t, err)
	defer rows.Close()
	out := map[string][]column{}
	for rows.Next() {
		var table, name, typ, nullable string
		require.NoError(t, rows.Scan(&table, &name, &typ, &nullable))
		kind := map[string]string{"bigint": "int", "boolean": "int", "text": "text", "bytea": "bytes"}[typ]
		if kind == "" {
			kind = "unknown " + typ
		}
		out[table] = append(out[table], column{Name: name, Kind: kind, NotNull: nullable == "NO"})
	}
	require.NoError(t, rows.Err())
	return out
}

// sqliteIndexes lists the explicitly named indexes (CREATE INDEX), by
// table; the automatic ones of PRIMARY KEY and UNIQUE are covered by the
// conflict behaviour the conformance suite checks.
func sqliteIndexes(t *testing.T, db *sql.DB, virtual map[string]string) map[string]string {
	t.Helper()
	rows, err := db.Query(`SELECT name, tbl_name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL`)
	require.NoError(t, err)
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var name, table string
		require.NoError(t, rows.Scan(&name, &table))
		out[name] = table
	}
	require.NoError(t, rows.Err())
	for v, table := range virtual {
		if table != "" {
			out[v] = table // the full-text table's counterpart: a trigram index
		}
	}
	return out
}

func postgresIndexes(t *testing.T, db *sql.DB) map[string]string {
	t.Helper()
	rows, err := db.Query(`SELECT i.indexname, i.tablename FROM pg_indexes i
		WHERE i.schemaname = 'public' AND i.tablename <> 'goose_db_version'
		AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname)`)
	require.NoError(t, err)
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var name, table string
		require.NoError(t, rows.Scan(&name, &table))
		out[name] = table
	}
	require.NoError(t, rows.Err())
	return out
}

func queryStrings(t *testing.T, db *sql.DB, q string) string {
	t.Helper()
	rows, err := db.Query(q)
	require.NoError(t, err)
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		require.NoError(t, rows.Scan(&s))
		out = append(out, s)
	}
	require.NoError(t, rows.Err())
	return strings.Join(out, " ")
}
