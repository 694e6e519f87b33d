package sqlite_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/storage/sqlite"
	"github.com/hearthforge/hearth/storage/storetest"
)

func TestConformanceMemory(t *testing.T) {
	storetest.Run(t, func(t *testing.T) storetest.Backend {
		db, err := sqlite.Open(context.Background(), ":memory:")
		require.NoError(t, err)
		t.Cleanup(func() { db.Close() })
		return db
	})
}

func TestConformanceFile(t *testing.T) {
	storetest.Run(t, func(t *testing.T) storetest.Backend {
		db, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "hearth.db"))
		require.NoError(t, err)
		t.Cleanup(func() { db.Close() })
		return db
	})
}

func TestReopenKeepsSchemaAndData(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "hearth.db")
	db, err := sqlite.Open(ctx, path)
	require.NoError(t, err)
	require.NoError(t, db.Close())
	db, err = sqlite.Open(ctx, path) // migrations already applied: a no-op
	require.NoError(t, err)
	require.NoError(t, db.Close())
}
