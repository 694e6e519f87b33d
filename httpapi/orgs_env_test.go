package httpapi_test

import (
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge/orgs"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/httpapi"
)

// newOrgEnv is newEnv with the organisation service wired in, on the same
// SQLite database, with the repository service answering its repository
// questions. Every response is checked against the OpenAPI document.
func newOrgEnv(t *testing.T, mutate ...func(*httpapi.Config)) *env {
	t.Helper()
	b := newBase(t, ":memory:", testSecret)
	db, clock, svc, git, blobs := b.db, b.clock, b.auth, b.git, b.blobs
	repoSvc, err := repos.New(repos.Config{Store: db.Repos(), Git: git, Blobs: blobs, Clock: clock})
	require.NoError(t, err)
	orgSvc, err := orgs.New(orgs.Config{Store: db.Orgs(), Clock: clock, Repos: repoSvc, Blobs: blobs})
	require.NoError(t, err)
	cfg := httpapi.Config{Auth: svc, Repos: repoSvc, Git: git, Orgs: orgSvc}
	for _, m := range mutate {
		m(&cfg)
	}
	api, err := httpapi.New(cfg)
	require.NoError(t, err)
	mux := http.NewServeMux()
	mux.Handle("/", api)
	srv := httptest.NewServer(checked(t, mux))
	t.Cleanup(srv.Close)
	return &env{t: t, srv: srv, auth: svc, clock: clock, repos: repoSvc, api: api}
}

// rootReq is a request as the administrator, by password.
func rootReq(method, path string, body any) req {
	return req{method: method, path: "/api/v1" + path, body: body, user: "root", pass: "rootpassword"}
}

// as is a request by name (password name+"-password").
func as(name, method, path string, body any) req {
	return req{method: method, path: "/api/v1" + path, body: body, user: name, pass: name + "-password"}
}

// createOrg creates an organisation owned by owner (by password).
func (e *env) createOrg(owner, name, visibility string) {
	e.t.Helper()
	r := rootReq("POST", "/admin/users/"+owner+"/orgs", map[string]any{"username": name, "visibility": visibility})
	e.expect(e.do(r), http.StatusCreated, "")
}

// createTeam creates a team in org (as root) and returns its id.
func (e *env) createTeam(org string, body map[string]any) int64 {
	e.t.Helper()
	r := e.do(rootReq("POST", "/orgs/"+org+"/teams", body))
	e.expect(r, http.StatusCreated, "")
	return int64(r.json(e.t)["id"].(float64))
}

// tid formats a team id for a path.
func tid(id int64) string { return strconv.FormatInt(id, 10) }

// status asserts the status of r, saying why it is expected.
func (e *env) status(r resp, status int, why string) {
	e.t.Helper()
	require.Equal(e.t, status, r.StatusCode, "%s: %s", why, r.body)
}
