package site

import (
	"context"

	"github.com/hearthforge/hearth/forge/hooks"
	"github.com/hearthforge/hearth/issues"
)

// editActions are the webhook actions of the issue edit events
// (issues/edit_events.go); the comment edit and delete events are
// issue_comment actions.
var editActions = map[issues.EventKind]string{
	issues.EventEdit:          hooks.ActionEdited,
	issues.EventAssign:        hooks.ActionAssigned,
	issues.EventUnassign:      hooks.ActionUnassigned,
	issues.EventLabel:         hooks.ActionLabelUpdated,
	issues.EventLabelClear:    hooks.ActionLabelCleared,
	issues.EventMilestone:     hooks.ActionMilestoned,
	issues.EventDemilestone:   hooks.ActionDemilestoned,
	issues.EventCommentEdit:   hooks.ActionEdited,
	issues.EventCommentDelete: hooks.ActionDeleted,
}

// editEvent queues the webhook event of an edit event, v its issue, and
// reports whether e was one.
func (h *hookIssues) editEvent(ctx context.Context, e issues.Event, v *issues.IssueView) bool {
	action, ok := editActions[e.Kind]
	if !ok {
		return false
	}
	var err error
	ch := changes(e.Detail)
	switch e.Kind {
	case issues.EventCommentEdit, issues.EventCommentDelete:
		if c := e.Comment; c != nil {
			err = h.ports.IssueCommented(ctx, e.Repo, e.Issue.IsPull, h.payloads.Comment(ctx, e.Actor, v, c, action, ch))
		}
	default:
		if !e.Issue.IsPull {
			err = h.ports.IssueChanged(ctx, e.Repo, false, action, h.payloads.Issue(ctx, e.Actor, v, action, ch))
			break
		}
		pv := h.pullView(ctx, e, v)
		if pv == nil {
			return true
		}
		err = h.ports.IssueChanged(ctx, e.Repo, true, action, h.payloads.Pull(ctx, e.Actor, pv, action, ch))
	}
	if err != nil {
		h.log.Warn("webhook events not queued", "repo", e.Repo.FullName(), "issue", e.Issue.Index, "err", err)
	}
	return true
}
