package httpapi

import (
	"testing"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge/hooks"
	"github.com/hearthforge/hearth/forge/orgs"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/issues"
)

// TestCoverageWithHooks prints the coverage line with every service,
// webhooks included, and checks that the webhook routes add exactly the
// operations they name (none served without them, none left to 501).
func TestCoverageWithHooks(t *testing.T) {
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
	cfg := Config{Auth: new(auth.Service), Repos: &repos.Service{}, Orgs: &orgs.Service{}, Issues: &issues.Service{}}
	base := served(cfg)
	cfg.Hooks = &hooks.Service{}
	all := served(cfg)
	added := (&API{cfg: cfg}).hookRoutes()
	if len(added) != 25 {
		t.Errorf("hookRoutes serves %d operations, want the document's 25 hook operations", len(added))
	}
	for _, rt := range added {
		if base[rt.Op] {
			t.Errorf("%s is served without hooks too", rt.Op)
		}
		if !all[rt.Op] {
			t.Errorf("%s is not served with hooks", rt.Op)
		}
	}
	if len(all) != len(base)+len(added) {
		t.Errorf("served %d operations with hooks, %d without, %d hook routes", len(all), len(base), len(added))
	}
	t.Logf("covered %d/%d with hooks (%d without)", len(all), len(operations), len(base))
}
