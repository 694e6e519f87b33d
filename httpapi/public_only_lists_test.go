package httpapi_test

import (
	"encoding/json"
	"net/http"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPublicOnlyTokenListsNoPrivateRepository is the class of every list
// of repositories: a token restricted to public resources lists (and
// counts in X-Total-Count) no private repository, whatever its user may
// read, on each route that answers a list of repositories. The caller
// owns every repository, stars and watches them, and is in a team that
// has them, so that each list would show them with a full token (checked
// too, so that an empty list cannot pass).
func TestPublicOnlyTokenListsNoPrivateRepository(t *testing.T) {
	t.Parallel()
	e := newMatrixEnv(t)
	e.createUser("alice")
	full := e.token("alice", "all")
	e.createOrg("alice", "acme", "public")
	for _, r := range []struct {
		path, name string
		private    bool
	}{{"/user/repos", "open", false}, {"/user/repos", "secret", true}, {"/orgs/acme/repos", "shown", false}, {"/orgs/acme/repos", "hidden", true}} {
		e.expect(e.do(req{method: "POST", path: "/api/v1" + r.path, token: full, body: map[string]any{"name": r.name, "private": r.private}}), http.StatusCreated, "")
	}
	r := e.do(req{method: "POST", path: "/api/v1/orgs/acme/teams", token: full, body: map[string]any{"name": "crew", "permission": "read",
		"units": []string{"repo.code"}}})
	e.expect(r, http.StatusCreated, "")
	team := strconv.FormatInt(int64(r.json(t)["id"].(float64)), 10)
	e.expect(e.do(req{method: "PUT", path: "/api/v1/teams/" + team + "/members/alice", token: full}), http.StatusNoContent, "")
	for _, repo := range []string{"alice/open", "alice/secret", "acme/shown", "acme/hidden"} {
		if repo[:4] == "acme" {
			e.expect(e.do(req{method: "PUT", path: "/api/v1/teams/" + team + "/repos/" + repo, token: full}), http.StatusNoContent, "")
		}
		e.expect(e.do(req{method: "PUT", path: "/api/v1/user/starred/" + repo, token: full}), http.StatusNoContent, "")
		e.expect(e.do(req{method: "PUT", path: "/api/v1/repos/" + repo + "/subscription", token: full}), http.StatusOK, "")
	}
	publicOnly := e.token("alice", "all", "public-only")
	lists := []string{
		"/user/repos",
		"/users/alice/repos",
		"/orgs/acme/repos",
		"/repos/search?q=",
		"/repos/search?uid=" + strconv.FormatInt(int64(userID(t, e, "alice")), 10),
		"/teams/" + team + "/repos",
		"/user/starred",
		"/users/alice/starred",
		"/user/subscriptions",
		"/users/alice/subscriptions",
	}
	for _, path := range lists {
		names := func(tok string) (map[string]bool, int, string) {
			r := e.do(req{method: "GET", path: "/api/v1" + path, token: tok})
			require.Equal(t, http.StatusOK, r.StatusCode, "%s: %s", path, r.body)
			var list []map[string]any
			if len(r.body) > 0 && r.body[0] == '{' { // /repos/search
				var m struct{ Data []map[string]any }
				require.NoError(t, json.Unmarshal(r.body, &m))
				list = m.Data
			} else {
				list = r.list(t)
			}
			out := map[string]bool{}
			for _, it := range list {
				out[it["full_name"].(string)] = it["private"].(bool)
			}
			return out, len(list), r.Header.Get("X-Total-Count")
		}
		got, _, _ := names(full)
		anyPrivate := false
		for _, private := range got {
			anyPrivate = anyPrivate || private
		}
		assert.True(t, anyPrivate, "%s with a full token lists a private repository: %v", path, got)
		got, n, total := names(publicOnly)
		for name, private := range got {
			assert.False(t, private, "%s lists %s to a public-only token", path, name)
		}
		if total != "" {
			assert.Equal(t, strconv.Itoa(n), total, "%s: X-Total-Count counts what a public-only token may see", path)
		}
	}
}
