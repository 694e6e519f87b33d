package httpapi

import (
	"testing"

	"github.com/go-chi/chi/v5"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge/actions"
	"github.com/hearthforge/hearth/forge/orgs"
	"github.com/hearthforge/hearth/forge/repos"
)

// TestCoverageWithActions prints the coverage line of an API with every
// service configured, Actions included, and checks that the Actions routes
// add the operations they name: every one is served (none is left to 501)
// and none is served without them.
func TestCoverageWithActions(t *testing.T) {
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
	cfg := Config{Auth: new(auth.Service), Repos: &repos.Service{}, Orgs: &orgs.Service{}}
	base := served(cfg)
	cfg.Actions = &actions.Service{}
	all := served(cfg)
	added := (&API{cfg: cfg}).actionsRoutes()
	for _, rt := range added {
		if base[rt.Op] {
			t.Errorf("%s is served without Actions too", rt.Op)
		}
		if !all[rt.Op] {
			t.Errorf("%s is not served with Actions", rt.Op)
		}
	}
	if len(all) != len(base)+len(added) {
		t.Errorf("served %d operations with Actions, %d without, %d Actions routes", len(all), len(base), len(added))
	}
	t.Logf("covered %d/%d with Actions (%d without)", len(all), len(operations), len(base))
}

// TestActionsOperationsReachTheirEntries: with Actions configured, every
// operation's concrete URL reaches its own entry (…/runners/jobs and
// …/runners/registration-token never reach …/runners/{runner_id}).
func TestActionsOperationsReachTheirEntries(t *testing.T) {
	t.Parallel()
	a, err := New(Config{Auth: new(auth.Service), Repos: &repos.Service{}, Orgs: &orgs.Service{}, Actions: &actions.Service{}})
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
	}
}
