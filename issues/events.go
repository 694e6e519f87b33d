package issues

import (
	"context"
	"time"

	"github.com/hearthforge/hearth/forge"
)

// EventKind is what happened to an issue.
type EventKind string

// Event kinds.
const (
	EventCreate  EventKind = "create"
	EventComment EventKind = "comment"
	EventClose   EventKind = "close"
	EventReopen  EventKind = "reopen"
)

// Event is a change of an issue, appended to the outbox in the transaction
// of the change (outbox.go, kind OutboxKind, stored as MarshalEvent's
// versioned record): the outbox's consumers (notifications, webhooks)
// receive it once the change has committed, each once. Its values are
// copies a consumer may keep.
type Event struct {
	Kind  EventKind         `json:"kind"`
	Actor forge.Actor       `json:"actor"`
	Repo  *forge.Repository `json:"repo"`
	Issue *Issue            `json:"issue"`
	// Comment is the comment the event made (nil for EventCreate; the
	// close or reopen event comment otherwise when there is one).
	Comment *Comment `json:"comment,omitempty"`
	// Pull is the pull request of a pull-request event, nil otherwise.
	Pull *PullRequest `json:"pull,omitempty"`
	// Review is the review of EventPullReview and review requests.
	Review *Review `json:"review,omitempty"`
	// Mentioned are the users the text of an EventCreate or EventComment
	// mentions (`@user`, and the members of `@org/team`) who may read the
	// issue, never the actor: Forgejo notifies each of them (its
	// NewIssue and CreateIssueComment notifiers with their mentions).
	Mentioned []forge.ID `json:"mentioned,omitempty"`
	// Detail is set for the edit events of edit_events.go.
	Detail *EventDetail `json:"detail,omitempty"`
	// At is when the change committed: its transaction's time, set as
	// it appends the event to the outbox.
	At time.Time `json:"at"`
}

// emit records e in the transaction of update (events' ctx), which
// appends it to the outbox. Every caller emits inside one: an event
// emitted outside would be lost, so it is logged as the programming error
// it is.
func (s *Service) emit(ctx context.Context, e Event) {
	if sink, _ := ctx.Value(sinkKey{}).(*eventSink); sink != nil {
		sink.list = append(sink.list, e)
		return
	}
	s.log.ErrorContext(ctx, "issues: event emitted outside a transaction: lost", "kind", e.Kind)
}

// emitView is emit for an operation's result view, when the operation
// succeeded (err nil).
func (s *Service) emitView(ctx context.Context, err error, kind EventKind, actor forge.Actor, v *IssueView, c *Comment, mentioned ...forge.ID) {
	if err != nil || v == nil || v.Issue == nil {
		return
	}
	is := *v.Issue
	e := Event{Kind: kind, Actor: actor, Repo: v.Repo, Issue: &is, Mentioned: mentioned}
	if c != nil {
		cc := *c
		e.Comment = &cc
	}
	s.emit(ctx, e)
}

// emitComment tells of a new comment when its creation succeeded (err nil).
func (s *Service) emitComment(ctx context.Context, err error, actor forge.Actor, v *CommentView, mentioned ...forge.ID) {
	if err != nil || v == nil || v.Issue == nil || v.Comment == nil {
		return
	}
	is, c := *v.Issue, *v.Comment
	s.emit(ctx, Event{Kind: EventComment, Actor: actor, Repo: v.Repo, Issue: &is, Comment: &c, Mentioned: mentioned})
}

// emitState tells of a close or reopen when an edit changed the issue's
// state from wasClosed and succeeded (err nil).
func (s *Service) emitState(ctx context.Context, err error, actor forge.Actor, v *IssueView, wasClosed bool) {
	if err != nil || v == nil || v.Issue == nil || v.Issue.IsClosed == wasClosed {
		return
	}
	kind := EventReopen
	if v.Issue.IsClosed {
		kind = EventClose
	}
	s.emitView(ctx, nil, kind, actor, v, nil)
}
