package httpapi_test

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/httpapi"
)

const warning = "token and access_token API authentication is deprecated and will be removed in Forgejo v13.0.0. Please use AuthorizationHeaderToken instead. Existing queries will continue to work but without authorization."

func TestVersionAndSettings(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	r := e.do(req{method: "GET", path: "/api/v1/version"})
	e.expect(r, http.StatusOK, "")
	assert.Equal(t, map[string]any{"version": "15.0.3+hearth-" + httpapi.Version}, r.json(t))
	assert.Equal(t, "nosniff", r.Header.Get("X-Content-Type-Options"))
	assert.Equal(t, "application/json;charset=utf-8", r.Header.Get("Content-Type"))

	r = e.do(req{method: "GET", path: "/api/v1/settings/api"})
	e.expect(r, http.StatusOK, "")
	assert.Equal(t, map[string]any{"default_paging_num": 30.0, "max_response_items": 50.0,
		"default_git_trees_per_page": 1000.0, "default_max_blob_size": 10485760.0}, r.json(t))
}

func TestTokenAuthentication(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.createUser("alice")
	tok := e.token("alice", "read:user")

	r := e.do(req{method: "GET", path: "/api/v1/user", token: tok})
	e.expect(r, http.StatusOK, "")
	assert.Equal(t, "alice", r.json(t)["login"])
	assert.Empty(t, r.Header.Get("Warning"))

	for _, h := range []string{"token ", "Bearer ", "BEARER ", "TOKEN "} {
		r = e.do(req{method: "GET", path: "/api/v1/user", header: map[string]string{"Authorization": h + tok}})
		e.expect(r, http.StatusOK, "")
	}
	for _, q := range []string{"token", "access_token"} {
		r = e.do(req{method: "GET", path: "/api/v1/user?" + q + "=" + tok})
		e.expect(r, http.StatusOK, "")
		assert.Equal(t, "alice", r.json(t)["login"])
		assert.Equal(t, warning, r.Header.Get("Warning"))
	}
	r = e.do(req{method: "GET", path: "/api/v1/user", user: "anything", pass: tok})
	e.expect(r, http.StatusOK, "")
	r = e.do(req{method: "GET", path: "/api/v1/user", user: tok, pass: "x-oauth-basic"})
	e.expect(r, http.StatusOK, "")

	r = e.do(req{method: "GET", path: "/api/v1/user"})
	e.expect(r, http.StatusUnauthorized, "token is required")
	assert.Equal(t, e.srv.URL+"/api/swagger", r.json(t)["url"])

	bogus := strings.Repeat("ab", 20)
	r = e.do(req{method: "GET", path: "/api/v1/user", token: bogus})
	e.expect(r, http.StatusUnauthorized, "access token does not exist [sha: "+bogus+"]")
	// An invalid token never degrades to anonymous, even where anonymous is allowed.
	r = e.do(req{method: "GET", path: "/api/v1/users/alice", token: "nope"})
	e.expect(r, http.StatusUnauthorized, "access token does not exist [sha: nope]")
	r = e.do(req{method: "GET", path: "/api/v1/user", user: "alice", pass: "wrong"})
	e.expect(r, http.StatusUnauthorized, "user's password is invalid [uid: 2, name: alice]")
	// Malformed Authorization headers are ignored, as Forgejo.
	r = e.do(req{method: "GET", path: "/api/v1/user", header: map[string]string{"Authorization": "token a b"}})
	e.expect(r, http.StatusUnauthorized, "token is required")

	// A token without the category is refused with Forgejo's message.
	issueTok := e.token("alice", "read:issue")
	r = e.do(req{method: "GET", path: "/api/v1/user", token: issueTok})
	e.expect(r, http.StatusForbidden, "token does not have at least one of required scope(s): [read:user]")
}

func TestDisableQueryAuthToken(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(c *httpapi.Config) { c.DisableQueryAuthToken = true })
	tok := e.token("root", "all")
	r := e.do(req{method: "GET", path: "/api/v1/user?token=" + tok})
	e.expect(r, http.StatusUnauthorized, "token is required")
	assert.Equal(t, warning, r.Header.Get("Warning"), "the warning is sent either way, as Forgejo")
	r = e.do(req{method: "GET", path: "/api/v1/user", token: tok})
	e.expect(r, http.StatusOK, "")
}

