package httpapi_test

import (
	"context"
	"database/sql"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	_ "modernc.org/sqlite"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/storage/dbtest"
)

// TestActionsSecretsAPI: PUT answers 201 then 204 at every level, the list
// shows names and times only, bad names are Forgejo's 400, and the value
// is sealed in the database row.
func TestActionsSecretsAPI(t *testing.T) {
	t.Parallel()
	e, dbPath := newActionsEnv(t)
	actionsWorld(e)
	const value = "hunter2-very-secret-value"
	for _, base := range []string{"/repos/alice/proj/actions/secrets", "/orgs/acme/actions/secrets", "/user/actions/secrets"} {
		e.expect(e.do(as("alice", "PUT", base+"/deploy_key", map[string]any{"data": value})), http.StatusCreated, "")
		e.expect(e.do(as("alice", "PUT", base+"/DEPLOY_KEY", map[string]any{"data": value + "-2"})), http.StatusNoContent, "")
		e.expect(e.do(as("alice", "PUT", base+"/A-B", map[string]any{"data": "x"})), http.StatusBadRequest, "invalid secret name")
		e.expect(e.do(as("alice", "PUT", base+"/1ABC", map[string]any{"data": "x"})), http.StatusBadRequest, "invalid secret name")
		e.expect(e.do(as("alice", "PUT", base+"/GITHUB_TOKEN", map[string]any{"data": "x"})), http.StatusBadRequest, "invalid secret name")
		e.expect(e.do(as("alice", "PUT", base+"/forgejo_x", map[string]any{"data": "x"})), http.StatusBadRequest, "invalid secret name")
		e.expect(e.do(as("alice", "PUT", base+"/EMPTY", map[string]any{"data": ""})), http.StatusUnprocessableEntity, "[Data]: Required")
		e.expect(e.do(as("alice", "PUT", base+"/EMPTY", map[string]any{})), http.StatusUnprocessableEntity, "[Data]: Required")
		e.expect(e.do(as("alice", "PUT", base+"/BIG", map[string]any{"data": strings.Repeat("x", 65537)})), http.StatusBadRequest, "data too long")
	}
	for _, base := range []string{"/repos/alice/proj/actions/secrets", "/orgs/acme/actions/secrets"} {
		r := e.do(as("alice", "GET", base, nil))
		e.expect(r, http.StatusOK, "")
		assert.Equal(t, "1", r.Header.Get("X-Total-Count"))
		list := r.list(t)
		require.Len(t, list, 1)
		assert.Equal(t, "DEPLOY_KEY", list[0]["name"])
		assert.NotEmpty(t, list[0]["created_at"])
		assert.NotContains(t, string(r.body), value, "no route returns a value")
	}

	t.Run("sealed at rest", func(t *testing.T) {
		dbtest.SkipOnPostgres(t, "reads the secret rows from the SQLite file")
		raw, err := sql.Open("sqlite", "file:"+dbPath+"?mode=ro")
		require.NoError(t, err)
		defer raw.Close()
		rows, err := raw.QueryContext(context.Background(), "SELECT name, data FROM secret")
		require.NoError(t, err)
		defer rows.Close()
		n := 0
		for rows.Next() {
			var name, data string
			require.NoError(t, rows.Scan(&name, &data))
			assert.Equal(t, "DEPLOY_KEY", name)
			assert.NotContains(t, data, "hunter2")
			plain, err := forge.Unseal(actionsKey, data)
			require.NoError(t, err, "the row opens with the server key")
			assert.Equal(t, value+"-2", string(plain))
			n++
		}
		require.NoError(t, rows.Err())
		assert.Equal(t, 3, n, "one row per level")
	})

	t.Run("refusals", func(t *testing.T) {
		body := map[string]any{"data": "x"}
		// A collaborator with admin access is not the owner.
		e.expect(e.do(as("bob", "PUT", "/repos/alice/proj/actions/secrets/X", body)), http.StatusForbidden, "user should be the owner of the repo")
		e.expect(e.do(as("bob", "GET", "/repos/alice/proj/actions/secrets", nil)), http.StatusForbidden, "user should be the owner of the repo")
		// Strangers do not learn that a private repository exists.
		e.expect(e.do(as("bob", "PUT", "/repos/alice/secret/actions/secrets/X", body)), http.StatusNotFound, "")
		e.expect(e.do(as("bob", "DELETE", "/repos/alice/secret/actions/secrets/DEPLOY_KEY", nil)), http.StatusNotFound, "")
		e.expect(e.do(as("bob", "PUT", "/orgs/acme/actions/secrets/X", body)), http.StatusForbidden, "Must be an organization owner")
		e.expect(e.do(as("bob", "PUT", "/orgs/nope/actions/secrets/X", body)), http.StatusNotFound, "GetOrgByName")
		e.createOrg("alice", "hidden", "private")
		e.expect(e.do(as("bob", "GET", "/orgs/hidden/actions/secrets", nil)), http.StatusNotFound, "GetOrgByName")
		e.expect(e.do(as("bob", "GET", "/orgs/hidden/actions/runners/registration-token", nil)), http.StatusNotFound, "GetOrgByName")
		e.expect(e.do(req{method: "PUT", path: "/api/v1/user/actions/secrets/X", body: body}), http.StatusUnauthorized, "token is required")
		tok := e.token("alice", "read:repository")
		e.expect(e.do(req{method: "PUT", path: "/api/v1/repos/alice/proj/actions/secrets/X", token: tok, body: body}), http.StatusForbidden,
			"token does not have at least one of required scope(s): [write:repository]")
		// bob's user secrets are not alice's.
		e.expect(e.do(as("bob", "DELETE", "/user/actions/secrets/DEPLOY_KEY", nil)), http.StatusNotFound, "secret was not found [name: ]")
		// A repository with the Actions unit off has no Actions routes.
		e.expect(e.do(as("alice", "PUT", "/repos/alice/noactions/actions/secrets/X", body)), http.StatusNotFound, "The target couldn't be found.")
		// Site administrators may.
		e.expect(e.do(rootReq("PUT", "/repos/alice/secret/actions/secrets/ROOT", body)), http.StatusCreated, "")
	})

	t.Run("delete", func(t *testing.T) {
		for _, base := range []string{"/repos/alice/proj/actions/secrets", "/orgs/acme/actions/secrets", "/user/actions/secrets"} {
			e.expect(e.do(as("alice", "DELETE", base+"/deploy_key", nil)), http.StatusNoContent, "")
			e.expect(e.do(as("alice", "DELETE", base+"/deploy_key", nil)), http.StatusNotFound, "secret was not found [name: ]")
		}
	})
}

