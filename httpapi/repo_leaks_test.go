package httpapi_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// F4 over HTTP: PATCH {"private":false} on a fork of a private repository
// answers 200 with private:true, and anonymous readers still get 404.
func TestForkOfPrivateStaysPrivate(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.createUser("alice")
	e.createUser("bob")
	alice, bob := e.token("alice", "all"), e.token("bob", "all")
	e.expect(e.do(req{method: "POST", path: "/api/v1/user/repos", token: alice,
		body: map[string]any{"name": "priv", "private": true, "auto_init": true}}), http.StatusCreated, "")
	e.expect(e.do(req{method: "PUT", path: "/api/v1/repos/alice/priv/collaborators/bob", token: alice,
		body: map[string]any{"permission": "read"}}), http.StatusNoContent, "")
	e.expect(e.do(req{method: "POST", path: "/api/v1/repos/alice/priv/forks", token: bob,
		body: map[string]any{"name": "privfork"}}), http.StatusAccepted, "")
	r := e.do(req{method: "PATCH", path: "/api/v1/repos/bob/privfork", token: bob, body: map[string]any{"private": false}})
	e.expect(r, http.StatusOK, "")
	assert.Equal(t, true, r.json(t)["private"])
	e.expect(e.do(req{method: "GET", path: "/api/v1/repos/bob/privfork"}), http.StatusNotFound, "")
}

// F9 over HTTP: for an anonymous reader and a signed-in stranger, the
// repositories of a private user answer exactly like missing ones, on
// several routes.
func TestPrivateOwnerRepoNamesDoNotLeak(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.createUser("carol")
	e.createUser("eve")
	carol := e.token("carol", "all")
	for _, n := range []string{"cpub", "cpriv"} {
		e.expect(e.do(req{method: "POST", path: "/api/v1/user/repos", token: carol,
			body: map[string]any{"name": n, "private": n == "cpriv", "auto_init": true}}), http.StatusCreated, "")
	}
	e.expect(e.do(req{method: "PATCH", path: "/api/v1/admin/users/carol", user: "root", pass: "rootpassword",
		body: map[string]any{"visibility": "private"}}), http.StatusOK, "")
	eve := e.token("eve", "all")
	for _, tok := range []string{"", eve} {
		for _, route := range []string{"", "/contents", "/raw/README.md", "/collaborators/carol/permission", "/subscribers", "/tags"} {
			var want resp
			for i, name := range []string{"doesnotexist", "cpub", "cpriv"} {
				r := e.do(req{method: "GET", path: "/api/v1/repos/carol/" + name + route, token: tok})
				if i == 0 {
					want = r
					require.GreaterOrEqual(t, r.StatusCode, 400, "%s%s: %s", name, route, r.body)
					continue
				}
				assert.Equal(t, want.StatusCode, r.StatusCode, "token %q %s%s", tok, name, route)
				assert.JSONEq(t, string(want.body), string(r.body), "token %q %s%s", tok, name, route)
			}
		}
	}
	e.expect(e.do(req{method: "GET", path: "/api/v1/repos/carol/cpub", token: carol}), http.StatusOK, "")
}

// F10 over HTTP: a reader asking for another user's permission is refused
// before the user is looked up: the same 403 for a private user and a
// missing one.
func TestCollaboratorPermissionRefusesBeforeLookup(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.createUser("alice")
	e.createUser("bob")
	e.createUser("carol")
	alice := e.token("alice", "all")
	e.expect(e.do(req{method: "POST", path: "/api/v1/user/repos", token: alice,
		body: map[string]any{"name": "pub", "auto_init": true}}), http.StatusCreated, "")
	e.expect(e.do(req{method: "PATCH", path: "/api/v1/admin/users/carol", user: "root", pass: "rootpassword",
		body: map[string]any{"visibility": "private"}}), http.StatusOK, "")
	bob := e.token("bob", "read:repository")
	const msg = "Only admins can query all permissions, repo admins can query all repo permissions, collaborators can query only their own"
	for _, who := range []string{"carol", "zzz"} {
		e.expect(e.do(req{method: "GET", path: "/api/v1/repos/alice/pub/collaborators/" + who + "/permission", token: bob}),
			http.StatusForbidden, msg)
	}
	e.expect(e.do(req{method: "GET", path: "/api/v1/repos/alice/pub/collaborators/bob/permission", token: bob}), http.StatusOK, "")
	e.expect(e.do(req{method: "GET", path: "/api/v1/repos/alice/pub/collaborators/zzz/permission", token: alice}),
		http.StatusNotFound, "")
}
