// Package postgres is Hearth's PostgreSQL storage backend, for deployments
// that run several Hearth servers on one database. It reaches PostgreSQL
// through pgx's database/sql driver (github.com/jackc/pgx/v5/stdlib), so
// that it can share storage/sqlite's hand-written SQL through one *sql.DB
// code path and a small dialect value.
//
// What is here now: Open (connect, migrate under goose's advisory lock so
// that servers starting together migrate once), the 27 migrations in
// PostgreSQL (migrations/postgres, numbered as SQLite's; BIGINT identity
// keys, BOOLEAN flags, BYTEA, times as BIGINT Unix seconds exactly as the
// SQLite schema stores them, the SQLite triggers as PL/pgSQL functions,
// pg_trgm's GIN index in place of the FTS5 trigram table), mapError, and
// package pgtest for tests. The domain stores come with the plan below.
//
// # Schema
//
// TestMigrationsMatchSQLiteSchema applies the migrations to a real server
// and compares every table's columns (name, integer/text/bytes family,
// NOT NULL) and every named index with a database storage/sqlite.Open
// made: a column or index added to one engine only fails it. Where
// SQLite migrations copy data out of JSON (00008, 00009, 00011) the
// PostgreSQL ones make the same schema without the copies: no PostgreSQL
// database predates this backend. 00013 drops the UNIQUE constraint in
// place where SQLite rebuilds the table. The issue keyword search needs the
// pg_trgm extension (a trusted extension in PostgreSQL 13+: the database
// owner may create it; Debian's postgresql package, RDS, Cloud SQL and
// Azure ship it).
//
// # Errors
//
// mapError is the only function that knows SQLSTATE codes: unique and
// exclusion violations are forge.ErrConflict, foreign-key violations
// forge.ErrNotFound (as storage/sqlite's mapError), check, not-null,
// range, bad text (a NUL byte, invalid UTF-8) forge.ErrInvalid;
// serialization failures (40001), deadlocks (40P01) and NOWAIT lock
// failures (55P03) are ErrRetry, in no forge category, for the transaction
// runner to retry.
//
// # Plan: one store code for both engines
//
// storage/sqlite's store code (45 files, 7,218 lines without tests, 331
// registered statements, 210 Scan calls) goes through one choke point,
// (*tx).stmt, and one error function, mapError. Counted with grep over
// storage/sqlite/*.go without tests at the commit this package was written
// on, the SQLite-specific constructs and their rewrites:
//
//   - `?` placeholders: 1,037 (37 files), 70 of them numbered `?N` (10
//     files). Rewrite: none in the source; the dialect's Rebind turns `?N`
//     into `$N` and the k-th bare `?` into `$k` (skipping quoted text),
//     once per statement text, cached, in (*tx).stmt.
//   - json_each(?) to pass a Go list as one JSON argument: 57 (19 files),
//     all `x IN (SELECT value FROM json_each(?))`. Rewrite: a dialect
//     fragment per element kind, the argument unchanged (the idList and
//     stringList helpers): PostgreSQL `(SELECT value::bigint FROM
//     json_array_elements_text(?::json))`, text without the cast.
//   - json_group_array: 4 (quota.go, quota_admin.go). Rewrite: dialect
//     fragment, PostgreSQL json_agg (the Go side decodes JSON either way).
//   - group_concat(x, sep): 2 (orgs_teams.go, repos.go, the latter with
//     char(10)). Rewrite in the shared SQL: string_agg(x, sep) and the
//     separator as a literal E'\n' or a parameter; SQLite has string_agg
//     since 3.44 (modernc.org/sqlite v1.60.1 is SQLite 3.53.4).
//   - INSERT OR IGNORE: 2 (protections.go). Rewrite in the shared SQL:
//     INSERT … ON CONFLICT DO NOTHING (both engines). No INSERT OR
//     REPLACE; the 19 ON CONFLICT clauses (13 files) and their 18
//     excluded. references are valid PostgreSQL as written.
//   - LastInsertId: 5 (issues_social.go, issues_tracking.go ×3,
//     notify.go); pgx has none. Rewrite: `RETURNING id` with queryRow, as
//     the 36 RETURNING clauses (21 files) already do; both engines.
//   - Boolean columns compared with integers: 26 `col = 0|1` (is_closed,
//     is_public, is_private, is_draft, has_merged, is_archived,
//     is_delivered, is_active, hide_email) and 3 `is_closed <> 0`, one
//     inside sum(). Rewrite in the shared SQL: `col` / `NOT col` /
//     `col = TRUE`, and `count(*) FILTER (WHERE i.is_closed)` for the sum
//     (SQLite knows TRUE/FALSE and FILTER). Go values stay bool; a Go int
//     bound to a BOOLEAN column, or a BOOLEAN scanned into an int, fails on
//     pgx: the conformance suite finds each.
//   - `comment_id IS ?` (null-safe equality): 2 (issues_social.go).
//     Rewrite: IS NOT DISTINCT FROM (SQLite 3.39+), both engines.
//   - LIKE: 16 with ESCAPE '\' (6 files). PostgreSQL's LIKE is case
//     sensitive, SQLite's is not for ASCII. 15 compare lower(col) or a
//     lower_* column with a lowered pattern and need nothing; issues_search
//     (title and body) relies on SQLite's case folding: dialect fragment,
//     ILIKE on PostgreSQL (served by the pg_trgm index).
//   - issue_text MATCH (FTS5 trigram): 1 (issues_search.go). Rewrite:
//     dialect fragment, `(i.title ILIKE ? OR i.body ILIKE ?)` on
//     PostgreSQL with the pattern escaped as for LIKE.
//   - rowid: 1 (the same FTS query). Scalar max(a, b)/min(a, b): none in
//     SQL (the 2 grep hits are Go). strftime, datetime, unixepoch, COLLATE
//     NOCASE, GLOB, ifnull, iif, instr, printf, typeof, CAST, LIMIT -1:
//     none. PRAGMA: only in sqlite.go's DSN.
//   - modernc error types (sqlite.Error, sqlite3.*): 8 lines; errors.go
//     (mapError, which becomes the dialect's MapError) and 2 direct
//     foreign-key checks in auth.go and orgs.go (deleting an account that
//     is still referenced). Rewrite: both test errors.Is(err,
//     forge.ErrNotFound) after mapError (FK violations map to it on both
//     engines), or a dialect IsForeignKeyViolation.
//
// Checked by PostgreSQL itself: TestSQLiteStatementsOnPostgres reads the
// statements storage/sqlite registers (302 distinct, from literals and
// package-level constants; 28 built otherwise are not checked), rebinds
// them and prepares each on the migrated schema. 263 prepare as they are;
// the 39 refused are the worklist, grouped by the server's error: 17+2
// json_each (bigint/text = json, as above), 1 team_repo insert from
// json_each (bigint ← json), 6 boolean compared or assigned with an
// integer, 6 "subquery in FROM must have an alias" (PostgreSQL 15 wants
// one: add `AS s`, valid in SQLite), 3 ambiguous column in ON CONFLICT …
// DO UPDATE SET (bytes = bytes + excluded.bytes, max_index = …: qualify
// with the table name, valid in both), 1 scalar max(a, b) in the issue
// index upsert (SQLite's two-argument max is GREATEST in PostgreSQL:
// dialect fragment, or CASE), 2 INSERT OR IGNORE, 1 "could not determine
// data type of parameter" (auth.go's `?1 IS NULL OR is_admin = ?1`: a
// typed parameter, CAST(?1 AS BOOLEAN)). The test fails when the number
// grows; the port brings it to 0. Preparing checks syntax and types, not
// behaviour: storetest.Run does that.
//
// Behaviour the SQL does not show, to fix as the conformance suite finds
// it: text ordering (create the database with LC_COLLATE "C", or Open
// refuses another collation, so ORDER BY name sorts as SQLite's binary
// collation does); NULL ordering (SQLite puts NULLs first ascending,
// PostgreSQL last: add NULLS FIRST where a nullable column is ordered,
// both engines accept it); sum() of BIGINT is NUMERIC in PostgreSQL (cast
// to bigint where it is scanned); a parameter PostgreSQL cannot type from
// its context needs a cast ($1::bigint).
//
// Transactions: SQLite has one writer (BEGIN IMMEDIATE), so every
// read-modify-write in a write transaction is atomic today (issue and run
// indexes via max()+1, last-admin checks, quota checks). PostgreSQL's
// update runs write transactions at SERIALIZABLE and reruns the whole
// function on ErrRetry (a bounded number of times), which keeps that
// guarantee without auditing each site; hot paths then move to single
// statements (the issue index upsert already is one). In-process caches
// (usercache.go, tokencache.go, generation.go) are per server: they either
// check users.version per read or are off on PostgreSQL until an
// invalidation (LISTEN/NOTIFY) exists.
//
// The refactor, mechanical and in this order:
//
//  1. In storage/sqlite, the rewrites valid on both engines listed above
//     (INSERT OR IGNORE, LastInsertId, booleans, IS NOT DISTINCT FROM,
//     string_agg, FILTER): ~40 edits, SQLite tests unchanged. ½ day.
//  2. git mv the store files (all but sqlite.go's Open/pragmas, image.go,
//     errors.go, the migrations) to storage/internal/sqlstore, package
//     renamed; sqlstore.DB takes a Dialect value {Name; Rebind func;
//     InInts, InStrings, JSONArrayAgg, TextMatch fragments; MapError;
//     write-transaction options; whether to prepare registered statements
//     (pgx already caches statements per connection)}. storage/sqlite and
//     storage/postgres become thin: Open, migrations, dialect, errors. The
//     ~65 json_each/MATCH/LIKE sites call the dialect. One engineer, in one
//     commit at a quiet point (everyone else's storage/sqlite edits rebase
//     onto the move). 1 day.
//  3. storetest.Run on postgres (pgtest template per process) and the
//     fallout above; retry loop; collation check. 1–2 days, split by
//     domain after step 2.
//  4. Several servers: SKIP LOCKED leases, caches, the two-server tests of
//     issue 15. 1–2 days.
package postgres