// TestActionsVariablesAPI: create answers 204 and 409 when taken, values
// are readable, names follow the secret rules plus the CI prefix.
func TestActionsVariablesAPI(t *testing.T) {
	t.Parallel()
	e, _ := newActionsEnv(t)
	actionsWorld(e)
	for _, tc := range []struct{ base, ownerKey string }{
		{"/repos/alice/proj/actions/variables", "repo_id"},
		{"/orgs/acme/actions/variables", "owner_id"},
		{"/user/actions/variables", "owner_id"},
	} {
		base := tc.base
		e.expect(e.do(as("alice", "POST", base+"/my_var", map[string]any{"value": "one\r\ntwo"})), http.StatusNoContent, "")
		e.expect(e.do(as("alice", "POST", base+"/MY_VAR", map[string]any{"value": "x"})), http.StatusConflict, "variable name MY_VAR already exists")
		e.expect(e.do(as("alice", "POST", base+"/CI_VAR", map[string]any{"value": "x"})), http.StatusBadRequest, "env name cannot be ci")
		e.expect(e.do(as("alice", "POST", base+"/GITEA_VAR", map[string]any{"value": "x"})), http.StatusBadRequest, "invalid secret name")
		e.expect(e.do(as("alice", "POST", base+"/NOVALUE", map[string]any{})), http.StatusUnprocessableEntity, "[Value]: Required")
		r := e.do(as("alice", "GET", base+"/my_var", nil))
		e.expect(r, http.StatusOK, "")
		v := r.json(t)
		assert.Equal(t, "MY_VAR", v["name"])
		assert.Equal(t, "one\ntwo", v["data"])
		assert.NotZero(t, v[tc.ownerKey])
		e.expect(e.do(as("alice", "PUT", base+"/my_var", map[string]any{"name": "renamed", "value": "three"})), http.StatusNoContent, "")
		e.expect(e.do(as("alice", "PUT", base+"/my_var", map[string]any{"value": "x"})), http.StatusNotFound, "variable not found")
		e.expect(e.do(as("alice", "POST", base+"/OTHER", map[string]any{"value": "o"})), http.StatusNoContent, "")
		r = e.do(as("alice", "GET", base+"?limit=1", nil))
		e.expect(r, http.StatusOK, "")
		assert.Equal(t, "2", r.Header.Get("X-Total-Count"))
		assert.Equal(t, []string{"OTHER"}, names(t, r, "name"))
		assert.Equal(t, []string{"OTHER", "RENAMED"}, names(t, e.do(as("alice", "GET", base, nil)), "name"))
		e.expect(e.do(as("alice", "DELETE", base+"/a-b", nil)), http.StatusBadRequest, "invalid secret name")
		e.expect(e.do(as("alice", "DELETE", base+"/renamed", nil)), http.StatusNoContent, "")
		e.expect(e.do(as("alice", "DELETE", base+"/renamed", nil)), http.StatusNotFound, "variable not found")
		e.expect(e.do(as("alice", "GET", base+"/renamed", nil)), http.StatusNotFound, "variable not found")
	}
	e.expect(e.do(as("bob", "GET", "/repos/alice/proj/actions/variables", nil)), http.StatusForbidden, "user should be the owner of the repo")
	e.expect(e.do(as("bob", "GET", "/orgs/acme/actions/variables/OTHER", nil)), http.StatusForbidden, "Must be an organization owner")
	e.expect(e.do(as("bob", "GET", "/user/actions/variables/OTHER", nil)), http.StatusNotFound, "variable not found")
}

