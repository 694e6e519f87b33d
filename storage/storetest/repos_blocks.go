package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/orgs"
	"github.com/hearthforge/hearth/forge/repos"
)

// testRepoBlocks: repos.Tx.IsBlocked reads the blocks forge/orgs records,
// directed, in the same transaction as the write it guards.
func testRepoBlocks(t *testing.T, b Backend) {
	ctx := context.Background()
	shield := newOrg(t, b, "Shield")
	ann, ben := newUser(t, b, "ann"), newUser(t, b, "ben")
	orgUpdate(t, b.Orgs(), func(tx orgs.Tx) error {
		return tx.SetBlock(ctx, forge.Block{BlockerID: shield.ID, UserID: ann.ID, Created: time.Unix(1700000000, 0)})
	})
	for _, c := range []struct {
		blocker, user forge.ID
		want          bool
	}{{shield.ID, ann.ID, true}, {ann.ID, shield.ID, false}, {shield.ID, ben.ID, false}, {shield.ID, 999999, false}} {
		require.NoError(t, b.Repos().View(ctx, func(tx repos.Tx) error {
			got, err := tx.IsBlocked(ctx, c.blocker, c.user)
			assert.Equal(t, c.want, got, "%d blocks %d", c.blocker, c.user)
			return err
		}))
	}
	// Seen inside an Update that recorded the block.
	require.NoError(t, b.Repos().Update(ctx, func(tx repos.Tx) error {
		got, err := tx.IsBlocked(ctx, shield.ID, ann.ID)
		assert.True(t, got)
		return err
	}))
}
