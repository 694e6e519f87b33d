package storetest

import (
	"context"

	"github.com/hearthforge/hearth/forge"
)

func (x recReposTx) IsBlocked(ctx context.Context, blockerID, userID forge.ID) (bool, error) {
	x.rec.hit("repos.Tx.IsBlocked")
	return x.Tx.IsBlocked(ctx, blockerID, userID)
}

func (x recReposTx) TeamOrgs(ctx context.Context, teamIDs []forge.ID) (map[forge.ID]forge.ID, error) {
	x.rec.hit("repos.Tx.TeamOrgs")
	return x.Tx.TeamOrgs(ctx, teamIDs)
}
