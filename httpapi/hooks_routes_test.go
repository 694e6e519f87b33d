package httpapi_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge/hooks"
	"github.com/hearthforge/hearth/forge/orgs"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/httpapi"
)

var newHookBody = map[string]any{"type": "forgejo", "config": map[string]string{"url": "http://127.0.0.1:1/h", "content_type": "json"}}

// hookLevels are the four owners of webhooks in the world hookWorld
// builds, in creation order (hook i+1 belongs to level i): system hook 1,
// alice/proj's hook 2, acme's hook 3 and root's own hook 4. op is the
// operations' prefix, path the hooks' collection.
var hookLevels = []struct{ op, path string }{
	{"admin", "/admin/hooks"}, {"repo", "/repos/alice/proj/hooks"}, {"org", "/orgs/acme/hooks"}, {"user", "/user/hooks"},
}

// hookSamples are the route-table samples of the webhook operations, in
// the world hookWorld builds: each level's five hook operations on its own
// hook, the test of alice/proj's hook and its git hooks (root is not
// allowed to edit them); the token is root's.
var hookSamples = func() map[string]sample {
	gitHooks := outcome{403, "must be allowed to edit Git hooks"}
	m := map[string]sample{
		"repoTestHook":      {path: "/repos/alice/proj/hooks/2/tests", ok: outcome{204, ""}},
		"repoListGitHooks":  {path: "/repos/alice/proj/hooks/git", ok: gitHooks},
		"repoGetGitHook":    {path: "/repos/alice/proj/hooks/git/pre-receive", ok: gitHooks},
		"repoEditGitHook":   {path: "/repos/alice/proj/hooks/git/pre-receive", body: map[string]any{"content": "x"}, ok: gitHooks},
		"repoDeleteGitHook": {path: "/repos/alice/proj/hooks/git/pre-receive", ok: gitHooks},
	}
	for i, l := range hookLevels {
		hook := fmt.Sprintf("%s/%d", l.path, i+1)
		m[l.op+"ListHooks"] = sample{path: l.path, ok: outcome{200, ""}}
		m[l.op+"CreateHook"] = sample{path: l.path, body: newHookBody, ok: outcome{201, ""}}
		m[l.op+"GetHook"] = sample{path: hook, ok: outcome{200, ""}}
		m[l.op+"EditHook"] = sample{path: hook, body: map[string]any{"active": true}, ok: outcome{200, ""}}
		m[l.op+"DeleteHook"] = sample{path: hook, ok: outcome{204, ""}}
	}
	return m
}()

func init() {
	for k, v := range hookSamples {
		samples[k] = v
	}
	notFound := "an unknown hook id is Forgejo's 404 (ctx.NotFound); the document omits it"
	allowUndocumented(map[string]map[int]string{
		"adminGetHook":    {http.StatusNotFound: notFound},
		"adminEditHook":   {http.StatusNotFound: "an unknown hook id is 404 (Forgejo answers 500, a bug: spec §3)"},
		"adminDeleteHook": {http.StatusNotFound: notFound},
		"adminCreateHook": {http.StatusBadRequest: "an invalid slack channel is 400 `Invalid slack channel name` (routers/api/v1/utils/hook.go)"},
		"repoCreateHook":  {http.StatusBadRequest: "as adminCreateHook"},
		"orgCreateHook":   {http.StatusBadRequest: "as adminCreateHook"},
		"userCreateHook":  {http.StatusBadRequest: "as adminCreateHook"},
		"userGetHook":     {http.StatusNotFound: notFound},
		"userEditHook":    {http.StatusNotFound: notFound},
		"userDeleteHook":  {http.StatusNotFound: notFound},
	})
}

// hookWorld builds what hookSamples need.
func hookWorld(e *hookEnv) {
	e.t.Helper()
	for _, u := range []string{"alice", "bob"} {
		e.createUser(u)
	}
	e.expect(e.do(rootReq("POST", "/admin/users/alice/repos", map[string]any{"name": "proj", "auto_init": true})), 201, "")
	e.createOrg("alice", "acme", "public")
	for i, l := range hookLevels {
		body := map[string]any{"type": "forgejo", "config": map[string]string{"url": "http://127.0.0.1:1/h", "content_type": "json", "is_system_webhook": "true"}}
		r := e.do(rootReq("POST", l.path, body))
		e.expect(r, 201, "")
		if id := int(r.json(e.t)["id"].(float64)); id != i+1 {
			e.t.Fatalf("hook %s has id %d, the samples expect %d", l.path, id, i+1)
		}
	}
}

// hooksAdded are the routes hookRoutes adds to the route table.
func hooksAdded(t *testing.T) []httpapi.RouteInfo {
	t.Helper()
	cfg := httpapi.Config{Auth: new(auth.Service), Repos: &repos.Service{}, Orgs: &orgs.Service{}}
	with := cfg
	with.Hooks = &hooks.Service{}
	return addedRoutes(t, cfg, with)
}

// TestHookRouteTable is TestRouteTable for the webhook operations: the
// answer to no credentials, to a token lacking the category, to a read
// token on a write method, and to a token with exactly the right scopes.
func TestHookRouteTable(t *testing.T) {
	t.Parallel()
	routes := hooksAdded(t)
	for _, rt := range routes {
		if len(rt.Scopes) == 0 || !rt.Token {
			t.Errorf("%s %s (%s) must declare its scopes and need a token", rt.Method, rt.Path, rt.Op)
		}
	}
	world := func(t *testing.T) *env {
		e := newHookEnv(t)
		hookWorld(e)
		return e.env
	}
	checkRouteGroup(t, "hookRoutes", routes, hookSamples, world, nil, nil)
}
