package federation_test

import (
	"maps"
	"testing"

	"github.com/hearthforge/hearth/forge/forgetest"
)

func TestDeps(t *testing.T) {
	t.Parallel()
	bad := maps.Clone(forgetest.DomainBadDeps)
	bad["github.com/42wim/httpsig"] = "HTTP signatures are the transport's: httpapi hands the domain a federation.Signed"
	bad["github.com/hearthforge/hearth/forge/repos"] = "domains do not import each other: federation declares its Store"
	bad["github.com/hearthforge/hearth/auth"] = "domains do not import each other: federation declares its Store"
	forgetest.CheckDeps(t, "github.com/hearthforge/hearth/forge/federation", bad)
}