func TestGetUser(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.createUser("bob")
	tok := e.token("bob", "read:user")

	anon := e.do(req{method: "GET", path: "/api/v1/users/BOB"}).json(t)
	assert.Equal(t, "bob", anon["login"])
	assert.Equal(t, "bob@noreply.127.0.0.1", anon["email"], "anonymous callers see a placeholder")
	assert.Equal(t, false, anon["is_admin"])
	assert.Equal(t, "1970-01-01T00:00:00Z", anon["last_login"])
	assert.Equal(t, "2024-01-02T03:04:05Z", anon["created"])
	assert.Equal(t, "public", anon["visibility"])
	assert.Equal(t, e.srv.URL+"/bob", anon["html_url"])

	self := e.do(req{method: "GET", path: "/api/v1/users/bob", token: tok}).json(t)
	assert.Equal(t, "bob@example.com", self["email"])
	assert.Equal(t, true, self["active"])

	r := e.do(req{method: "GET", path: "/api/v1/users/Nobody"})
	e.expect(r, http.StatusNotFound, "user redirect does not exist [name: nobody]")
}

func TestRoutingErrors(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	r := e.do(req{method: "GET", path: "/api/v1/no/such/path"})
	e.expect(r, http.StatusNotFound, "The target couldn't be found.")
	assert.Equal(t, []any{}, r.json(t)["errors"])
	r = e.do(req{method: "PUT", path: "/api/v1/version"})
	e.expect(r, http.StatusMethodNotAllowed, "method not allowed")
	assert.Equal(t, "GET", r.Header.Get("Allow"))
	r = e.do(req{method: "PUT", path: "/api/v1/users/x/tokens"})
	e.expect(r, http.StatusMethodNotAllowed, "method not allowed")
	assert.Equal(t, "GET, POST", r.Header.Get("Allow"))
}

func TestAccountStates(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	r := e.do(req{method: "POST", path: "/api/v1/admin/users", user: "root", pass: "rootpassword",
		body: map[string]any{"username": "carol", "email": "carol@example.com", "password": "carol-password"}})
	e.expect(r, http.StatusCreated, "")
	r = e.do(req{method: "GET", path: "/api/v1/user", user: "carol", pass: "carol-password"})
	e.expect(r, http.StatusForbidden, "You must change your password. Change it at: "+e.srv.URL+"/user/change_password")
	_, hasURL := r.json(t)["url"]
	assert.False(t, hasURL, "account-state refusals carry no url, as Forgejo")

	r = e.do(req{method: "PATCH", path: "/api/v1/admin/users/carol", user: "root", pass: "rootpassword",
		body: map[string]any{"must_change_password": false, "prohibit_login": true}})
	e.expect(r, http.StatusOK, "")
	tok := e.token("root", "all")
	// A token of a prohibited user (made by an admin) is refused too.
	r = e.do(req{method: "POST", path: "/api/v1/users/carol/tokens", user: "root", pass: "rootpassword",
		body: map[string]any{"name": "c", "scopes": []string{"all"}}})
	e.expect(r, http.StatusCreated, "")
	carolTok := r.json(t)["sha1"].(string)
	r = e.do(req{method: "GET", path: "/api/v1/user", token: carolTok})
	e.expect(r, http.StatusForbidden, "This account is prohibited from signing in, please contact your site administrator.")
	r = e.do(req{method: "GET", path: "/api/v1/user", token: tok})
	e.expect(r, http.StatusOK, "")
}

