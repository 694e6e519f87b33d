package httpapi_test

import (
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge/actions"
	"github.com/hearthforge/hearth/forge/orgs"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/httpapi"
)

// actionLevels are the owners of Actions settings in the world of
// actionsSampleWorld: op names them in operation ids (getRepoRunner), base
// is their routes' prefix; runner i+1 belongs to level i, and the instance
// (the last) has no secrets or variables.
var actionLevels = []struct{ op, base string }{
	{"Repo", "/repos/alice/proj/actions"}, {"Org", "/orgs/acme/actions"}, {"User", "/user/actions"}, {"Admin", "/admin/actions"},
}

// actionSamples are the route-table samples of the Actions operations, in
// the world of actionsSampleWorld; the token is root's, so the user-level
// routes act on root. Each level's runner operations, and the variable
// operations of the levels with variables, are alike; the rest is listed.
var actionSamples = func() map[string]sample {
	m := map[string]sample{
		"repoListActionsSecrets": {path: "/repos/alice/proj/actions/secrets", ok: outcome{200, ""}},
		"updateRepoSecret":       {path: "/repos/alice/proj/actions/secrets/NEW", body: map[string]any{"data": "x"}, ok: outcome{201, ""}},
		"createRepoVariable":     {path: "/repos/alice/proj/actions/variables/NEW", body: map[string]any{"value": "x"}, ok: outcome{204, ""}},
		"updateRepoVariable":     {path: "/repos/alice/proj/actions/variables/KEEP", body: map[string]any{"value": "y"}, ok: outcome{204, ""}},
		"ListActionRuns":         {path: "/repos/alice/proj/actions/runs", anon: outcome{200, ""}, ok: outcome{200, ""}},
		"ActionRun":              {path: "/repos/alice/proj/actions/runs/1", anon: outcome{200, ""}, ok: outcome{200, ""}},
		"ListActionTasks":        {path: "/repos/alice/proj/actions/tasks", anon: outcome{200, ""}, ok: outcome{200, ""}},
		"DispatchWorkflow":       {path: "/repos/alice/proj/actions/workflows/ci.yml/dispatches", body: map[string]any{"ref": "main"}, ok: outcome{204, ""}},

		"orgListActionsSecrets": {path: "/orgs/acme/actions/secrets", ok: outcome{200, ""}},
		"updateOrgSecret":       {path: "/orgs/acme/actions/secrets/KEEP", body: map[string]any{"data": "x"}, ok: outcome{204, ""}},
		"createOrgVariable":     {path: "/orgs/acme/actions/variables/KEEP", body: map[string]any{"value": "x"}, ok: outcome{409, "variable name KEEP already exists"}},
		"updateOrgVariable":     {path: "/orgs/acme/actions/variables/KEEP", body: map[string]any{"value": "y"}, ok: outcome{204, ""}},

		"updateUserSecret":   {path: "/user/actions/secrets/NEW", body: map[string]any{"data": "x"}, ok: outcome{201, ""}},
		"createUserVariable": {path: "/user/actions/variables/NEW", body: map[string]any{"value": "x"}, ok: outcome{204, ""}},
		"updateUserVariable": {path: "/user/actions/variables/KEEP", body: map[string]any{"name": "RENAMED", "value": "y"}, ok: outcome{204, ""}},

		"adminGetRegistrationToken": {path: "/admin/runners/registration-token", ok: outcome{200, ""}},
		"adminSearchRunJobs":        {path: "/admin/runners/jobs", ok: outcome{200, ""}},
		"adminGetActionRunJobs":     {path: "/admin/actions/runners/jobs", ok: outcome{200, ""}},
	}
	for i, l := range actionLevels {
		lower := strings.ToLower(l.op)
		runner := l.base + "/runners/" + strconv.Itoa(i+1)
		m[lower+"GetRunnerRegistrationToken"] = sample{path: l.base + "/runners/registration-token", ok: outcome{200, ""}}
		m["get"+l.op+"Runners"] = sample{path: l.base + "/runners", ok: outcome{200, ""}}
		m["register"+l.op+"Runner"] = sample{path: l.base + "/runners", body: map[string]any{"name": "n"}, ok: outcome{201, ""}}
		m["get"+l.op+"Runner"] = sample{path: runner, ok: outcome{200, ""}}
		m["delete"+l.op+"Runner"] = sample{path: runner, ok: outcome{204, ""}}
		if l.op == "Admin" {
			continue
		}
		m[lower+"SearchRunJobs"] = sample{path: l.base + "/runners/jobs", ok: outcome{200, ""}}
		m["delete"+l.op+"Secret"] = sample{path: l.base + "/secrets/KEEP", ok: outcome{204, ""}}
		m["get"+l.op+"VariablesList"] = sample{path: l.base + "/variables", ok: outcome{200, ""}}
		m["get"+l.op+"Variable"] = sample{path: l.base + "/variables/KEEP", ok: outcome{200, ""}}
		m["delete"+l.op+"Variable"] = sample{path: l.base + "/variables/KEEP", ok: outcome{204, ""}}
	}
	return m
}()

