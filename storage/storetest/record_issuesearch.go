package storetest

import (
	"context"

	"github.com/hearthforge/hearth/forge"
)

func (x recIssuesTx) SearchableRepos(ctx context.Context, actor forge.Actor, ownerID forge.ID) ([]forge.ID, []forge.ID, error) {
	x.rec.hit("issues.Tx.SearchableRepos")
	return x.Tx.SearchableRepos(ctx, actor, ownerID)
}