func TestTokensAPI(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.createUser("dave")
	e.createUser("erin")
	basic := req{user: "dave", pass: "dave-password"}
	with := func(r req, method, path string, body any) req {
		r.method, r.path, r.body = method, path, body
		return r
	}

	r := e.do(with(basic, "POST", "/api/v1/users/dave/tokens", map[string]any{"name": "ci", "scopes": []string{"write:repository", "read:user", "read:repository"}}))
	e.expect(r, http.StatusCreated, "")
	created := r.json(t)
	sha := created["sha1"].(string)
	assert.Len(t, sha, 40)
	assert.Equal(t, sha[32:], created["token_last_eight"])
	assert.Equal(t, []any{"write:repository", "read:user"}, created["scopes"])
	assert.Nil(t, created["repositories"])
	assert.Contains(t, string(r.body), `"repositories":null`)

	allTok := e.token("dave", "all")
	for _, tt := range []struct {
		r      req
		status int
		msg    string
	}{
		{with(req{token: sha}, "POST", "/api/v1/users/dave/tokens", map[string]any{"name": "x", "scopes": []string{"all"}}), 403, "token does not have at least one of required scope(s): [write:user]"},
		{with(req{token: allTok}, "POST", "/api/v1/users/dave/tokens", map[string]any{"name": "x", "scopes": []string{"all"}}), 401, "auth method not allowed"},
		{with(basic, "POST", "/api/v1/users/dave/tokens", map[string]any{"scopes": []string{"all"}}), 422, "[Name]: Required"},
		{with(basic, "POST", "/api/v1/users/dave/tokens", map[string]any{"name": "ci", "scopes": []string{"all"}}), 400, "access token name has been used already"},
		{with(basic, "POST", "/api/v1/users/dave/tokens", map[string]any{"name": "y", "scopes": []string{"write:everything"}}), 400, "invalid access token scope provided: invalid access token scope: write:everything"},
		{with(basic, "POST", "/api/v1/users/dave/tokens", map[string]any{"name": "y", "scopes": []string{}}), 400, "access token must have a scope"},
		{with(basic, "POST", "/api/v1/users/erin/tokens", map[string]any{"name": "y", "scopes": []string{"all"}}), 403, "doer should be the site admin or be same as the contextUser"},
		{with(basic, "POST", "/api/v1/users/ghost1/tokens", map[string]any{"name": "y", "scopes": []string{"all"}}), 404, "user redirect does not exist [name: ghost1]"},
		{with(req{}, "GET", "/api/v1/users/dave/tokens", nil), 403, "doer should be the site admin or be same as the contextUser"},
		{with(basic, "DELETE", "/api/v1/users/dave/tokens/nope", nil), 404, ""},
		{with(req{token: allTok}, "DELETE", "/api/v1/users/dave/tokens/ci", nil), 401, "auth method not allowed"},
	} {
		e.expect(e.do(tt.r), tt.status, tt.msg)
	}

	// An administrator manages other users' tokens with its password.
	r = e.do(req{method: "POST", path: "/api/v1/users/dave/tokens", user: "root", pass: "rootpassword",
		body: map[string]any{"name": "by-admin", "scopes": []string{"read:user"}}})
	e.expect(r, http.StatusCreated, "")
	adminMade := r.json(t)

	r = e.do(req{method: "GET", path: "/api/v1/users/dave/tokens", token: sha})
	e.expect(r, http.StatusOK, "")
	assert.Equal(t, "3", r.Header.Get("X-Total-Count"))
	assert.Empty(t, r.Header.Get("Link"))
	list := r.list(t)
	require.Len(t, list, 3)
	assert.Equal(t, "by-admin", list[0]["name"], "newest first")
	assert.Equal(t, "", list[2]["sha1"], "never shown again")
	assert.Equal(t, "ci", list[2]["name"])

	r = e.do(with(basic, "DELETE", "/api/v1/users/dave/tokens/ci", nil))
	e.expect(r, http.StatusNoContent, "")
	assert.Empty(t, r.body)
	r = e.do(req{method: "GET", path: "/api/v1/user", token: sha})
	e.expect(r, http.StatusUnauthorized, "access token does not exist [sha: "+sha+"]")
	r = e.do(req{method: "DELETE", path: "/api/v1/users/dave/tokens/" + itoa(adminMade["id"]), user: "root", pass: "rootpassword"})
	e.expect(r, http.StatusNoContent, "")
}

func itoa(v any) string { return strconv.FormatFloat(v.(float64), 'f', -1, 64) }

func TestSwaggerDocument(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	r := e.do(req{method: "GET", path: "/swagger.v1.json"})
	e.expect(r, http.StatusOK, "")
	var doc struct {
		Swagger  string                            `json:"swagger"`
		BasePath string                            `json:"basePath"`
		Info     map[string]any                    `json:"info"`
		Paths    map[string]map[string]interface{} `json:"paths"`
		Defs     map[string]any                    `json:"definitions"`
	}
	require.NoError(t, json.Unmarshal(r.body, &doc))
	assert.Equal(t, "2.0", doc.Swagger)
	assert.Equal(t, "/api/v1", doc.BasePath)
	assert.Equal(t, httpapi.Version, doc.Info["x-hearth-version"])
	assert.Contains(t, doc.Paths, "/users/{username}/tokens")
	assert.Contains(t, doc.Paths["/users/{username}/tokens"], "post")
	assert.NotContains(t, doc.Paths, "/repos/{owner}/{repo}/pulls", "only served operations")
	assert.NotContains(t, doc.Paths["/admin/users/{username}"], "get", "GET is not an operation there")
	assert.Contains(t, doc.Defs, "User")
}
