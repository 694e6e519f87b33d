package site

import (
	"context"
	"log/slog"

	"github.com/hearthforge/hearth/forge/hooks"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/issues"
)

// outboxHandlers are the webhook adapters the outbox dispatcher hands the
// events to, and the consumers of ref moves (repos.OutboxPush), each
// retried on its own (hooks.Dispatcher.Consume).
type outboxHandlers struct {
	issues   *hookIssues
	repos    *hookRepos
	releases *hookReleases
	pushes   *hookPushes
	// refresh, pulls and mirrors consume the ref moves: the repository's
	// stored size and emptiness, pull requests, push mirrors.
	refresh hooks.OutboxHandler
	pulls   *pullPushes
	mirrors *mirrorPushes
}

// newOutbox makes the outbox dispatcher (hooks.Dispatcher; Site.Run runs
// it): the events the domains appended to the outbox in the transactions
// of their changes (woken by wake) become webhook tasks, each once, in the
// transaction that marks them processed; ref moves then reach their other
// consumers, each retried until it succeeds.
func newOutbox(svc *hooks.Service, wake hooks.Wake, h outboxHandlers, log *slog.Logger) (*hooks.Dispatcher, error) {
	d, err := hooks.NewDispatcher(hooks.DispatcherConfig{Service: svc, Wake: wake, Logger: log})
	if err != nil {
		return nil, err
	}
	d.Handle(issues.OutboxKind, func(ctx context.Context, data []byte) error {
		e, err := issues.UnmarshalEvent(data)
		if err != nil {
			log.Warn("outbox: issue event not read", "err", err)
			return nil // it never will be
		}
		h.issues.IssueEvent(ctx, e)
		return nil
	})
	repoEvent := func(tell func(ctx context.Context, e repos.OutboxEvent)) hooks.OutboxHandler {
		return func(ctx context.Context, data []byte) error {
			e, err := repos.UnmarshalOutbox(data)
			if err != nil || e.Repo == nil {
				log.Warn("outbox: repository event not read", "err", err)
				return nil
			}
			tell(ctx, e)
			return nil
		}
	}
	d.Handle(repos.OutboxRepoCreated, repoEvent(func(ctx context.Context, e repos.OutboxEvent) {
		h.repos.AfterCreate(ctx, e.Actor, e.Repo)
	}))
	d.Handle(repos.OutboxRepoDeleted, repoEvent(func(ctx context.Context, e repos.OutboxEvent) {
		h.repos.AfterDelete(ctx, e.Actor, e.Repo)
	}))
	d.Handle(repos.OutboxRepoForked, repoEvent(func(ctx context.Context, e repos.OutboxEvent) {
		if e.Parent != nil {
			h.repos.AfterFork(ctx, e.Actor, e.Parent, e.Repo)
		}
	}))
	d.Handle(repos.OutboxRelease, repoEvent(func(ctx context.Context, e repos.OutboxEvent) {
		if e.Release != nil {
			h.releases.AfterRelease(ctx, e.Actor, e.Repo, *e.Release)
		}
	}))
	d.Handle(repos.OutboxPush, repoEvent(func(ctx context.Context, e repos.OutboxEvent) {
		h.pushes.AfterPush(ctx, e.Actor, e.Repo, e.Updates)
	}))
	d.Consume(repos.OutboxPush, "refresh", h.refresh)
	d.Consume(repos.OutboxPush, "pulls", h.pulls.consume)
	d.Consume(repos.OutboxPush, "mirrors", h.mirrors.consume)
	return d, nil
}
