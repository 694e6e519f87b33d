package httpapi

import (
	"testing"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/issues"
)

// TestIssueCoverage is TestCoverage's count with the issue tracker
// configured (`go test -run Coverage -v ./httpapi`): every issue route
// joins the table as a served operation, none is refused by the join.
func TestIssueCoverage(t *testing.T) {
	t.Parallel()
	served := func(cfg Config) int {
		a, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		table, errs := a.table()
		for _, err := range errs {
			t.Error(err)
		}
		n := 0
		for _, rt := range table {
			if !rt.missing {
				n++
			}
		}
		return n
	}
	without := served(Config{Auth: new(auth.Service), Repos: &repos.Service{}})
	with := served(Config{Auth: new(auth.Service), Repos: &repos.Service{}, Issues: &issues.Service{}})
	added := len((&API{}).issueRoutes()) + len((&API{}).issueDepsRoutes()) + len((&API{}).issueSocialRoutes()) + len((&API{}).pullRoutes())
	t.Logf("covered %d/%d with Config.Issues (%d without: the issue tracker adds %d)", with, len(operations), without, added)
	if with != without+added {
		t.Errorf("the issue tracker serves %d more operations, want %d", with-without, added)
	}
}
