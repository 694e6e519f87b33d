package gpgkeys_test

import (
	"maps"
	"testing"

	"github.com/hearthforge/hearth/forge/forgetest"
)

func TestDeps(t *testing.T) {
	t.Parallel()
	bad := maps.Clone(forgetest.DomainBadDeps)
	bad["github.com/hearthforge/hearth/auth"] = "domains do not import each other: gpgkeys declares Users and Emails"
	bad["github.com/hearthforge/hearth/forge/repos"] = "domains do not import each other: gpgkeys declares Repos"
	forgetest.CheckDeps(t, "github.com/hearthforge/hearth/forge/gpgkeys", bad)
}
