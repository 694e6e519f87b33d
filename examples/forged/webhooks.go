package main

import (
	"context"
	"log/slog"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/hooks"
	"github.com/hearthforge/hearth/forge/repos"
)

// hookPushes tells the webhook service of pushes (a repos.PushListener).
// Its service is set once built: the webhook service needs the repository
// service, which needs its listeners first.
type hookPushes struct {
	svc *hooks.Service
	log *slog.Logger
}

var _ repos.PushListener = (*hookPushes)(nil)

// AfterPush queues the push's webhook events; it never waits for a
// receiver.
func (p *hookPushes) AfterPush(ctx context.Context, actor forge.Actor, r *forge.Repository, ups []repos.RefUpdate) {
	if p.svc == nil {
		return
	}
	conv := make([]hooks.RefUpdate, len(ups))
	for i, u := range ups {
		conv[i] = hooks.RefUpdate{Ref: u.Ref, OldID: u.OldID, NewID: u.NewID}
	}
	if err := p.svc.Pushed(ctx, actor, r, conv); err != nil {
		p.log.Warn("webhook events not queued", "repo", r.FullName(), "err", err)
	}
}
