package httpapi

import (
	"strings"
	"testing"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge/notify"
	"github.com/hearthforge/hearth/forge/orgs"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/issues"
)

// TestNotifyCoverage checks that Config.Notify serves the seven
// operations of the document's notification tag (TestCoverage's fullAPI
// counts them once it sets Notify), and that without it they answer 501.
func TestNotifyCoverage(t *testing.T) {
	t.Parallel()
	served := func(cfg Config) (int, int) {
		a, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		table, errs := a.table()
		for _, err := range errs {
			t.Error(err)
		}
		all, notifyOps := 0, 0
		for _, rt := range table {
			if rt.missing {
				continue
			}
			all++
			if strings.HasPrefix(rt.Op, "notify") {
				notifyOps++
			}
		}
		return all, notifyOps
	}
	base := Config{Auth: new(auth.Service), Repos: &repos.Service{}, Orgs: &orgs.Service{}, Issues: &issues.Service{}}
	before, n0 := served(base)
	base.Notify = &notify.Service{}
	after, n1 := served(base)
	if n0 != 0 || n1 != 7 || after != before+7 {
		t.Errorf("notification operations served: %d without Notify, %d with (total %d → %d); want 0, 7, +7", n0, n1, before, after)
	}
	t.Logf("covered %d/491 with Notify (%d without)", after, before)
}
