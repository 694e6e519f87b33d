package site

import (
	"context"
	"log/slog"

	"github.com/hearthforge/hearth/forge/hooks"
	"github.com/hearthforge/hearth/forge/notify"
	"github.com/hearthforge/hearth/issues"
)

// IssueNotifications returns the outbox consumer of issue events
// (issues.OutboxKind; register it with hooks.Dispatcher.Consume) that
// makes their users' notifications: notify.Ports.Notify of each event
// whose kind notifies (issues.EventKind.Notifies). Notify is idempotent
// (a thread per user and issue, brought up to date when told again), so
// an error a retry may cure (hooks.Transient: the store failing) leaves
// the event pending and the dispatcher hands it again until it succeeds;
// the others are logged and done with. New wires it; it is exported for
// hosts and tests that run their own dispatcher.
func IssueNotifications(n *notify.Ports, log *slog.Logger) hooks.OutboxHandler {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return issueHandler(log, "notifications", func(ctx context.Context, e issues.Event) error {
		if !e.Kind.Notifies() {
			return nil
		}
		ev := notify.Event{Doer: e.Actor.UserID(), RepoID: e.Repo.ID, IssueID: e.Issue.ID, IsPull: e.Issue.IsPull,
			Mentioned: e.Mentioned, At: e.At}
		if e.Comment != nil {
			ev.CommentID = e.Comment.ID
		}
		err := n.Notify(ctx, ev)
		if err != nil {
			log.WarnContext(ctx, "outbox: notifications", "issue", e.Issue.ID, "err", err)
		}
		return hooks.Transient(err)
	})
}
