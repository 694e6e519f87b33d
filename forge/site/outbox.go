package site

import (
	"context"
	"errors"
	"log/slog"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/hooks"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/issues"
)

// outboxHandlers are the webhook adapters the outbox dispatcher hands the
// events to, and the consumers of issue events and ref moves
// (repos.OutboxPush), each retried on its own (hooks.Dispatcher.Consume).
type outboxHandlers struct {
	issues   *hookIssues
	repos    *hookRepos
	releases *hookReleases
	pushes   *hookPushes
	// notify consumes the issue events: the users' notifications.
	notify hooks.OutboxHandler
	// refresh, pulls and mirrors consume the ref moves: the repository's
	// stored size and emptiness, pull requests, push mirrors.
	refresh hooks.OutboxHandler
	pulls   *pullPushes
	mirrors *mirrorPushes
	// checks consumes the commit statuses: the merges scheduled for
	// when the checks succeed.
	checks *pullChecks
	// feeds consumes the issue and repository events: the activity
	// feeds.
	feeds FeedConsumers
}

// newOutbox makes the outbox dispatcher (hooks.Dispatcher; Site.Run runs
// it): the events the domains appended to the outbox in the transactions
// of their changes (woken by wake) become webhook tasks, each once, in the
// transaction that marks them processed; issue events then reach the
// notifications and ref moves their other consumers, each retried until
// it succeeds.
func newOutbox(svc *hooks.Service, wake hooks.Wake, h outboxHandlers, log *slog.Logger) (*hooks.Dispatcher, error) {
	d, err := hooks.NewDispatcher(hooks.DispatcherConfig{Service: svc, Wake: wake, Logger: log})
	if err != nil {
		return nil, err
	}
	d.Handle(issues.OutboxKind, issueHandler(log, "webhooks", func(ctx context.Context, e issues.Event) error {
		h.issues.IssueEvent(ctx, e)
		return nil
	}))
	d.Consume(issues.OutboxKind, "notify", h.notify)
	tell := func(fn func(ctx context.Context, e repos.OutboxEvent)) hooks.OutboxHandler {
		return repoHandler(log, "webhooks", func(ctx context.Context, e repos.OutboxEvent) error {
			fn(ctx, e)
			return nil
		})
	}
	d.Handle(repos.OutboxRepoCreated, tell(func(ctx context.Context, e repos.OutboxEvent) {
		h.repos.AfterCreate(ctx, e.Actor, e.Repo)
	}))
	d.Handle(repos.OutboxRepoDeleted, tell(func(ctx context.Context, e repos.OutboxEvent) {
		h.repos.AfterDelete(ctx, e.Actor, e.Repo)
	}))
	d.Handle(repos.OutboxRepoForked, tell(func(ctx context.Context, e repos.OutboxEvent) {
		if e.Parent != nil {
			h.repos.AfterFork(ctx, e.Actor, e.Parent, e.Repo)
		}
	}))
	d.Handle(repos.OutboxRelease, tell(func(ctx context.Context, e repos.OutboxEvent) {
		if e.Release != nil {
			h.releases.AfterRelease(ctx, e.Actor, e.Repo, *e.Release)
		}
	}))
	d.Handle(repos.OutboxPush, tell(func(ctx context.Context, e repos.OutboxEvent) {
		h.pushes.AfterPush(ctx, e.Actor, e.Repo, e.Updates)
	}))
	d.Consume(repos.OutboxPush, "refresh", h.refresh)
	d.Consume(repos.OutboxPush, "pulls", repoHandler(log, "pull requests", h.pulls.consume))
	d.Consume(repos.OutboxPush, "mirrors", repoHandler(log, "push mirrors", h.mirrors.consume))
	d.Consume(repos.OutboxStatus, "automerge", repoHandler(log, "scheduled merges", h.checks.consume))
	if h.feeds.Issues != nil {
		h.feeds.Register(d)
	}
	return d, nil
}

// issueHandler is the outbox handler that decodes an issue event
// (issues.UnmarshalEvent) for fn, for what (logs). Data that is no event,
// or an event without its issue and repository, is logged and done with:
// it never will be handled. An event of a newer version is left pending
// (its error) for a server that reads it.
func issueHandler(log *slog.Logger, what string, fn func(ctx context.Context, e issues.Event) error) hooks.OutboxHandler {
	return func(ctx context.Context, data []byte) error {
		e, err := issues.UnmarshalEvent(data)
		if err == nil && (e.Repo == nil || e.Issue == nil) {
			err = forge.Errorf(forge.ErrInvalid, "issue event without its issue")
		}
		if err != nil {
			return undecoded(ctx, log, "outbox: issue event not read ("+what+")", err)
		}
		return fn(ctx, e)
	}
}

// repoHandler is issueHandler for the repository events
// (repos.UnmarshalOutbox; an event without its repository is done with).
func repoHandler(log *slog.Logger, what string, fn func(ctx context.Context, e repos.OutboxEvent) error) hooks.OutboxHandler {
	return func(ctx context.Context, data []byte) error {
		e, err := repos.UnmarshalOutbox(data)
		if err == nil && e.Repo == nil {
			err = forge.Errorf(forge.ErrInvalid, "repository event without its repository")
		}
		if err != nil {
			return undecoded(ctx, log, "outbox: repository event not read ("+what+")", err)
		}
		return fn(ctx, e)
	}
}

// undecoded logs an event not decoded and returns what its handler
// returns: the error of an event of a newer version (left pending), nil
// for the others (done with).
func undecoded(ctx context.Context, log *slog.Logger, msg string, err error) error {
	log.WarnContext(ctx, msg, "err", err)
	if errors.Is(err, forge.ErrNewerEvent) {
		return err
	}
	return nil
}
