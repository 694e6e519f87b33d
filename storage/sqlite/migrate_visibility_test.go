package sqlite

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
)

// Migration 00010 gives users stored with an empty visibility the default,
// public, so that their public repositories are listed to everyone, as
// repos.Permission grants.
func TestMigrationDefaultsEmptyVisibility(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "old.db")
	oldDatabase(t, path, 9,
		`INSERT INTO users (id, name, lower_name, email, lower_email, visibility, created_unix, updated_unix)
		 VALUES (1, 'Ann', 'ann', 'ann@x', 'ann@x', '', 1, 1), (2, 'Lim', 'lim', 'lim@x', 'lim@x', 'limited', 1, 1)`,
	)

	db, err := Open(ctx, path)
	require.NoError(t, err)
	defer db.Close()
	require.NoError(t, db.Repos().View(ctx, func(tx repos.Tx) error {
		for id, want := range map[forge.ID]forge.Visibility{1: forge.VisibilityPublic, 2: forge.VisibilityLimited} {
			u, err := tx.UserByID(ctx, id)
			require.NoError(t, err)
			require.Equal(t, want, u.Visibility)
		}
		return nil
	}))
}
