package httpapi_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge/forgetest"
	"github.com/hearthforge/hearth/forge/orgs"
	"github.com/hearthforge/hearth/storage/blob"
	"github.com/hearthforge/hearth/storage/dbtest"
	"github.com/hearthforge/hearth/storage/gitstore"
)

// base is what every test environment of this package starts from: a
// database (SQLite, or PostgreSQL with HEARTH_TEST_DB=postgres: see
// storage/dbtest), a fake clock, the auth service with the site
// administrator root (password "rootpassword", no change required), a git
// store and a blob directory, each closed when the test ends. The area
// environments (newEnv, newIssueEnv, newPullEnv, …) wire their services
// on it.
type base struct {
	db    *dbtest.DB
	clock *forgetest.FakeClock
	auth  *auth.Service
	git   *gitstore.Store
	blobs *blob.Dir
}

// testSecret is the server key of the test environments.
var testSecret = []byte("httpapi-test-secret")

// newBase builds a base on the database at dbPath: ":memory:" for a private
// in-memory database (one connection: services that read one store inside
// another's transaction need a file), or a file path; on PostgreSQL a fresh
// database whatever dbPath says. secret is the auth
// service's SecretKey (testSecret unless the test reads sealed values).
func newBase(t testing.TB, dbPath string, secret []byte) *base {
	t.Helper()
	ctx := context.Background()
	db := dbtest.Open(t, dbPath)
	clock := forgetest.NewClock()
	svc, err := auth.New(auth.Config{Store: db.Auth(), Clock: clock, Password: auth.PasswordParams{Time: 1, MemoryKiB: 64, Threads: 1},
		SecretKey: secret, Orgs: orgs.NewVisibility(db.Orgs())})
	require.NoError(t, err)
	no := false
	_, err = svc.EnsureAdmin(ctx, auth.CreateUserOptions{
		Name: "root", Email: "root@example.com", Password: "rootpassword", MustChangePassword: &no})
	require.NoError(t, err)
	git, err := gitstore.Open(t.TempDir())
	require.NoError(t, err)
	t.Cleanup(func() { git.Close() })
	blobs, err := blob.OpenDir(t.TempDir())
	require.NoError(t, err)
	return &base{db: db, clock: clock, auth: svc, git: git, blobs: blobs}
}
