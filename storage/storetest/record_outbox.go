package storetest

import (
	"context"
	"time"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/hooks"
)

// The recording methods of the outbox (outbox.go).

func (x recHooksTx) AppendOutbox(ctx context.Context, kind string, data []byte, at time.Time) error {
	x.rec.hit("hooks.Tx.AppendOutbox")
	return x.Tx.AppendOutbox(ctx, kind, data, at)
}

func (x recHooksTx) ClaimOutbox(ctx context.Context, claim string, now, until time.Time, limit int) ([]*hooks.OutboxEvent, error) {
	x.rec.hit("hooks.Tx.ClaimOutbox")
	return x.Tx.ClaimOutbox(ctx, claim, now, until, limit)
}

func (x recHooksTx) FinishOutbox(ctx context.Context, id forge.ID, claim string, at time.Time) error {
	x.rec.hit("hooks.Tx.FinishOutbox")
	return x.Tx.FinishOutbox(ctx, id, claim, at)
}

func (x recIssuesTx) AppendOutbox(ctx context.Context, kind string, data []byte, at time.Time) error {
	x.rec.hit("issues.Tx.AppendOutbox")
	return x.Tx.AppendOutbox(ctx, kind, data, at)
}

func (x recReposTx) AppendOutbox(ctx context.Context, kind string, data []byte, at time.Time) error {
	x.rec.hit("repos.Tx.AppendOutbox")
	return x.Tx.AppendOutbox(ctx, kind, data, at)
}

func (x recHooksTx) PruneOutbox(ctx context.Context, before time.Time) (int64, error) {
	x.rec.hit("hooks.Tx.PruneOutbox")
	return x.Tx.PruneOutbox(ctx, before)
}
