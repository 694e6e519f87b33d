package issues

import (
	"context"

	"github.com/hearthforge/hearth/forge"
)

// Event kinds of issue and pull-request edits (Forgejo's webhook notifier's
// IssueChangeTitle/Content, IssueChangeAssignee, IssueChangeLabels,
// IssueClearLabels, IssueChangeMilestone, UpdateComment and DeleteComment).
// Event.Detail carries the issue's state after the change and what it was
// before.
const (
	// EventEdit: the title or the body changed (Detail.OldTitle,
	// Detail.OldBody: the one that changed is set). One event per field,
	// title first, as Forgejo.
	EventEdit EventKind = "issue_edit"
	// EventAssign and EventUnassign: one user was assigned or unassigned
	// (Event.Comment is the assignee comment: AssigneeID).
	EventAssign   EventKind = "assign"
	EventUnassign EventKind = "unassign"
	// EventLabel: a label operation (add, replace, remove) succeeded,
	// whether or not it changed anything, as Forgejo's label services
	// always notify; or an edit changed labels. EventLabelClear: a
	// ClearLabels.
	EventLabel      EventKind = "label"
	EventLabelClear EventKind = "label_clear"
	// EventMilestone and EventDemilestone: the milestone was set (or
	// changed) or cleared.
	EventMilestone   EventKind = "milestone"
	EventDemilestone EventKind = "demilestone"
	// EventCommentEdit: a comment's body changed (Event.Comment,
	// Detail.OldBody); EventCommentDelete: a comment was deleted
	// (Event.Comment as it was).
	EventCommentEdit   EventKind = "comment_edit"
	EventCommentDelete EventKind = "comment_delete"
)

// Notifies reports whether users' notifications follow events of kind k:
// creations, comments, closing and reopening, pull-request and review
// events do; the edit events above do not (Forgejo's notification service
// makes no notification of them, and a deleted comment has nothing to
// point at).
func (k EventKind) Notifies() bool {
	switch k {
	case EventEdit, EventAssign, EventUnassign, EventLabel, EventLabelClear,
		EventMilestone, EventDemilestone, EventCommentEdit, EventCommentDelete:
		return false
	}
	return true
}

// EventDetail is what the edit events add to an Event: the issue's labels,
// assignees and milestone after the change, and the title or body before.
type EventDetail struct {
	Labels    []*Label
	Assignees []*forge.User
	Milestone *Milestone
	// OldTitle and OldBody are what an EventEdit (OldBody also an
	// EventCommentEdit) changed; nil when that field did not change.
	OldTitle, OldBody *string
}

// emitChanges tells of the edits ch made to the issue of v once committed
// (err nil): the title and body (oldTitle, oldBody were theirs before),
// then each assignee comment, the label comments as one event, and the
// milestone comment, in the order Forgejo's notifier tells them.
func (s *Service) emitChanges(ctx context.Context, err error, actor forge.Actor, v *IssueView, ch *change, oldTitle, oldBody string) {
	if err != nil || v == nil || v.Issue == nil || ch == nil {
		return
	}
	base := func(kind EventKind, c *Comment) Event { return detailEvent(kind, actor, v, c) }
	if v.Issue.Title != oldTitle {
		e := base(EventEdit, nil)
		e.Detail.OldTitle = &oldTitle
		s.emit(ctx, e)
	}
	if v.Issue.Body != oldBody {
		e := base(EventEdit, nil)
		e.Detail.OldBody = &oldBody
		s.emit(ctx, e)
	}
	labels := ch.labels
	for _, c := range ch.made {
		switch c.Type {
		case CommentAssignees:
			kind := EventAssign
			if c.RemovedAssignee {
				kind = EventUnassign
			}
			s.emit(ctx, base(kind, c))
		case CommentLabel:
			labels = true
		case CommentMilestone:
			kind := EventMilestone
			if c.MilestoneID == 0 {
				kind = EventDemilestone
			}
			s.emit(ctx, base(kind, c))
		}
	}
	if labels {
		kind := EventLabel
		if ch.cleared {
			kind = EventLabelClear
		}
		s.emit(ctx, base(kind, nil))
	}
}

// emitCommentChange tells of a comment edited (with its old body; nothing
// when the body did not change) or deleted, once committed (err nil).
func (s *Service) emitCommentChange(ctx context.Context, err error, kind EventKind, actor forge.Actor, repo *forge.Repository, is *Issue, c *Comment, oldBody string) {
	if err != nil || is == nil || c == nil || (kind == EventCommentEdit && c.Body == oldBody) {
		return
	}
	ic, cc := *is, *c
	e := Event{Kind: kind, Actor: actor, Repo: repo, Issue: &ic, Comment: &cc, Detail: &EventDetail{}}
	if kind == EventCommentEdit {
		e.Detail.OldBody = &oldBody
	}
	s.emit(ctx, e)
}

// detailEvent is the event of kind about v, with its detail and comment c
// (copied).
func detailEvent(kind EventKind, actor forge.Actor, v *IssueView, c *Comment) Event {
	is := *v.Issue
	e := Event{Kind: kind, Actor: actor, Repo: v.Repo, Issue: &is,
		Detail: &EventDetail{Labels: v.Labels, Assignees: v.Assignees, Milestone: v.Milestone}}
	if c != nil {
		cc := *c
		e.Comment = &cc
	}
	return e
}

// emitCreateAssignees tells an EventAssign per assignee of an issue just
// created (err nil), before its EventCreate: Forgejo's NewIssue assigns
// them with notification after storing the issue (its labels and
// milestone tell nothing).
func (s *Service) emitCreateAssignees(ctx context.Context, err error, actor forge.Actor, v *IssueView, ch *change) {
	if err != nil || v == nil || v.Issue == nil || ch == nil {
		return
	}
	for _, c := range ch.made {
		if c.Type == CommentAssignees && !c.RemovedAssignee {
			s.emit(ctx, detailEvent(EventAssign, actor, v, c))
		}
	}
}
