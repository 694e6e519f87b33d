package httpapi_test

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge/actions"
	"github.com/hearthforge/hearth/httpapi"
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
	b := newBase(t, path, actionsKey)
	db, clock, svc, git := b.db, b.clock, b.auth, b.git
	repoSvc, _ := b.repoService(t)
	orgSvc, _ := b.orgService(t, repoSvc)
	actSvc, err := actions.New(actions.Config{Store: db.Actions(), Key: actionsKey, Repos: repoSvc, Orgs: orgSvc, Clock: clock})
	require.NoError(t, err)
	return b.serve(t, httpapi.Config{Auth: svc, Repos: repoSvc, Git: git, Orgs: orgSvc, Actions: actSvc}), path
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
	// New repositories have the Actions unit (Forgejo's default units):
	// noactions turns it off.
	e.expect(e.do(rootReq("POST", "/admin/users/alice/repos", map[string]any{"name": "noactions"})), 201, "")
	e.expect(e.do(rootReq("PATCH", "/repos/alice/noactions", map[string]any{"has_actions": false})), 200, "")
}
