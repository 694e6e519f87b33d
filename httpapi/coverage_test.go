package httpapi

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/go-chi/chi/v5"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/auth/oauthapps"
	"github.com/hearthforge/hearth/forge/actions"
	"github.com/hearthforge/hearth/forge/cron"
	"github.com/hearthforge/hearth/forge/feeds"
	"github.com/hearthforge/hearth/forge/gpgkeys"
	"github.com/hearthforge/hearth/forge/hooks"
	"github.com/hearthforge/hearth/forge/markup"
	"github.com/hearthforge/hearth/forge/notify"
	"github.com/hearthforge/hearth/forge/orgs"
	"github.com/hearthforge/hearth/forge/packages"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/forge/sshkeys"
	"github.com/hearthforge/hearth/issues"
	"github.com/hearthforge/hearth/mirror"
	"github.com/hearthforge/hearth/quota"
)

type docOp struct{ method, path, id, tag string }

func loadDocOps(t *testing.T) []docOp {
	t.Helper()
	raw, err := os.ReadFile("openapi/forgejo-v15.0.3.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Paths map[string]map[string]json.RawMessage `json:"paths"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	var ops []docOp
	for path, item := range doc.Paths {
		for method, body := range item {
			if method == "parameters" {
				continue
			}
			var op struct {
				ID   string   `json:"operationId"`
				Tags []string `json:"tags"`
			}
			if err := json.Unmarshal(body, &op); err != nil {
				t.Fatal(err)
			}
			tag := "other"
			if len(op.Tags) > 0 {
				tag = op.Tags[0]
			}
			ops = append(ops, docOp{strings.ToUpper(method), path, op.ID, tag})
		}
	}
	return ops
}

func fullAPI() *API {
	a, err := New(Config{
		Auth:      new(auth.Service),
		Repos:     &repos.Service{},
		Orgs:      &orgs.Service{},
		Issues:    &issues.Service{},
		Actions:   &actions.Service{},
		Hooks:     &hooks.Service{},
		Notify:    &notify.Service{},
		Quota:     &quota.Service{},
		Packages:  &packages.Service{},
		Mirror:    &mirror.Service{},
		Markup:    &markup.Renderer{},
		Cron:      &cron.Registry{},
		GPGKeys:   &gpgkeys.Service{},
		OAuthApps: &oauthapps.Service{},
		Feeds:     &feeds.Service{},
		SSHKeys:   &sshkeys.Service{},
	})
	if err != nil {
		panic(err)
	}
	return a
}

var pathParam = regexp.MustCompile(`\{[^}]+\}`)

// concreteURL fills every parameter of a path template with a distinct
// value; a wildcard parameter gets one with a slash in it.
func concreteURL(rt route) string {
	n := 0
	return "/api/v1" + pathParam.ReplaceAllStringFunc(rt.Path, func(p string) string {
		n++
		if rt.Wild != "" && p == "{"+rt.Wild+"}" {
			return fmt.Sprintf("w%d/deep/er", n)
		}
		return fmt.Sprintf("v%d", n)
	})
}

// TestCoverage lists the document's operations and which ones Hearth
// serves (`go test -run TestCoverage -v ./httpapi` prints the summary,
// 501s counted as missing). It fails when a hand-written route names an
// operationId the document lacks or disagrees with its method and path,
// and when the generated table is not the document's 491 operations.
func TestCoverage(t *testing.T) {
	ops := loadDocOps(t)
	a := fullAPI()
	table, errs := a.table()
	for _, err := range errs {
		t.Error(err)
	}
	if len(table) != len(ops) || len(operations) != len(ops) {
		t.Errorf("the table has %d routes for %d generated operations and %d in the document", len(table), len(operations), len(ops))
	}
	byKey := map[string]docOp{}
	for _, o := range ops {
		byKey[o.method+" "+o.path] = o
	}
	served := map[string]bool{}
	for _, rt := range table {
		key := rt.Method + " " + rt.Path
		if o, ok := byKey[key]; !ok || o.id != rt.Op {
			t.Errorf("table entry %s (%s) is not the document's %s", key, rt.Op, o.id)
		}
		if !rt.missing {
			served[key] = true
		}
	}

	missing := map[string][]string{}
	for _, o := range ops {
		if !served[o.method+" "+o.path] {
			missing[o.tag] = append(missing[o.tag], o.method+" "+o.path)
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "covered %d/%d\n", len(served), len(ops))
	tags := make([]string, 0, len(missing))
	for tag := range missing {
		tags = append(tags, tag)
	}
	sort.Strings(tags)
	for _, tag := range tags {
		list := missing[tag]
		sort.Strings(list)
		fmt.Fprintf(&b, "missing %s (%d): %s\n", tag, len(list), strings.Join(list, ", "))
	}
	t.Log("\n" + b.String())
	if len(ops) != 491 {
		t.Errorf("the document has %d operations, expected 491", len(ops))
	}
}

// TestEveryOperationReachesItsEntry walks every operation of the document,
// builds a concrete URL from its path template and checks that the router
// sends it to that operation's entry (handler or 501), never another:
// `issues/{index}/comments` vs `issues/comments/{id}`, `{sha}.{diffType}`,
// `/users/search` vs `/users/{username}`, wildcard paths.
func TestEveryOperationReachesItsEntry(t *testing.T) {
	t.Parallel()
	reachesEntries(t, fullAPI())
}

// reachesEntries checks that no two of a's operations share a router
// pattern and that each operation's concrete URL reaches its own entry
// (handler or 501), never another, with a wildcard's slashes kept.
func reachesEntries(t *testing.T, a *API) {
	t.Helper()
	table, _ := a.table()
	patterns := map[string]string{}
	for _, rt := range table {
		key := rt.Method + " " + rt.chiPattern()
		if other, dup := patterns[key]; dup {
			t.Errorf("%s and %s share the router pattern %s", other, rt.Op, key)
		}
		patterns[key] = rt.Op
	}
	for _, rt := range table {
		path := concreteURL(rt)
		rctx := chi.NewRouteContext()
		if !a.router.Match(rctx, rt.Method, path) {
			t.Errorf("%s %s (%s) reaches no entry", rt.Method, path, rt.Op)
			continue
		}
		if got := rctx.RoutePattern(); got != rt.chiPattern() {
			t.Errorf("%s %s (%s) reaches %s (%s) instead of %s", rt.Method, path, rt.Op, got, patterns[rt.Method+" "+got], rt.chiPattern())
		}
		if rt.Wild != "" {
			if got := rctx.URLParam("*"); !strings.HasSuffix(got, "/deep/er") {
				t.Errorf("%s %s (%s): wildcard %s is %q", rt.Method, path, rt.Op, rt.Wild, got)
			}
		}
	}
}

// TestMissingOperationsAnswer501 checks that every operation without a
// handler answers 501 in Forgejo's error shape, before any authentication.
func TestMissingOperationsAnswer501(t *testing.T) {
	t.Parallel()
	a, err := New(Config{Auth: new(auth.Service), Repos: &repos.Service{}, Orgs: &orgs.Service{}, Issues: &issues.Service{}, Actions: &actions.Service{}, Hooks: &hooks.Service{}, Notify: &notify.Service{}, Packages: &packages.Service{}, Mirror: &mirror.Service{}, RootURL: "https://forge.example/"})
	if err != nil {
		t.Fatal(err)
	}
	table, _ := a.table()
	n := 0
	for _, rt := range table {
		if !rt.missing {
			continue
		}
		n++
		rec := httptest.NewRecorder()
		a.ServeHTTP(rec, httptest.NewRequest(rt.Method, concreteURL(rt), nil))
		var body map[string]any
		if err := json.Unmarshal(rec.Body.Bytes(), &body); rec.Code != http.StatusNotImplemented || err != nil ||
			body["url"] != "https://forge.example/api/swagger" || body["message"] == "" || len(body) != 2 {
			t.Errorf("%s %s (%s): %d %s", rt.Method, rt.Path, rt.Op, rec.Code, rec.Body)
		}
	}
	if n == 0 {
		t.Error("no operation is missing: the test checks nothing")
	}
}

// TestUnknownOperationIDFails proves the join refuses a hand-written route
// whose operationId the document lacks, or whose path disagrees with it.
func TestUnknownOperationIDFails(t *testing.T) {
	t.Parallel()
	a := &API{}
	extra := []route{
		{Op: "repoGetBananas", h: func(*call) {}},
		{Method: "GET", Path: "/repos/{owner}/{repo}/wrong", Op: "repoGet", h: func(*call) {}},
	}
	_, errs := a.joinRoutes(extra)
	if len(errs) != 2 {
		t.Fatalf("got %d errors for two bad routes: %v", len(errs), errs)
	}
	if !strings.Contains(errs[0].Error(), "repoGetBananas") {
		t.Errorf("error does not name the bad operationId: %v", errs[0])
	}
}

// TestRouteGroupsAddTheirOperations: each optional service of Config
// (organisations, the issue tracker, webhooks, Actions, notifications)
// adds exactly the operations its route group names: each one is served
// with the service (none is left to 501), none is served without it, and
// nothing else moves. Where the document fixes the group's size, the group
// has it. `go test -run RouteGroups -v ./httpapi` prints the coverage lines.
func TestRouteGroupsAddTheirOperations(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name      string
		base      Config
		add       func(*Config)
		added     func(*API) []route // the group, of an API with the service
		wantCount int                // the document's count of the group's operations; 0: not checked
	}{
		{name: "organisations", base: Config{Auth: new(auth.Service), Repos: &repos.Service{}},
			add: func(c *Config) { c.Orgs = &orgs.Service{} }, added: (*API).orgRoutes},
		{name: "issues", base: Config{Auth: new(auth.Service), Repos: &repos.Service{}},
			add: func(c *Config) { c.Issues = &issues.Service{} },
			added: func(a *API) []route {
				return concat(a.issueRoutes(), a.issueDepsRoutes(), a.issueSocialRoutes(), a.pullRoutes())
			}},
		{name: "hooks", base: Config{Auth: new(auth.Service), Repos: &repos.Service{}, Orgs: &orgs.Service{}, Issues: &issues.Service{}},
			add: func(c *Config) { c.Hooks = &hooks.Service{} }, added: (*API).hookRoutes, wantCount: 25},
		{name: "actions", base: Config{Auth: new(auth.Service), Repos: &repos.Service{}, Orgs: &orgs.Service{}},
			add: func(c *Config) { c.Actions = &actions.Service{} }, added: (*API).actionsRoutes},
		{name: "notifications", base: Config{Auth: new(auth.Service), Repos: &repos.Service{}, Orgs: &orgs.Service{}, Issues: &issues.Service{}},
			add: func(c *Config) { c.Notify = &notify.Service{} }, added: (*API).notifyRoutes, wantCount: 7},
		{name: "ssh keys", base: Config{Auth: new(auth.Service), Repos: &repos.Service{}},
			add: func(c *Config) { c.SSHKeys = &sshkeys.Service{} }, added: (*API).sshKeyRoutes, wantCount: 11},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			base := servedOps(t, tc.base)
			cfg := tc.base
			tc.add(&cfg)
			all := servedOps(t, cfg)
			added := tc.added(&API{cfg: cfg})
			if tc.wantCount != 0 && len(added) != tc.wantCount {
				t.Errorf("the %s routes serve %d operations, want the document's %d", tc.name, len(added), tc.wantCount)
			}
			for _, rt := range added {
				if base[rt.Op] {
					t.Errorf("%s is served without %s too", rt.Op, tc.name)
				}
				if !all[rt.Op] {
					t.Errorf("%s is not served with %s", rt.Op, tc.name)
				}
			}
			if len(all) != len(base)+len(added) {
				t.Errorf("served %d operations with %s, %d without, %d %s routes", len(all), tc.name, len(base), len(added), tc.name)
			}
			t.Logf("covered %d/%d with %s (%d without)", len(all), len(operations), tc.name, len(base))
		})
	}
}

