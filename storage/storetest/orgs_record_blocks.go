package storetest

import (
	"context"

	"github.com/hearthforge/hearth/forge"
)

// The recording of the orgs.Tx methods that block cascades use (in a file
// of its own beside record_orgs.go).

func (x recOrgsTx) DropBlocked(ctx context.Context, ownerID, userID forge.ID) error {
	x.rec.hit("orgs.Tx.DropBlocked")
	return x.Tx.DropBlocked(ctx, ownerID, userID)
}
