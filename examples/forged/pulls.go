package main

import (
	"context"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/issues"
)

// pullPushes is the repository service's push listener for pull requests
// (issues.Service.AfterPush: heads synchronised, stale reviews, retargeting
// on branch deletion). The issue service is built after the repository
// service it needs, so its field is set once both exist; pushes before that
// (none: the server listens later) are ignored.
// The pull requests whose base moved are queued for the checker
// (issues.Service.Run, started in run()); an error is a write of that
// queue's durable marker that failed.
type pullPushes struct{ svc *issues.Service }

var _ repos.PushListener = (*pullPushes)(nil)

func (p *pullPushes) AfterPush(ctx context.Context, actor forge.Actor, r *forge.Repository, updates []repos.RefUpdate) {
	if p.svc != nil {
		_ = p.svc.AfterPush(ctx, actor, r, updates)
	}
}
