package httpapi_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestGetRepoCachedWritesTakeEffectAtOnce: GET /repos/{owner}/{repo} and
// the token lookup are answered from caches (repos.Service.GetRelated,
// the SQLite token cache) on repeated requests; every write that changes
// the answer takes effect on the next request: a repository made private,
// a description changed, a fork's parent made private, a site
// administrator demoted, a user forbidden to sign in.
func TestGetRepoCachedWritesTakeEffectAtOnce(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for _, n := range []string{"lister", "other", "boss"} {
		e.createUser(n)
	}
	r := e.do(req{method: "PATCH", path: "/api/v1/admin/users/boss", user: "root", pass: "rootpassword",
		body: map[string]any{"admin": true}})
	e.expect(r, http.StatusOK, "")
	tok := e.token("lister", "write:repository", "write:user")
	otok := e.token("other", "write:repository", "read:user")
	btok := e.token("boss", "read:repository")
	for _, name := range []string{"pub", "par", "secret"} {
		r := e.do(req{method: "POST", path: "/api/v1/user/repos", token: tok, body: map[string]any{"name": name, "private": name == "secret"}})
		e.expect(r, http.StatusCreated, "")
	}
	r = e.do(req{method: "POST", path: "/api/v1/repos/lister/par/forks", token: otok, body: map[string]any{"name": "par-fork"}})
	e.expect(r, http.StatusAccepted, "")
	get := func(path, token string, status int) map[string]any {
		t.Helper()
		var last map[string]any
		for range 3 { // fill the caches, then hit them
			r := e.do(req{method: "GET", path: "/api/v1/repos/" + path, token: token})
			require.Equal(t, status, r.StatusCode, "GET %s: %s", path, r.body)
			last = r.json(t)
		}
		return last
	}
	patch := func(path string, body map[string]any) {
		t.Helper()
		r := e.do(req{method: "PATCH", path: "/api/v1/repos/" + path, token: tok, body: body})
		e.expect(r, http.StatusOK, "")
	}

	// A repository made private.
	get("lister/pub", otok, http.StatusOK)
	patch("lister/pub", map[string]any{"private": true})
	get("lister/pub", otok, http.StatusNotFound)

	// A description changed.
	require.Equal(t, "", get("lister/par", otok, http.StatusOK)["description"])
	patch("lister/par", map[string]any{"description": "changed"})
	require.Equal(t, "changed", get("lister/par", otok, http.StatusOK)["description"])

	// A fork's parent made private: the fork's owner no longer sees it.
	require.NotNil(t, get("other/par-fork", otok, http.StatusOK)["parent"])
	patch("lister/par", map[string]any{"private": true})
	require.Nil(t, get("other/par-fork", otok, http.StatusOK)["parent"])

	// A site administrator demoted.
	get("lister/secret", btok, http.StatusOK)
	r = e.do(req{method: "PATCH", path: "/api/v1/admin/users/boss", user: "root", pass: "rootpassword",
		body: map[string]any{"admin": false}})
	e.expect(r, http.StatusOK, "")
	get("lister/secret", btok, http.StatusNotFound)

	// A user forbidden to sign in.
	get("other/par-fork", otok, http.StatusOK)
	r = e.do(req{method: "PATCH", path: "/api/v1/admin/users/other", user: "root", pass: "rootpassword",
		body: map[string]any{"prohibit_login": true}})
	e.expect(r, http.StatusOK, "")
	r = e.do(req{method: "GET", path: "/api/v1/repos/other/par-fork", token: otok})
	require.GreaterOrEqual(t, r.StatusCode, 400, "body: %s", r.body)
	require.Less(t, r.StatusCode, 500, "body: %s", r.body)
}
