package httpapi_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge/actions"
	"github.com/hearthforge/hearth/forge/forgetest"
	"github.com/hearthforge/hearth/forge/orgs"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/httpapi"
	"github.com/hearthforge/hearth/storage/blob"
	"github.com/hearthforge/hearth/storage/gitstore"
	"github.com/hearthforge/hearth/storage/sqlite"
)

// actionsKey is the server key of the Actions test environment: the one
// auth seals TOTP secrets with, as examples/forged wires it.
var actionsKey = []byte("httpapi-test-secret")

// newActionsEnv is newOrgEnv with the Actions service wired in, on a
// SQLite file (returned, so that a test can read its rows) shared by every
// service. Every response is checked against the OpenAPI document.
func newActionsEnv(t *testing.T) (*env, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "hearth.db")
	db, err := sqlite.Open(context.Background(), path)
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	clock := forgetest.NewClock()
	svc, err := auth.New(auth.Config{Store: db.Auth(), Clock: clock, Password: auth.PasswordParams{Time: 1, MemoryKiB: 64, Threads: 1},
		SecretKey: actionsKey})
	require.NoError(t, err)
	no := false
	_, err = svc.EnsureAdmin(context.Background(), auth.CreateUserOptions{
		Name: "root", Email: "root@example.com", Password: "rootpassword", MustChangePassword: &no})
	require.NoError(t, err)
	git, err := gitstore.Open(t.TempDir())
	require.NoError(t, err)
	blobs, err := blob.OpenDir(t.TempDir())
	require.NoError(t, err)
	repoSvc, err := repos.New(repos.Config{Store: db.Repos(), Git: git, Blobs: blobs, Clock: clock})
	require.NoError(t, err)
	orgSvc, err := orgs.New(orgs.Config{Store: db.Orgs(), Clock: clock, Repos: repoSvc, Blobs: blobs})
	require.NoError(t, err)
	actSvc, err := actions.New(actions.Config{Store: db.Actions(), Key: actionsKey, Repos: repoSvc, Orgs: orgSvc, Clock: clock})
	require.NoError(t, err)
	api, err := httpapi.New(httpapi.Config{Auth: svc, Repos: repoSvc, Git: git, Orgs: orgSvc, Actions: actSvc})
	require.NoError(t, err)
	mux := http.NewServeMux()
	mux.Handle("/", api)
	srv := httptest.NewServer(checked(t, mux))
	t.Cleanup(srv.Close)
	return &env{t: t, srv: srv, auth: svc, clock: clock, repos: repoSvc, api: api}, path
}

// actionsWorld builds what the Actions tests and samples need: alice with
// the public alice/proj and the private alice/secret (both with the Actions unit on), alice/noactions
// (off), bob (no rights on
// them; admin collaborator on alice/proj), and the organisation acme owned
// by alice with acme/site.
func actionsWorld(e *env) {
	e.t.Helper()
	for _, u := range []string{"alice", "bob"} {
		e.createUser(u)
	}
	e.expect(e.do(rootReq("POST", "/admin/users/alice/repos", map[string]any{"name": "proj", "auto_init": true})), 201, "")
	e.expect(e.do(rootReq("POST", "/admin/users/alice/repos", map[string]any{"name": "secret", "private": true})), 201, "")
	e.expect(e.do(rootReq("PUT", "/repos/alice/proj/collaborators/bob", map[string]any{"permission": "admin"})), 204, "")
	e.createOrg("alice", "acme", "public")
	e.expect(e.do(rootReq("POST", "/orgs/acme/repos", map[string]any{"name": "site", "auto_init": true})), 201, "")
	// Hearth creates repositories with the Actions unit off: turn it on.
	for _, r := range []string{"alice/proj", "alice/secret", "acme/site"} {
		e.expect(e.do(rootReq("PATCH", "/repos/"+r, map[string]any{"has_actions": true})), 200, "")
	}
	e.expect(e.do(rootReq("POST", "/admin/users/alice/repos", map[string]any{"name": "noactions"})), 201, "")
}
