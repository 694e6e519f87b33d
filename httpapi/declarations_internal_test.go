package httpapi

import (
	"testing"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/auth/oauthapps"
	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/actions"
	"github.com/hearthforge/hearth/forge/feeds"
	"github.com/hearthforge/hearth/forge/gpgkeys"
	"github.com/hearthforge/hearth/forge/hooks"
	"github.com/hearthforge/hearth/forge/notify"
	"github.com/hearthforge/hearth/forge/orgs"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/forge/sshkeys"
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
	quotaSvc, err := quota.New(quota.ServiceConfig{Store: memstore.New().Quota(), Quota: quota.Config{Enabled: true}})
	if err != nil {
		t.Fatal(err)
	}
	a, err := New(Config{Auth: new(auth.Service), Repos: &repos.Service{}, Orgs: &orgs.Service{}, Hooks: &hooks.Service{},
		Actions: &actions.Service{}, Quota: quotaSvc, Notify: &notify.Service{}, GPGKeys: &gpgkeys.Service{},
		OAuthApps: &oauthapps.Service{}, Feeds: &feeds.Service{}, SSHKeys: &sshkeys.Service{}})
	if err != nil {
		t.Fatal(err)
	}
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
		case len(rt.Scopes) != len(d.req.Categories) || rt.Token != d.req.SignedIn || rt.Admin != d.req.SiteAdmin || (rt.gate != nil) != d.req.Gate:
			t.Errorf("%s: the route enforces scopes %v token %v admin %v gate %v; declared %+v", op, rt.Scopes, rt.Token, rt.Admin, rt.gate != nil, d.req)
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
