package sqlite_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/auth"
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
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "hearth.db")
	db, err := sqlite.Open(ctx, path)
	require.NoError(t, err)
	svc, err := auth.New(auth.Config{Store: db.Auth()})
	require.NoError(t, err)
	mustChange := false
	created, err := svc.EnsureAdmin(ctx, auth.CreateUserOptions{Name: "root", Email: "root@example.com",
		Password: "root-password-1", MustChangePassword: &mustChange})
	require.NoError(t, err)
	require.True(t, created)
	require.NoError(t, db.Close())

	// Migrations already applied: reopening runs none again, and what was
	// written is there: the administrator exists (not created twice) and
	// signs in with the password written before the close.
	db, err = sqlite.Open(ctx, path)
	require.NoError(t, err)
	defer db.Close()
	svc, err = auth.New(auth.Config{Store: db.Auth()})
	require.NoError(t, err)
	created, err = svc.EnsureAdmin(ctx, auth.CreateUserOptions{Name: "other", Email: "other@example.com",
		Password: "other-password-1", MustChangePassword: &mustChange})
	require.NoError(t, err)
	require.False(t, created, "the administrator written before the reopen is gone")
	actor, err := svc.Authenticate(ctx, auth.Credentials{Basic: true, Username: "root", Password: "root-password-1"})
	require.NoError(t, err)
	require.Equal(t, "root", actor.User.Name)
	require.Equal(t, "root@example.com", actor.User.Email)
	require.True(t, actor.User.IsAdmin)
	_, err = svc.Authenticate(ctx, auth.Credentials{Basic: true, Username: "root", Password: "wrong-password"})
	require.Error(t, err)
}
