package storetest

import (
	"context"

	"github.com/hearthforge/hearth/forge"
)

func (x recIssuesTx) LabelIDsByNames(ctx context.Context, names []string) ([]forge.ID, error) {
	x.rec.hit("issues.Tx.LabelIDsByNames")
	return x.Tx.LabelIDsByNames(ctx, names)
}

func (x recIssuesTx) MilestoneIDsByNames(ctx context.Context, names []string) ([]forge.ID, error) {
	x.rec.hit("issues.Tx.MilestoneIDsByNames")
	return x.Tx.MilestoneIDsByNames(ctx, names)
}
