package httpapi

import (
	"strings"
	"testing"

	"github.com/go-chi/chi/v5"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge/orgs"
	"github.com/hearthforge/hearth/forge/repos"
)

// TestCoverageWithOrgs prints the coverage line of an API with every
// service configured, organisations included, and checks that the
// organisation routes add the operations they name: every one is served
// (none is left to 501) and none is already served without them.
func TestCoverageWithOrgs(t *testing.T) {
	t.Parallel()
	served := func(cfg Config) map[string]bool {
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
	base := served(Config{Auth: new(auth.Service), Repos: &repos.Service{}})
	all := served(Config{Auth: new(auth.Service), Repos: &repos.Service{}, Orgs: &orgs.Service{}})
	a := &API{cfg: Config{Repos: &repos.Service{}, Orgs: &orgs.Service{}}}
	added := a.orgRoutes()
	for _, rt := range added {
		if base[rt.Op] {
			t.Errorf("%s is served without organisations too", rt.Op)
		}
		if !all[rt.Op] {
			t.Errorf("%s is not served with organisations", rt.Op)
		}
	}
	if len(all) != len(base)+len(added) {
		t.Errorf("served %d operations with organisations, %d without, %d organisation routes", len(all), len(base), len(added))
	}
	t.Logf("covered %d/%d with organisations (%d without)", len(all), len(operations), len(base))
}

// TestOrgOperationsReachTheirEntries is TestEveryOperationReachesItsEntry
// with organisations configured: every operation's concrete URL reaches
// its own entry, never another (/orgs/{org}/teams/search vs
// /orgs/{org}/teams, /teams/{id}/repos/{org}/{repo}, /org/{org}/repos).
func TestOrgOperationsReachTheirEntries(t *testing.T) {
	t.Parallel()
	a, err := New(Config{Auth: new(auth.Service), Repos: &repos.Service{}, Orgs: &orgs.Service{}})
	if err != nil {
		t.Fatal(err)
	}
	table, _ := a.table()
	for _, rt := range table {
		path := concreteURL(rt)
		rctx := chi.NewRouteContext()
		if !a.router.Match(rctx, rt.Method, path) {
			t.Errorf("%s %s (%s) reaches no entry", rt.Method, path, rt.Op)
			continue
		}
		if got := rctx.RoutePattern(); got != rt.chiPattern() {
			t.Errorf("%s %s (%s) reaches %s instead of %s", rt.Method, path, rt.Op, got, rt.chiPattern())
		}
		if rt.Wild != "" && !strings.HasSuffix(rctx.URLParam("*"), "/deep/er") {
			t.Errorf("%s %s (%s): wildcard %s is %q", rt.Method, path, rt.Op, rt.Wild, rctx.URLParam("*"))
		}
	}
}
