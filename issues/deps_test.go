package issues_test

import (
	"maps"
	"testing"

	"github.com/hearthforge/hearth/forge/forgetest"
)

func TestDeps(t *testing.T) {
	t.Parallel()
	bad := maps.Clone(forgetest.DomainBadDeps)
	bad["github.com/hearthforge/hearth/forge/repos"] = "issues reaches repositories through RepoAccess"
	bad["github.com/hearthforge/hearth/forge/orgs"] = "issues reaches organisations through OrgRoles"
	bad["github.com/hearthforge/hearth/storage"] = "storage implements issues.Store"
	forgetest.CheckDeps(t, "github.com/hearthforge/hearth/issues", bad)
}
