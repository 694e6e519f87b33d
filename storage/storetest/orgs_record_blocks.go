package storetest

import (
	"context"

	"github.com/hearthforge/hearth/forge"
)

// The recording of the orgs.Tx methods that block cascades use (in a file
// of its own beside record_orgs.go).

func (x recOrgsTx) DropFromOwnerRepos(ctx context.Context, ownerID, userID forge.ID) error {
	x.rec.hit("orgs.Tx.DropFromOwnerRepos")
	return x.Tx.DropFromOwnerRepos(ctx, ownerID, userID)
}