// TestActionsRegistrationTokensAPI: every level has its own token, stable
// across calls; only site administrators reach the instance's.
func TestActionsRegistrationTokensAPI(t *testing.T) {
	t.Parallel()
	e, _ := newActionsEnv(t)
	actionsWorld(e)
	seen := map[string]string{}
	for _, r := range []req{
		as("alice", "GET", "/repos/alice/proj/actions/runners/registration-token", nil),
		as("alice", "GET", "/repos/acme/site/actions/runners/registration-token", nil),
		as("alice", "GET", "/orgs/acme/actions/runners/registration-token", nil),
		as("alice", "GET", "/user/actions/runners/registration-token", nil),
		as("bob", "GET", "/user/actions/runners/registration-token", nil),
		rootReq("GET", "/admin/runners/registration-token", nil),
	} {
		first := e.do(r)
		e.expect(first, http.StatusOK, "")
		tok := first.json(t)["token"].(string)
		assert.Len(t, tok, 40)
		again := e.do(r)
		assert.Equal(t, tok, again.json(t)["token"], "%s: stable until reset", r.path)
		if prev, dup := seen[tok]; dup {
			t.Errorf("%s hands out the token of %s", r.path, prev)
		}
		seen[tok] = r.path
	}
	// Both admin paths name the one instance level.
	a := e.do(rootReq("GET", "/admin/actions/runners/registration-token", nil)).json(t)["token"]
	b := e.do(rootReq("GET", "/admin/runners/registration-token", nil)).json(t)["token"]
	assert.Equal(t, a, b)

	e.expect(e.do(as("alice", "GET", "/admin/runners/registration-token", nil)), http.StatusForbidden, "")
	e.expect(e.do(as("bob", "GET", "/repos/alice/proj/actions/runners/registration-token", nil)), http.StatusForbidden, "user should be the owner of the repo")
	e.expect(e.do(as("bob", "GET", "/repos/alice/secret/actions/runners/registration-token", nil)), http.StatusNotFound, "")
	e.expect(e.do(as("bob", "GET", "/orgs/acme/actions/runners/registration-token", nil)), http.StatusForbidden, "Must be an organization owner")
}

