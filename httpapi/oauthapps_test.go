package httpapi_test

import (
	"net/http"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/auth/oauthapps"
	"github.com/hearthforge/hearth/httpapi"
)

// newOAuthEnv serves the OAuth2 application routes on a fresh database
// with the users alice and bob.
func newOAuthEnv(t *testing.T) *env {
	t.Helper()
	b := newBase(t, ":memory:", testSecret)
	svc, err := oauthapps.New(oauthapps.Config{Store: b.db.OAuthApps(), Clock: b.clock})
	require.NoError(t, err)
	e := b.serve(t, httpapi.Config{Auth: b.auth, OAuthApps: svc})
	e.createUser("alice")
	e.createUser("bob")
	return e
}

var (
	clientIDShape = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)
	secretShape   = regexp.MustCompile(`^gto_[a-z2-7]{52}$`)
)

// TestOAuth2Applications follows the Gitea SDK's TestOauth2 flow (create,
// list, get, update, delete) and Forgejo's rules: the secret is shown on
// creation and on each edit (a new one every time), never when read; the
// edit replaces the whole application.
func TestOAuth2Applications(t *testing.T) {
	t.Parallel()
	e := newOAuthEnv(t)
	r := e.do(as("alice", "POST", "/user/applications/oauth2", map[string]any{"name": "app",
		"redirect_uris": []string{"http://www.google.com"}, "confidential_client": true}))
	e.expect(r, http.StatusCreated, "")
	created := r.json(t)
	id := tid(int64(created["id"].(float64)))
	assert.Equal(t, "app", created["name"])
	assert.Regexp(t, clientIDShape, created["client_id"])
	assert.Regexp(t, secretShape, created["client_secret"])
	assert.Equal(t, true, created["confidential_client"])
	assert.Equal(t, []any{"http://www.google.com"}, created["redirect_uris"])

	r = e.do(as("alice", "GET", "/user/applications/oauth2", nil))
	e.expect(r, http.StatusOK, "")
	list := r.list(t)
	require.Len(t, list, 1)
	assert.Equal(t, "1", r.Header.Get("X-Total-Count"))
	assert.Equal(t, created["client_id"], list[0]["client_id"])
	assert.Equal(t, "", list[0]["client_secret"], "the list shows no secret")

	r = e.do(as("alice", "GET", "/user/applications/oauth2/"+id, nil))
	e.expect(r, http.StatusOK, "")
	assert.Equal(t, "", r.json(t)["client_secret"], "a read shows no secret")
	assert.Equal(t, created["client_id"], r.json(t)["client_id"])

	r = e.do(as("alice", "PATCH", "/user/applications/oauth2/"+id, map[string]any{"name": "app2",
		"redirect_uris": []string{"https://a.example/cb", "https://b.example/cb"}}))
	e.expect(r, http.StatusOK, "")
	edited := r.json(t)
	assert.Equal(t, "app2", edited["name"])
	assert.Equal(t, false, edited["confidential_client"], "PATCH replaces the whole application")
	assert.Equal(t, created["client_id"], edited["client_id"], "the client id stays")
	assert.Regexp(t, secretShape, edited["client_secret"])
	assert.NotEqual(t, created["client_secret"], edited["client_secret"], "each edit makes a new secret")

	e.expect(e.do(as("alice", "DELETE", "/user/applications/oauth2/"+id, nil)), http.StatusNoContent, "")
	e.expect(e.do(as("alice", "GET", "/user/applications/oauth2/"+id, nil)), http.StatusNotFound, "The target couldn't be found.")
	e.expect(e.do(as("alice", "DELETE", "/user/applications/oauth2/"+id, nil)), http.StatusNotFound, "The target couldn't be found.")
	r = e.do(as("alice", "GET", "/user/applications/oauth2", nil))
	assert.Empty(t, r.list(t))
}

