package httpapi_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestOrganisationEmailOnlyToSignedIn is the class of every answer that
// shows an organisation: its e-mail goes to signed-in users only (the rule
// of Forgejo's GET /orgs/{org}), on single views, lists and the owner
// object of its repositories alike. Each route is asked anonymously (no
// e-mail anywhere in the answer) and signed in (the e-mail is there, so
// that an answer without organisations cannot pass).
func TestOrganisationEmailOnlyToSignedIn(t *testing.T) {
	t.Parallel()
	e := newMatrixEnv(t)
	e.createUser("alice")
	tok := e.token("alice", "all")
	e.createOrg("alice", "acme", "public")
	const mail = "board@acme.example"
	e.expect(e.do(req{method: "PATCH", path: "/api/v1/orgs/acme", token: tok, body: map[string]any{"email": mail}}), http.StatusOK, "")
	e.expect(e.do(req{method: "POST", path: "/api/v1/orgs/acme/repos", token: tok, body: map[string]any{"name": "pub"}}), http.StatusCreated, "")
	e.expect(e.do(req{method: "PUT", path: "/api/v1/orgs/acme/public_members/alice", token: tok}), http.StatusNoContent, "")

	routes := []string{
		"/orgs",
		"/orgs/acme",
		"/users/acme",
		"/repos/acme/pub",
		"/orgs/acme/repos",
		"/repos/search?q=pub",
		"/users/acme/repos",
	}
	for _, path := range routes {
		anon := e.do(req{method: "GET", path: "/api/v1" + path})
		require.Equal(t, http.StatusOK, anon.StatusCode, "%s: %s", path, anon.body)
		assert.NotContains(t, string(anon.body), mail, "%s shows the organisation's e-mail to an anonymous client", path)
		signed := e.do(req{method: "GET", path: "/api/v1" + path, token: tok})
		require.Equal(t, http.StatusOK, signed.StatusCode, "%s: %s", path, signed.body)
		assert.Contains(t, string(signed.body), mail, "%s shows the organisation's e-mail to a signed-in user", path)
		assert.True(t, json.Valid(anon.body))
	}
}
