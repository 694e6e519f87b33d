package main

import (
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/storage/dbtest"
)

// TestMain stops the PostgreSQL cluster TestForgedOnPostgres started, if
// it started one (see storage/dbtest).
func TestMain(m *testing.M) { os.Exit(dbtest.Main(m)) }

// TestDBFlag: -db takes a postgres:// URL without a password, refuses a
// password in the URL (ps shows it) with a message naming PGPASSWORD and
// ~/.pgpass, and refuses other schemes; empty is SQLite.
func TestDBFlag(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		db   string
		want string // "" accepted, else part of the error
	}{
		{"", ""},
		{"postgres://hearth@db.internal:5432/hearth?sslmode=verify-full", ""},
		{"postgresql://hearth@localhost/hearth?sslmode=disable&host=/run/postgresql", ""},
		{"postgres://hearth:s3cret@db.internal/hearth", "PGPASSWORD"},
		{"postgres://hearth:@db.internal/hearth", "holds a password"},
		{"postgres://hearth@db.internal/hearth?password=s3cret", "~/.pgpass"},
		{"mysql://hearth@db/hearth", "want postgres://"},
		{"host=db user=hearth", "want postgres://"},
		{"/srv/forge/hearth.db", "want postgres://"},
	} {
		_, err := parseFlags([]string{"-db", c.db}, func(string) string { return "" }, io.Discard)
		if c.want == "" {
			assert.NoError(t, err, "%q", c.db)
			continue
		}
		if assert.Error(t, err, "%q", c.db) {
			assert.Contains(t, err.Error(), c.want, "%q", c.db)
			assert.NotContains(t, err.Error(), "s3cret", "the message never repeats the password")
		}
	}
}

// TestForgedOnPostgres runs forged with -db on a fresh PostgreSQL database
// (skipped where pgtest finds no PostgreSQL): the administrator is
// bootstrapped there, writes land there and survive a restart, and the
// data directory holds no SQLite database.
func TestForgedOnPostgres(t *testing.T) {
	t.Parallel()
	dsn := dbtest.PostgresDSN(t)
	data := filepath.Join(t.TempDir(), "data")
	env := map[string]string{"FORGED_ADMIN_USER": "boss", "FORGED_ADMIN_PASSWORD": "boss-password"}
	s := start(t, data, env, "-db", dsn)
	admin := call{user: "boss", pass: "boss-password"}

	admin.method, admin.path = "GET", "/api/v1/user"
	r := s.do(t, admin)
	require.Equal(t, 200, r.status, "%s", r.raw)
	assert.Equal(t, true, r.body["is_admin"])
	admin.method, admin.path = "POST", "/api/v1/user/repos"
	admin.body = map[string]any{"name": "proj", "auto_init": true}
	r = s.do(t, admin)
	require.Equal(t, 201, r.status, "%s", r.raw)
	admin.path, admin.body = "/api/v1/repos/boss/proj/issues", map[string]any{"title": "on postgres"}
	r = s.do(t, admin)
	require.Equal(t, 201, r.status, "%s", r.raw)
	assert.Contains(t, s.logs.String(), "engine=postgres")
	require.NoError(t, s.stop())

	_, err := os.Stat(filepath.Join(data, "hearth.db"))
	assert.True(t, os.IsNotExist(err), "no SQLite database in the data directory: %v", err)

	// A restart on the same database finds the administrator and the issue.
	s = start(t, data, map[string]string{"FORGED_ADMIN_USER": "boss", "FORGED_ADMIN_PASSWORD": "other-password"}, "-db", dsn)
	r = s.do(t, call{method: "GET", path: "/api/v1/repos/boss/proj/issues/1", user: "boss", pass: "boss-password"})
	require.Equal(t, 200, r.status, "%s", r.raw)
	assert.Equal(t, "on postgres", r.body["title"])
}
