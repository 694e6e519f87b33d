package httpapi

import (
	"testing"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/auth/oauthapps"
	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/actions"
	"github.com/hearthforge/hearth/forge/cron"
	"github.com/hearthforge/hearth/forge/feeds"
	"github.com/hearthforge/hearth/forge/gpgkeys"
	"github.com/hearthforge/hearth/forge/hooks"
	"github.com/hearthforge/hearth/forge/markup"
	"github.com/hearthforge/hearth/forge/notify"
	"github.com/hearthforge/hearth/forge/orgs"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/forge/sshkeys"
	"github.com/hearthforge/hearth/issues"
	"github.com/hearthforge/hearth/quota"
	"github.com/hearthforge/hearth/storage/memstore"
)

// TestDeclaredRequirementsAreTheRoutes: every operation whose domain
// declares its requirement is served by a route that enforces exactly it
// (the scope categories, at the level the route's method is checked at,
// the token and administrator checks, a gate when it is gated), and no
// such route states any of it itself (table reports that as an error).
func TestDeclaredRequirementsAreTheRoutes(t *testing.T) {
	t.Parallel()
	a := declaringAPI(t)
	table, errs := a.table()
	for _, err := range errs {
		t.Error(err)
	}
	byOp := map[string]route{}
	for _, rt := range table {
		byOp[rt.Op] = rt
	}
	decl := a.declarations()
	if len(decl) == 0 {
		t.Fatal("no operation declares its requirement")
	}
	for op, d := range decl {
		rt, ok := byOp[op]
		switch {
		case !ok || rt.missing:
			t.Errorf("%s: declared but not served", op)
			continue
		case d.req.Level != forge.LevelForMethod(rt.Method):
			t.Errorf("%s (%s %s): declared at %v; the route checks the scope at %v", op, rt.Method, rt.Path, d.req.Level, forge.LevelForMethod(rt.Method))
		case len(rt.Scopes) != len(d.req.Categories) || rt.Token != d.req.SignedIn || rt.Admin != d.req.SiteAdmin || (rt.gate != nil) != d.req.Gate ||
			rt.OwnerScope != d.req.OwnerScope || rt.Public != (len(d.req.Categories) == 0 && !d.req.OwnerScope):
			t.Errorf("%s: the route enforces scopes %v token %v admin %v owner scope %v public %v gate %v; declared %+v",
				op, rt.Scopes, rt.Token, rt.Admin, rt.OwnerScope, rt.Public, rt.gate != nil, d.req)
		}
	}

	// A route stating what its domain declares is refused.
	hand := a.routes()
	for i := range hand {
		if hand[i].Op == "repoListHooks" {
			hand[i].Scopes = []forge.ScopeCategory{forge.CategoryRepository}
		}
	}
	if _, errs := a.tableOf(hand); len(errs) == 0 {
		t.Error("a route stating its declared scopes is not reported")
	}
}

// TestDomainRoutesAreDeclared: every route of the domains that declare
// their requirements (repositories, issues and pull requests, users and
// tokens, organisations, webhooks, Actions, notifications, quota) takes it
// from the domain's declaration: a route of theirs whose operation the
// domain does not declare would state its requirement by hand again.
func TestDomainRoutesAreDeclared(t *testing.T) {
	t.Parallel()
	a := declaringAPI(t)
	decl := a.declarations()
	groups := map[string][]route{
		"repoRoutes": a.repoRoutes(), "syncForkRoutes": a.syncForkRoutes(), "orgRoutes": a.orgRoutes(),
		"issueRoutes": a.issueRoutes(), "issueDepsRoutes": a.issueDepsRoutes(), "issueSocialRoutes": a.issueSocialRoutes(),
		"pullRoutes": a.pullRoutes(), "hookRoutes": a.hookRoutes(), "actionsRoutes": a.actionsRoutes(),
		"notifyRoutes": a.notifyRoutes(), "quotaRoutes": a.quotaRoutes(),
	}
	for group, routes := range groups {
		if len(routes) == 0 {
			t.Errorf("%s: no route", group)
		}
		for _, rt := range routes {
			if _, ok := decl[rt.Op]; !ok {
				t.Errorf("%s: %s (%s %s) is not declared by its domain", group, rt.Op, rt.Method, rt.Path)
			}
		}
	}
	// The users, tokens and user administration of routes().
	for _, op := range []string{"userGetCurrent", "userSearch", "userGet", "userGetTokens", "userCreateToken", "userDeleteAccessToken",
		"adminSearchUsers", "adminCreateUser", "adminEditUser", "adminDeleteUser", "adminRenameUser", "adminCreateRepo"} {
		if _, ok := decl[op]; !ok {
			t.Errorf("%s is not declared by its domain", op)
		}
	}
}

// declaringAPI is an API with every domain that declares its
// requirements (quota enabled, so that its routes are served).
func declaringAPI(t *testing.T) *API {
	t.Helper()
	quotaSvc, err := quota.New(quota.ServiceConfig{Store: memstore.New().Quota(), Quota: quota.Config{Enabled: true}})
	if err != nil {
		t.Fatal(err)
	}
	a, err := New(Config{Auth: new(auth.Service), Repos: &repos.Service{}, Orgs: &orgs.Service{}, Hooks: &hooks.Service{},
		Actions: &actions.Service{}, Quota: quotaSvc, Notify: &notify.Service{}, Issues: &issues.Service{},
		GPGKeys: &gpgkeys.Service{}, OAuthApps: &oauthapps.Service{}, Feeds: &feeds.Service{}, SSHKeys: &sshkeys.Service{},
		Markup: &markup.Renderer{}, Cron: &cron.Registry{}})
	if err != nil {
		t.Fatal(err)
	}
	return a
}
