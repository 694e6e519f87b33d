package httpapi_test

import (
	"net/http"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/httpapi"
)

// newOrgEnv is newEnv with the organisation service wired in, on the same
// SQLite database, with the repository service answering its repository
// questions. Every response is checked against the OpenAPI document.
func newOrgEnv(t *testing.T, mutate ...func(*httpapi.Config)) *env {
	t.Helper()
	b := newBase(t, ":memory:", testSecret)
	svc, git := b.auth, b.git
	repoSvc, _ := b.repoService(t)
	orgSvc, _ := b.orgService(t, repoSvc)
	cfg := httpapi.Config{Auth: svc, Repos: repoSvc, Git: git, Orgs: orgSvc}
	for _, m := range mutate {
		m(&cfg)
	}
	return b.serve(t, cfg)
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

// createTeam creates a team in org with members (as root) and returns its
// id.
func (e *env) createTeam(org string, body map[string]any, members ...string) int64 {
	e.t.Helper()
	r := e.do(rootReq("POST", "/orgs/"+org+"/teams", body))
	e.expect(r, http.StatusCreated, "")
	id := int64(r.json(e.t)["id"].(float64))
	for _, m := range members {
		e.expect(e.do(rootReq("PUT", "/teams/"+tid(id)+"/members/"+m, nil)), http.StatusNoContent, "")
	}
	return id
}

// newAcmeEnv is newOrgEnv with the users alice, bob and carol, and alice's
// public organisation acme.
func newAcmeEnv(t *testing.T) *env {
	t.Helper()
	e := newOrgEnv(t)
	for _, u := range []string{"alice", "bob", "carol"} {
		e.createUser(u)
	}
	e.createOrg("alice", "acme", "public")
	return e
}

// tid formats a team id for a path.
func tid(id int64) string { return strconv.FormatInt(id, 10) }

// status asserts the status of r, saying why it is expected.
func (e *env) status(r resp, status int, why string) {
	e.t.Helper()
	require.Equal(e.t, status, r.StatusCode, "%s: %s", why, r.body)
}
