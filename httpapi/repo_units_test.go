package httpapi_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestNewRepositoryDefaultUnits: a new repository has Forgejo's default
// units (unit.DefaultRepoUnits: code, issues, pulls, releases, wiki,
// projects, packages and actions, Actions being enabled), so its Actions
// secrets, variables and runner registration token are served at once,
// without a PATCH of has_actions.
func TestNewRepositoryDefaultUnits(t *testing.T) {
	t.Parallel()
	e, _ := newActionsEnv(t)
	e.createUser("carol")
	tok := e.token("carol", "all")
	e.expect(e.do(req{method: "POST", path: "/api/v1/user/repos", token: tok, body: map[string]any{"name": "fresh"}}), http.StatusCreated, "")
	repo := e.do(req{method: "GET", path: "/api/v1/repos/carol/fresh", token: tok}).json(t)
	for _, unit := range []string{"has_issues", "has_wiki", "has_pull_requests", "has_projects", "has_releases", "has_packages", "has_actions"} {
		assert.Equal(t, true, repo[unit], unit)
	}
	api := "/api/v1/repos/carol/fresh/actions"
	e.expect(e.do(req{method: "PUT", path: api + "/secrets/S1", token: tok, body: map[string]any{"data": "x"}}), http.StatusCreated, "")
	e.expect(e.do(req{method: "POST", path: api + "/variables/V1", token: tok, body: map[string]any{"value": "v"}}), http.StatusNoContent, "")
	e.expect(e.do(req{method: "GET", path: api + "/variables/V1", token: tok}), http.StatusOK, "")
	e.expect(e.do(req{method: "GET", path: api + "/runners/registration-token", token: tok}), http.StatusOK, "")
}