// TestActionsRunnersAPI: register, list (own or visible), get, delete,
// per level.
func TestActionsRunnersAPI(t *testing.T) {
	t.Parallel()
	e, _ := newActionsEnv(t)
	actionsWorld(e)
	register := func(r req) any {
		t.Helper()
		res := e.do(r)
		e.expect(res, http.StatusCreated, "")
		m := res.json(t)
		assert.Len(t, m["token"], 40)
		assert.Len(t, m["uuid"], 36)
		return m["id"]
	}
	repoRunner := register(as("alice", "POST", "/repos/alice/proj/actions/runners", map[string]any{"name": "r", "description": "d", "ephemeral": true}))
	userRunner := register(as("alice", "POST", "/user/actions/runners", map[string]any{"name": "u"}))
	orgRunner := register(as("alice", "POST", "/orgs/acme/actions/runners", map[string]any{"name": "o"}))
	globalRunner := register(rootReq("POST", "/admin/actions/runners", map[string]any{"name": "g"}))
	e.expect(e.do(as("alice", "POST", "/user/actions/runners", map[string]any{})), http.StatusUnprocessableEntity, "[Name]: Required")

	r := e.do(as("alice", "GET", "/repos/alice/proj/actions/runners", nil))
	e.expect(r, http.StatusOK, "")
	list := r.list(t)
	require.Len(t, list, 1)
	assert.Equal(t, "r", list[0]["name"])
	assert.Equal(t, true, list[0]["ephemeral"])
	assert.Equal(t, "offline", list[0]["status"])
	r = e.do(as("alice", "GET", "/repos/alice/proj/actions/runners?visible=true", nil))
	e.expect(r, http.StatusOK, "")
	assert.Equal(t, "3", r.Header.Get("X-Total-Count"), "own, owner's and global")
	r = e.do(rootReq("GET", "/admin/actions/runners?limit=2", nil))
	e.expect(r, http.StatusOK, "")
	assert.Equal(t, "4", r.Header.Get("X-Total-Count"))
	assert.Contains(t, r.Header.Get("Link"), `rel="next"`)

	e.expect(e.do(as("alice", "GET", "/repos/alice/proj/actions/runners/"+itoa(globalRunner), nil)), http.StatusOK, "")
	e.expect(e.do(as("alice", "GET", "/orgs/acme/actions/runners/"+itoa(repoRunner), nil)), http.StatusNotFound, "runner does not exist")
	e.expect(e.do(as("alice", "GET", "/user/actions/runners/nope", nil)), http.StatusNotFound, "")
	e.expect(e.do(as("alice", "DELETE", "/repos/alice/proj/actions/runners/"+itoa(userRunner), nil)), http.StatusNotFound, "No permission to delete this runner")
	e.expect(e.do(as("bob", "GET", "/user/actions/runners/"+itoa(userRunner), nil)), http.StatusNotFound, "runner does not exist")
	e.expect(e.do(as("alice", "DELETE", "/user/actions/runners/"+itoa(userRunner), nil)), http.StatusNoContent, "")
	e.expect(e.do(as("alice", "DELETE", "/orgs/acme/actions/runners/"+itoa(orgRunner), nil)), http.StatusNoContent, "")
	e.expect(e.do(rootReq("DELETE", "/admin/actions/runners/"+itoa(repoRunner), nil)), http.StatusNoContent, "")
	e.expect(e.do(rootReq("GET", "/admin/actions/runners/"+itoa(repoRunner), nil)), http.StatusNotFound, "runner does not exist")

	for _, path := range []string{"/repos/alice/proj/actions/runners/jobs", "/orgs/acme/actions/runners/jobs", "/user/actions/runners/jobs?labels=ubuntu"} {
		r := e.do(as("alice", "GET", path, nil))
		e.expect(r, http.StatusOK, "")
		assert.Equal(t, "[]\n", string(r.body))
	}
	e.expect(e.do(rootReq("GET", "/admin/runners/jobs", nil)), http.StatusOK, "")
	e.expect(e.do(rootReq("GET", "/admin/actions/runners/jobs", nil)), http.StatusOK, "")
	e.expect(e.do(as("alice", "GET", "/admin/actions/runners/jobs", nil)), http.StatusForbidden, "")
}

