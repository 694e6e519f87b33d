package httpapi

import (
	"os"
	"testing"

	"github.com/hearthforge/hearth/storage/dbtest"
)

// TestMain stops the PostgreSQL cluster the tests started when they ran on
// PostgreSQL (HEARTH_TEST_DB=postgres go test ./httpapi; see
// storage/dbtest). On SQLite it only runs the tests.
func TestMain(m *testing.M) { os.Exit(dbtest.Main(m)) }
