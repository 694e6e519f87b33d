package notify_test

import (
	"maps"
	"testing"

	"github.com/hearthforge/hearth/forge/forgetest"
)

func TestDeps(t *testing.T) {
	t.Parallel()
	bad := maps.Clone(forgetest.DomainBadDeps)
	bad["github.com/hearthforge/hearth/issues"] = "domains do not import each other: the composition root hands issue events to Ports.Notify"
	bad["github.com/hearthforge/hearth/forge/repos"] = "domains do not import each other: notify declares Repos and Watchers"
	forgetest.CheckDeps(t, "github.com/hearthforge/hearth/forge/notify", bad)
}
