package httpapi_test

import (
	"net/http"
	"testing"
)

// DELETE /repos/{owner}/{repo} needs the scope of the owner's kind, not
// repository (Forgejo's tokenRequiresRepoOwnerScope, routers/api/v1/api.go:
// "deleting a repo isn't protected by AccessTokenScopeCategoryRepository;
// it's protected by either the User or Organization scope"):
// write:organization for an organisation's repository, write:user for a
// user's.
func TestDeleteRepoOwnerScope(t *testing.T) {
	t.Parallel()
	e := newOrgEnv(t)
	for _, rt := range e.api.Routes() {
		if rt.Op == "repoDelete" && (len(rt.Scopes) > 0 || !rt.OwnerScope) {
			t.Fatal("repoDelete must leave its scope to the service (OwnerScope)")
		}
	}
	e.createUser("alice")
	e.createOrg("alice", "acme", "public")
	for _, name := range []string{"a", "b"} {
		e.expect(e.do(as("alice", "POST", "/orgs/acme/repos", map[string]any{"name": name})), http.StatusCreated, "")
		e.expect(e.do(as("alice", "POST", "/user/repos", map[string]any{"name": name})), http.StatusCreated, "")
	}
	orgTok, userTok := e.token("alice", "write:organization"), e.token("alice", "write:user")
	del := func(tok, path string) resp {
		return e.do(req{method: "DELETE", path: "/api/v1/repos/" + path, token: tok})
	}

	e.expect(del(userTok, "acme/a"), http.StatusForbidden, "token does not have at least one of required scope(s): [write:organization]")
	e.expect(del(orgTok, "alice/a"), http.StatusForbidden, "token does not have at least one of required scope(s): [write:user]")
	e.expect(del(e.token("alice", "write:repository"), "acme/a"), http.StatusForbidden, "token does not have at least one of required scope(s): [write:organization]")
	e.expect(e.do(as("alice", "GET", "/repos/acme/a", nil)), http.StatusOK, "")
	e.expect(del(orgTok, "acme/a"), http.StatusNoContent, "")
	e.expect(del(userTok, "alice/a"), http.StatusNoContent, "")
	e.expect(e.do(as("alice", "GET", "/repos/acme/a", nil)), http.StatusNotFound, "")
	e.expect(e.do(as("alice", "GET", "/repos/alice/b", nil)), http.StatusOK, "")
}