// TestActionsRunsAPI: a dispatch is recorded as a waiting run, listed and
// read; tasks stay empty.
func TestActionsRunsAPI(t *testing.T) {
	t.Parallel()
	e, _ := newActionsEnv(t)
	actionsWorld(e)
	const d = "/repos/alice/proj/actions/workflows/build.yml/dispatches"
	e.expect(e.do(as("alice", "POST", d, map[string]any{"ref": "main"})), http.StatusNoContent, "")
	r := e.do(as("alice", "POST", d, map[string]any{"ref": "refs/heads/main", "return_run_info": true, "inputs": map[string]string{"a": "b"}}))
	e.expect(r, http.StatusCreated, "")
	run := r.json(t)
	assert.EqualValues(t, 2, run["run_number"])
	e.expect(e.do(as("alice", "POST", d, map[string]any{})), http.StatusUnprocessableEntity, "[Ref]: Required")
	e.expect(e.do(req{method: "POST", path: "/api/v1" + d, body: map[string]any{"ref": "main"}}), http.StatusUnauthorized, "token is required")
	e.expect(e.do(as("bob", "POST", "/repos/alice/secret/actions/workflows/x.yml/dispatches", map[string]any{"ref": "main"})), http.StatusNotFound, "")
	e.createUser("carol")
	e.expect(e.do(as("carol", "POST", d, map[string]any{"ref": "main"})), http.StatusForbidden, "user should have a permission to write to a repo")
	e.expect(e.do(as("bob", "POST", d, map[string]any{"ref": "main"})), http.StatusNoContent, "") // an admin collaborator writes

	r = e.do(req{method: "GET", path: "/api/v1/repos/alice/proj/actions/runs"})
	e.expect(r, http.StatusOK, "")
	body := r.json(t)
	assert.EqualValues(t, 3, body["total_count"])
	runs := body["workflow_runs"].([]any)
	require.Len(t, runs, 3)
	newest := runs[1].(map[string]any)
	assert.EqualValues(t, 2, newest["index_in_repo"])
	assert.Equal(t, "waiting", newest["status"])
	assert.Equal(t, "workflow_dispatch", newest["event"])
	assert.Equal(t, "build.yml", newest["workflow_id"])
	assert.Equal(t, "main", newest["prettyref"])
	assert.True(t, strings.HasSuffix(newest["html_url"].(string), "/alice/proj/actions/runs/2"), newest["html_url"])

	r = e.do(req{method: "GET", path: "/api/v1/repos/alice/proj/actions/runs?run_number=1&event=workflow_dispatch&status=waiting"})
	e.expect(r, http.StatusOK, "")
	assert.EqualValues(t, 1, r.json(t)["total_count"])
	e.expect(e.do(req{method: "GET", path: "/api/v1/repos/alice/proj/actions/runs?run_number=x"}), http.StatusBadRequest, "invalid run_number")
	r = e.do(req{method: "GET", path: "/api/v1/repos/alice/proj/actions/runs/" + itoa(run["id"])})
	e.expect(r, http.StatusOK, "")
	assert.Equal(t, "main", r.json(t)["prettyref"])
	e.expect(e.do(req{method: "GET", path: "/api/v1/repos/alice/proj/actions/runs/999"}), http.StatusNotFound, "run not found")
	e.expect(e.do(req{method: "GET", path: "/api/v1/repos/alice/secret/actions/runs"}), http.StatusNotFound, "")

	r = e.do(req{method: "GET", path: "/api/v1/repos/alice/proj/actions/tasks"})
	e.expect(r, http.StatusOK, "")
	assert.JSONEq(t, `{"total_count":0,"workflow_runs":[]}`, string(r.body))
}
