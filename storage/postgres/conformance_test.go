package postgres

import (
	"os"
	"testing"

	"github.com/hearthforge/hearth/storage/storetest"
)

// The conformance suite every backend passes, on a fresh migrated database
// per case.
func TestConformance(t *testing.T) {
	if os.Getenv("HEARTH_PG_CONFORMANCE") == "" {
		t.Skip("the store code's port to PostgreSQL is under way: set HEARTH_PG_CONFORMANCE=1")
	}
	storetest.Run(t, func(t *testing.T) storetest.Backend { return openTest(t) })
}
