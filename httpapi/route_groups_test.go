package httpapi

import (
	"testing"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge/actions"
	"github.com/hearthforge/hearth/forge/hooks"
	"github.com/hearthforge/hearth/forge/notify"
	"github.com/hearthforge/hearth/forge/orgs"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/issues"
)

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
