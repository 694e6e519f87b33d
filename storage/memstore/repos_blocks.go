package memstore

import (
	"context"

	"github.com/hearthforge/hearth/forge"
)

// IsBlocked implements repos.Tx over the blocks forge/orgs records.
func (t *tx) IsBlocked(ctx context.Context, blockerID, userID forge.ID) (bool, error) {
	return orgTx{t}.IsBlocked(ctx, blockerID, userID)
}
