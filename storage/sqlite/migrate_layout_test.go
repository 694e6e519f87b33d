package sqlite

import (
	"compress/gzip"
	"context"
	"database/sql"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
)

// updateLayout rewrites the golden files of the migration layout tests.
// They were written once from the per-engine migration files that predate
// storage/internal/migrations, and must not be regenerated from the
// current code (that would make the tests compare the code with itself).
var updateLayout = flag.Bool("update-layout", false, "rewrite testdata/old_layout* from the current migrations")

// schemaDump lists every schema object SQLite records, with the text it
// keeps for it, and the migrations goose recorded as applied.
func schemaDump(t *testing.T, db *sql.DB) string {
	t.Helper()
	var b strings.Builder
	rows, err := db.Query(`SELECT type, name, tbl_name, coalesce(sql, '') FROM sqlite_master ORDER BY type, name`)
	require.NoError(t, err)
	for rows.Next() {
		var typ, name, tbl, text string
		require.NoError(t, rows.Scan(&typ, &name, &tbl, &text))
		fmt.Fprintf(&b, "%s %s ON %s\n%s\n\n", typ, name, tbl, text)
	}
	require.NoError(t, rows.Err())
	rows, err = db.Query(`SELECT version_id, is_applied FROM goose_db_version ORDER BY id`)
	require.NoError(t, err)
	for rows.Next() {
		var v int64
		var applied bool
		require.NoError(t, rows.Scan(&v, &applied))
		fmt.Fprintf(&b, "goose %d %t\n", v, applied)
	}
	require.NoError(t, rows.Err())
	return b.String()
}

func dumpFile(t *testing.T, path string) string {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	require.NoError(t, err)
	defer db.Close()
	return schemaDump(t, db)
}

// writeGz and readGz keep the old-layout database files small in testdata.
func writeGz(t *testing.T, from, to string) {
	t.Helper()
	data, err := os.ReadFile(from)
	require.NoError(t, err)
	f, err := os.Create(to)
	require.NoError(t, err)
	zw, err := gzip.NewWriterLevel(f, gzip.BestCompression)
	require.NoError(t, err)
	_, err = zw.Write(data)
	require.NoError(t, err)
	require.NoError(t, zw.Close())
	require.NoError(t, f.Close())
}

func readGz(t *testing.T, from, to string) {
	t.Helper()
	f, err := os.Open(from)
	require.NoError(t, err)
	defer f.Close()
	zr, err := gzip.NewReader(f)
	require.NoError(t, err)
	data, err := io.ReadAll(zr)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(to, data, 0o600))
}

// oldLayoutPartial is the version the partly migrated old-layout database
// stopped at: later migrations are left for the new code to apply.
const oldLayoutPartial = 20

// A new database gets exactly the schema the per-engine migration files
// made before they were merged into one source: same objects, same SQL
// text SQLite keeps for them, same goose versions.
func TestMigrationLayoutNewSchemaUnchanged(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	full, partial := filepath.Join(dir, "full.db"), filepath.Join(dir, "partial.db")
	// One database migrated file by file (no image), one seeded from the image.
	db, p := rawMigrator(t, full)
	_, err := p.Up(ctx)
	require.NoError(t, err)
	require.NoError(t, db.Close())
	if *updateLayout {
		require.NoError(t, os.WriteFile("testdata/old_layout_schema.txt", []byte(dumpFile(t, full)), 0o644))
		writeGz(t, full, "testdata/old_layout_full.db.gz")
		oldDatabase(t, partial, oldLayoutPartial)
		writeGz(t, partial, "testdata/old_layout_partial.db.gz")
		t.Skip("golden files rewritten")
	}
	want, err := os.ReadFile("testdata/old_layout_schema.txt")
	require.NoError(t, err)
	requireSameSchema(t, string(want), dumpFile(t, full), "migrated file by file")

	seeded := filepath.Join(dir, "seeded.db")
	sdb, err := Open(ctx, seeded)
	require.NoError(t, err)
	require.NoError(t, sdb.Close())
	requireSameSchema(t, string(want), dumpFile(t, seeded), "seeded from the migrated image")
}

// A database an older Hearth migrated with the per-engine files opens with
// the new code: no migration runs twice (goose would fail on an existing
// table) and none is missed, fully or partly migrated.
func TestMigrationLayoutOldDatabaseOpens(t *testing.T) {
	t.Parallel()
	want, err := os.ReadFile("testdata/old_layout_schema.txt")
	require.NoError(t, err)
	for _, name := range []string{"full", "partial"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			path := filepath.Join(t.TempDir(), "hearth.db")
			readGz(t, "testdata/old_layout_"+name+".db.gz", path)
			before := dumpFile(t, path)
			if name == "partial" {
				require.Contains(t, before, fmt.Sprintf("goose %d true\n", oldLayoutPartial))
				require.NotEqual(t, string(want), before)
			}
			db, err := Open(context.Background(), path)
			require.NoError(t, err)
			require.NoError(t, db.Close())
			got := dumpFile(t, path)
			if name == "partial" {
				// The rows goose adds for the versions it applied now.
				requireSameSchema(t, string(want), got)
				return
			}
			requireSameSchema(t, before, got, "nothing applied to a fully migrated database")
			requireSameSchema(t, string(want), got)
		})
	}
}

// requireSameSchema fails t with the lines that differ between two dumps.
func requireSameSchema(t *testing.T, want, got string, msg ...any) {
	t.Helper()
	if diff := cmp.Diff(strings.Split(want, "\n"), strings.Split(got, "\n")); diff != "" {
		t.Fatalf("schema differs (-want +got) %v:\n%s", msg, diff)
	}
}
