package httpapi_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestSudoActsOnlyAsAnAccountThatMayAct walks routes of several kinds with
// sudo to an inactive, a login-prohibited and a must-change-password user:
// each is refused with the account's state (403), whatever the route
// checks itself (GET /user checks nothing and answered 200), while sudo to
// an account that may act answers.
func TestSudoActsOnlyAsAnAccountThatMayAct(t *testing.T) {
	t.Parallel()
	e := newMatrixEnv(t)
	rootTok := e.token("root", "all")
	states := map[string]map[string]any{
		"ina": {"active": false},
		"pro": {"prohibit_login": true},
		"mcp": {"must_change_password": true},
	}
	for name, edit := range states {
		e.createUser(name)
		edit["login_name"], edit["source_id"] = name, 0
		e.expect(e.do(rootReq("PATCH", "/admin/users/"+name, edit)), http.StatusOK, "")
	}
	e.createUser("okay")
	routes := []struct{ method, path string }{
		{"GET", "/user"},
		{"GET", "/user/repos"},
		{"GET", "/user/orgs"},
		{"GET", "/user/starred"},
		{"GET", "/user/subscriptions"},
		{"GET", "/user/teams"},
		{"GET", "/notifications"},
		{"GET", "/users/okay"},
		{"GET", "/repos/search"},
		{"GET", "/orgs"},
		{"POST", "/user/repos"},
	}
	for _, rt := range routes {
		for name := range states {
			want := "This account is prohibited from signing in, please contact your site administrator."
			if name == "mcp" {
				want = "You must change your password."
			}
			sep := "?"
			if strings.Contains(rt.path, "?") {
				sep = "&"
			}
			r := e.do(req{method: rt.method, path: "/api/v1" + rt.path + sep + "sudo=" + name, token: rootTok,
				body: map[string]any{"name": "made-by-sudo"}})
			if assert.Equal(t, http.StatusForbidden, r.StatusCode, "%s %s as %s: %s", rt.method, rt.path, name, r.body) {
				assert.True(t, strings.HasPrefix(r.json(t)["message"].(string), want), "%s %s as %s: %s", rt.method, rt.path, name, r.body)
			}
		}
		r := e.do(req{method: rt.method, path: "/api/v1" + rt.path + "?sudo=okay", token: rootTok, body: map[string]any{"name": "made-by-sudo"}})
		assert.Less(t, r.StatusCode, 300, "%s %s as okay: %s", rt.method, rt.path, r.body)
	}
	// Nothing was made for the refused accounts.
	for name := range states {
		e.expect(e.do(req{method: "GET", path: "/api/v1/repos/" + name + "/made-by-sudo", token: rootTok}), http.StatusNotFound, "")
	}
}
