package quota_test

import (
	"maps"
	"testing"

	"github.com/hearthforge/hearth/forge/forgetest"
)

func TestDeps(t *testing.T) {
	t.Parallel()
	bad := maps.Clone(forgetest.DomainBadDeps)
	for _, p := range []string{"auth", "issues", "mirror", "forge/repos", "forge/orgs", "forge/actions", "forge/hooks", "forge/notify", "storage", "httpapi"} {
		bad["github.com/hearthforge/hearth/"+p] = "quota imports forge only: domains reach it, it reaches none"
	}
	forgetest.CheckDeps(t, "github.com/hearthforge/hearth/quota", bad)
}
