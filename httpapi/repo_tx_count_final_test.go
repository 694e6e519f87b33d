package httpapi_test

import (
	"context"

	"github.com/hearthforge/hearth/forge"
)

// The countingTx wrappers of the repos.Tx methods orgs-final added (the
// others are in repo_tx_count_test.go).

func (x countingTx) IsBlocked(ctx context.Context, blockerID, userID forge.ID) (bool, error) {
	x.s.queries.Add(1)
	return x.Tx.IsBlocked(ctx, blockerID, userID)
}

func (x countingTx) TeamOrgs(ctx context.Context, teamIDs []forge.ID) (map[forge.ID]forge.ID, error) {
	x.s.queries.Add(1)
	return x.Tx.TeamOrgs(ctx, teamIDs)
}
