package storetest

import (
	"context"

	"github.com/hearthforge/hearth/forge"
)

func (x recIssuesTx) AddMentions(ctx context.Context, issueID forge.ID, userIDs []forge.ID) error {
	x.rec.hit("issues.Tx.AddMentions")
	return x.Tx.AddMentions(ctx, issueID, userIDs)
}
