package site_test

import (
	"testing"

	"github.com/hearthforge/hearth/forge/forgetest"
)

// TestDeps: the composition root may import every domain, storage and
// httpapi, but no test helper and no host.
func TestDeps(t *testing.T) {
	t.Parallel()
	forgetest.CheckDeps(t, "github.com/hearthforge/hearth/forge/site", map[string]string{
		"github.com/hearthforge/hearth/forge/forgetest":   "test helpers stay out of the library",
		"github.com/hearthforge/hearth/storage/storetest": "test helpers stay out of the library",
		"github.com/hearthforge/hearth/examples":          "hosts import the site, never the reverse",
	})
}