// TestRouteGroupsReachTheirEntries is TestEveryOperationReachesItsEntry
// with one optional service configured at a time: every operation's
// concrete URL reaches its own entry (/orgs/{org}/teams/search vs
// /orgs/{org}/teams; …/runners/jobs and …/runners/registration-token never
// reach …/runners/{runner_id}).
func TestRouteGroupsReachTheirEntries(t *testing.T) {
	t.Parallel()
	for name, cfg := range map[string]Config{
		"organisations": {Auth: new(auth.Service), Repos: &repos.Service{}, Orgs: &orgs.Service{}},
		"actions":       {Auth: new(auth.Service), Repos: &repos.Service{}, Orgs: &orgs.Service{}, Actions: &actions.Service{}},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			a, err := New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			reachesEntries(t, a)
		})
	}
}

// servedOps is the set of operations an API built from cfg serves (not
// left to 501); a route the table refuses fails t.
func servedOps(t *testing.T, cfg Config) map[string]bool {
	t.Helper()
	a, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	table, errs := a.table()
	for _, err := range errs {
		t.Error(err)
	}
	out := map[string]bool{}
	for _, rt := range table {
		if !rt.missing {
			out[rt.Op] = true
		}
	}
	return out
}

// concat is the routes of every group, in order.
func concat(groups ...[]route) []route {
	var out []route
	for _, g := range groups {
		out = append(out, g...)
	}
	return out
}