// TestOAuth2ApplicationsRefusals: another user's application is not found
// (whatever the method), anonymous callers need a token, and a read-only
// token may not write; nothing changes.
func TestOAuth2ApplicationsRefusals(t *testing.T) {
	t.Parallel()
	e := newOAuthEnv(t)
	r := e.do(as("alice", "POST", "/user/applications/oauth2", map[string]any{"name": "mine", "redirect_uris": []string{"https://a/"}}))
	e.expect(r, http.StatusCreated, "")
	id := tid(int64(r.json(t)["id"].(float64)))

	for _, c := range []struct{ method, body string }{{"GET", ""}, {"PATCH", `{"name":"x","redirect_uris":["https://x/"]}`}, {"DELETE", ""}} {
		rq := as("bob", c.method, "/user/applications/oauth2/"+id, nil)
		if c.body != "" {
			rq.body = c.body
		}
		e.expect(e.do(rq), http.StatusNotFound, "The target couldn't be found.")
	}
	r = e.do(as("bob", "GET", "/user/applications/oauth2", nil))
	e.expect(r, http.StatusOK, "")
	assert.Empty(t, r.list(t), "bob lists only his own")

	e.expect(e.do(req{method: "GET", path: "/api/v1/user/applications/oauth2"}), http.StatusUnauthorized, "token is required")
	e.expect(e.do(req{method: "POST", path: "/api/v1/user/applications/oauth2",
		body: map[string]any{"name": "x", "redirect_uris": []string{"https://x/"}}}), http.StatusUnauthorized, "token is required")

	read := e.token("alice", "read:user")
	e.expect(e.do(req{method: "GET", path: "/api/v1/user/applications/oauth2/" + id, token: read}), http.StatusOK, "")
	r = e.do(req{method: "DELETE", path: "/api/v1/user/applications/oauth2/" + id, token: read})
	e.expect(r, http.StatusForbidden, "")
	assert.Contains(t, r.json(t)["message"], "write:user")
	other := e.token("alice", "read:repository")
	e.expect(e.do(req{method: "GET", path: "/api/v1/user/applications/oauth2", token: other}), http.StatusForbidden, "")

	r = e.do(as("alice", "GET", "/user/applications/oauth2/"+id, nil))
	e.expect(r, http.StatusOK, "")
	assert.Equal(t, "mine", r.json(t)["name"], "nothing changed")
}

// TestOAuth2ApplicationsBadInput: Forgejo's binding errors for a missing
// name or redirect URI, and redirect URIs that are none, on creation and
// edit; an id that is no number is not found; nothing is stored.
func TestOAuth2ApplicationsBadInput(t *testing.T) {
	t.Parallel()
	e := newOAuthEnv(t)
	r := e.do(as("alice", "POST", "/user/applications/oauth2", map[string]any{"name": "ok", "redirect_uris": []string{"https://a/"}}))
	e.expect(r, http.StatusCreated, "")
	id := tid(int64(r.json(t)["id"].(float64)))
	for _, c := range []struct {
		body any
		msg  string
	}{
		{map[string]any{"redirect_uris": []string{"https://a/"}}, "[Name]: Required"},
		{map[string]any{"name": "  ", "redirect_uris": []string{"https://a/"}}, "[Name]: Required"},
		{map[string]any{"name": "x"}, "[RedirectURIs]: Required"},
		{map[string]any{"name": "x", "redirect_uris": []string{}}, "[RedirectURIs]: Required"},
		{map[string]any{"name": "x", "redirect_uris": []string{"not a uri"}}, `invalid redirect URI "not a uri"`},
		{map[string]any{"name": "x", "redirect_uris": []string{"https://a/#frag"}}, `invalid redirect URI "https://a/#frag"`},
		{map[string]any{"name": "x", "redirect_uris": []string{""}}, `invalid redirect URI ""`},
	} {
		e.expect(e.do(as("alice", "POST", "/user/applications/oauth2", c.body)), http.StatusUnprocessableEntity, c.msg)
		e.expect(e.do(as("alice", "PATCH", "/user/applications/oauth2/"+id, c.body)), http.StatusUnprocessableEntity, c.msg)
	}
	e.expect(e.do(as("alice", "POST", "/user/applications/oauth2", `{"name":`)), http.StatusUnprocessableEntity, "")
	e.expect(e.do(as("alice", "GET", "/user/applications/oauth2/abc", nil)), http.StatusNotFound, "The target couldn't be found.")
	r = e.do(as("alice", "GET", "/user/applications/oauth2", nil))
	require.Len(t, r.list(t), 1, "nothing more stored")
	assert.Equal(t, "ok", r.list(t)[0]["name"], "nothing changed")
}
