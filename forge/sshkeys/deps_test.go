package sshkeys_test

import (
	"maps"
	"testing"

	"github.com/hearthforge/hearth/forge/forgetest"
)

func TestDeps(t *testing.T) {
	t.Parallel()
	bad := maps.Clone(forgetest.DomainBadDeps)
	bad["github.com/hearthforge/hearth/forge/repos"] = "domains do not import each other: sshkeys declares RepoAccess"
	bad["github.com/hearthforge/hearth/auth"] = "domains do not import each other"
	forgetest.CheckDeps(t, "github.com/hearthforge/hearth/forge/sshkeys", bad)
}
