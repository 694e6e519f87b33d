package httpapi_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
)

// The creator watches a new repository from the start (Forgejo's
// auto-watch), and a created repository answers with its state after the
// initial commit.
func TestCreatorWatchesNewRepository(t *testing.T) {
	t.Parallel()
	e, tok := repoEnv(t, "")
	r := e.do(req{method: "GET", path: "/api/v1/repos/alice/proj/subscription", token: tok})
	e.expect(r, http.StatusOK, "")
	assert.Equal(t, true, r.json(t)["subscribed"])
	r = e.do(req{method: "POST", path: "/api/v1/user/repos", token: tok, body: map[string]any{"name": "second", "auto_init": true}})
	e.expect(r, http.StatusCreated, "")
	got := r.json(t)
	assert.Equal(t, false, got["empty"])
	assert.Equal(t, "main", got["default_branch"])
	assert.EqualValues(t, 1, got["watchers_count"])
}

// Only repository administrators, site administrators and the user
// themself may ask for a user's permission.
func TestCollaboratorPermissionIsNotForEveryone(t *testing.T) {
	t.Parallel()
	e, tok := repoEnv(t, "")
	e.createUser("bob")
	e.createUser("carl")
	bob := e.token("bob", "all")
	e.expect(e.do(req{method: "GET", path: "/api/v1/repos/alice/proj/collaborators/carl/permission", token: bob}),
		http.StatusForbidden, "Only admins can query all permissions, repo admins can query all repo permissions, collaborators can query only their own")
	e.expect(e.do(req{method: "GET", path: "/api/v1/repos/alice/proj/collaborators/bob/permission", token: bob}), http.StatusOK, "")
	e.expect(e.do(req{method: "GET", path: "/api/v1/repos/alice/proj/collaborators/carl/permission", token: tok}), http.StatusOK, "")
}

// Accepting or rejecting a transfer of a private repository answers an
// outsider exactly like a missing repository.
func TestTransferAnswersDoNotLeakPrivateRepositories(t *testing.T) {
	t.Parallel()
	e, tok := repoEnv(t, "")
	e.createUser("bob")
	e.createUser("carl")
	bob := e.token("bob", "all")
	e.expect(e.do(req{method: "PATCH", path: "/api/v1/repos/alice/proj", token: tok, body: map[string]any{"private": true}}), http.StatusOK, "")
	e.expect(e.do(req{method: "POST", path: "/api/v1/repos/alice/proj/transfer", token: tok, body: map[string]any{"new_owner": "carl"}}),
		http.StatusCreated, "")
	missing := e.do(req{method: "POST", path: "/api/v1/repos/alice/nothing/transfer/accept", token: bob})
	for _, op := range []string{"accept", "reject"} {
		r := e.do(req{method: "POST", path: "/api/v1/repos/alice/proj/transfer/" + op, token: bob})
		assert.Equal(t, missing.StatusCode, r.StatusCode, op)
		assert.Equal(t, missing.json(t)["message"], r.json(t)["message"], op)
	}
}

// A default branch that is not a branch name is refused with 422.
func TestEditRefusesBadDefaultBranch(t *testing.T) {
	t.Parallel()
	e, tok := repoEnv(t, "")
	e.expect(e.do(req{method: "PATCH", path: "/api/v1/repos/alice/proj", token: tok, body: map[string]any{"default_branch": "a\nb"}}),
		http.StatusUnprocessableEntity, "[DefaultBranch]: GitRefName")
}
