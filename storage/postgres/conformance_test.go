package postgres

import (
	"testing"

	"github.com/hearthforge/hearth/storage/storetest"
)

// The conformance suite every backend passes, on a fresh migrated database
// per case.
func TestConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T) storetest.Backend { return openTest(t) })
}