func init() {
	for k, v := range actionSamples {
		samples[k] = v
	}
}

// actionsSampleWorld is actionsWorld with a secret and a variable named
// KEEP at the repository alice/proj, the organisation acme and root's
// user level, the runners 1 (alice/proj), 2 (acme), 3 (root) and 4 (the
// instance), and one dispatched run of alice/proj.
func actionsSampleWorld(e *env) {
	e.t.Helper()
	actionsWorld(e)
	for i, l := range actionLevels {
		if l.op != "Admin" {
			e.expect(e.do(rootReq("PUT", l.base+"/secrets/KEEP", map[string]any{"data": "kept"})), 201, "")
			e.expect(e.do(rootReq("POST", l.base+"/variables/KEEP", map[string]any{"value": "kept"})), 204, "")
		}
		r := e.do(rootReq("POST", l.base+"/runners", map[string]any{"name": "runner"}))
		e.expect(r, 201, "")
		if id := r.json(e.t)["id"]; id != float64(i+1) {
			e.t.Fatalf("runner of %s has id %v, the samples expect %d", l.base, id, i+1)
		}
	}
	e.expect(e.do(rootReq("POST", "/repos/alice/proj/actions/workflows/ci.yml/dispatches", map[string]any{"ref": "main"})), 204, "")
}

// actionsAdded are the routes actionsRoutes adds to the route table.
func actionsAdded(t *testing.T) []httpapi.RouteInfo {
	t.Helper()
	cfg := httpapi.Config{Auth: new(auth.Service), Repos: &repos.Service{}, Orgs: &orgs.Service{}}
	with := cfg
	with.Actions = &actions.Service{}
	return addedRoutes(t, cfg, with)
}

// TestActionsRouteTable is TestRouteTable for the Actions operations: for
// each, the answer to no credentials, to a token lacking the category, to
// a read token on a write method, and to a token with exactly the right
// scopes, in the world of actionsSampleWorld.
func TestActionsRouteTable(t *testing.T) {
	t.Parallel()
	world := func(t *testing.T) *env {
		e, _ := newActionsEnv(t)
		actionsSampleWorld(e)
		return e
	}
	checkRouteGroup(t, "actionsRoutes", actionsAdded(t), actionSamples, world, nil,
		func(run func(string, req, outcome), rt httpapi.RouteInfo, s sample) {
			if s.ok.status < 300 && rt.Admin {
				run("a non-administrator", req{user: "alice", pass: "alice-password"}, outcome{403, ""})
			}
		})
}

// TestActionsRoutesRefuseBadBodies: every Actions operation with a body
// answers a body that is not JSON, or JSON of the wrong shape, with 422.
func TestActionsRoutesRefuseBadBodies(t *testing.T) {
	t.Parallel()
	e, _ := newActionsEnv(t)
	actionsSampleWorld(e)
	routes := actionsAdded(t)
	n := 0
	for _, rt := range routes {
		op := rt.Op
		s := actionSamples[op]
		if s.body == nil {
			continue
		}
		method := map[bool]string{true: "PUT", false: "POST"}[strings.Contains(op, "update")]
		for _, body := range []string{"{", `{"data": 5, "value": 5, "name": 5, "ref": 5}`, "[]"} {
			n++
			got := e.do(rootReq(method, s.path, body))
			assert.Equal(t, http.StatusUnprocessableEntity, got.StatusCode, "%s with %s: %s", op, body, got.body)
		}
	}
	if n == 0 {
		t.Fatal("no operation with a body")
	}
}
