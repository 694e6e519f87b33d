package site

import (
	"context"
	"log/slog"

	"github.com/hearthforge/hearth/forge/notify"
	"github.com/hearthforge/hearth/issues"
)

// issueEvents adapts issues.Listener to notify.Service.Notify: the two
// domains do not import each other. A failure to notify never fails the
// issue operation (it has committed); it is logged.
type issueEvents struct {
	notify *notify.Service
	log    *slog.Logger
}

func (l *issueEvents) IssueEvent(ctx context.Context, e issues.Event) {
	if l.notify == nil || e.Repo == nil || e.Issue == nil || !e.Kind.Notifies() {
		return
	}
	ev := notify.Event{Doer: e.Actor.UserID(), RepoID: e.Repo.ID, IssueID: e.Issue.ID, IsPull: e.Issue.IsPull, Mentioned: e.Mentioned}
	if e.Comment != nil {
		ev.CommentID = e.Comment.ID
	}
	if err := l.notify.Notify(ctx, ev); err != nil {
		l.log.WarnContext(ctx, "site: notify", "issue", e.Issue.ID, "err", err)
	}
}
