package httpapi_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge/forgetest"
	"github.com/hearthforge/hearth/forge/orgs"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/forge/site"
	"github.com/hearthforge/hearth/httpapi"
	"github.com/hearthforge/hearth/issues"
	"github.com/hearthforge/hearth/mirror"
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
	db      *dbtest.DB // nil on a base of newBaseOn
	clock   *forgetest.FakeClock
	auth    *auth.Service
	git     *gitstore.Store
	blobs   *blob.Dir
	blobDir string // where blobs keeps its files
	gitDir  string // where git keeps its repositories
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
	db := dbtest.Open(t, dbPath)
	b := newBaseOn(t, db, secret)
	b.db = db
	return b
}

// baseStores are the stores newBaseOn builds the auth service on.
type baseStores interface {
	Auth() auth.Store
	Orgs() orgs.Store
}

// newBaseOn is newBase with the auth service on the stores of st (a
// memstore.Store, for the tests that build on one): its db is nil.
func newBaseOn(t testing.TB, st baseStores, secret []byte) *base {
	t.Helper()
	ctx := context.Background()
	clock := forgetest.NewClock()
	gitDir, blobDir := t.TempDir(), t.TempDir()
	blobs, err := blob.OpenDir(blobDir)
	require.NoError(t, err)
	svc, err := auth.New(auth.Config{Store: st.Auth(), Clock: clock, Password: auth.PasswordParams{Time: 1, MemoryKiB: 64, Threads: 1},
		SecretKey: secret, Orgs: orgs.NewVisibility(st.Orgs()), Blobs: blobs})
	require.NoError(t, err)
	no := false
	_, err = svc.EnsureAdmin(ctx, auth.CreateUserOptions{
		Name: "root", Email: "root@example.com", Password: "rootpassword", MustChangePassword: &no})
	require.NoError(t, err)
	git, err := gitstore.Open(gitDir)
	require.NoError(t, err)
	t.Cleanup(func() { git.Close() })
	return &base{clock: clock, auth: svc, git: git, blobs: blobs, blobDir: blobDir, gitDir: gitDir}
}

// repoService is the repository service on b's database, git and blobs,
// presenting repositories with their issue counters and mirror fields as
// forge/site wires it, and its trusted ports; mutate may change its
// Config first.
func (b *base) repoService(t testing.TB, mutate ...func(*repos.Config)) (*repos.Service, *repos.Ports) {
	t.Helper()
	rc := repos.Config{Store: b.db.Repos(), Git: b.git, Blobs: b.blobs, Clock: b.clock,
		IssueCounts: issues.NewRepoCounter(b.db.Issues()),
		PullMirrors: site.MirrorFields{Mirrors: mirror.NewPullMirrorReader(b.db.Mirrors())}}
	for _, m := range mutate {
		m(&rc)
	}
	svc, ports, err := repos.NewWithPorts(rc)
	require.NoError(t, err)
	return svc, ports
}

// orgService is the organisation service on b's database, with repoSvc
// answering its repository questions, and its trusted ports.
func (b *base) orgService(t testing.TB, repoSvc *repos.Service) (*orgs.Service, *orgs.Ports) {
	t.Helper()
	svc, ports, err := orgs.NewWithPorts(orgs.Config{Store: b.db.Orgs(), Clock: b.clock, Repos: repoSvc, Blobs: b.blobs})
	require.NoError(t, err)
	return svc, ports
}

// serve builds the API of cfg and serves it on a loopback test server,
// closed when the test ends, every answer checked against the OpenAPI
// document: the env of an area environment. wrap, when given, wraps the
// API (settleNotifications).
func (b *base) serve(t *testing.T, cfg httpapi.Config, wrap ...func(http.Handler) http.Handler) *env {
	t.Helper()
	api, err := httpapi.New(cfg)
	require.NoError(t, err)
	var h http.Handler = api
	for _, w := range wrap {
		h = w(h)
	}
	mux := http.NewServeMux()
	mux.Handle("/", h)
	srv := httptest.NewServer(checked(t, mux))
	t.Cleanup(srv.Close)
	return &env{t: t, srv: srv, auth: b.auth, clock: b.clock, repos: cfg.Repos, api: api}
}
