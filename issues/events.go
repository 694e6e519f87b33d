package issues

import (
	"context"
	"slices"

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

// Event is a change of an issue, told to Config.Listeners after its
// transaction has committed. Its values are copies the listener may keep.
type Event struct {
	Kind  EventKind
	Actor forge.Actor
	Repo  *forge.Repository
	Issue *Issue
	// Comment is the comment the event made (nil for EventCreate; the
	// close or reopen event comment otherwise when there is one).
	Comment *Comment
	// Pull is the pull request of a pull-request event, nil otherwise.
	Pull *PullRequest
	// Review is the review of EventPullReview and review requests.
	Review *Review
	// Mentioned are the users the text of an EventCreate or EventComment
	// mentions (`@user`, and the members of `@org/team`) who may read the
	// issue, never the actor: Forgejo notifies each of them (its
	// NewIssue and CreateIssueComment notifiers with their mentions).
	Mentioned []forge.ID
	// Detail is set for the edit events of edit_events.go.
	Detail *EventDetail
}

// Listener is told of issue events (notifications, webhooks). IssueEvent
// runs on the caller's goroutine after the change is committed: it must
// not fail the operation, so it returns nothing and logs its own errors.
type Listener interface {
	IssueEvent(ctx context.Context, e Event)
}

// emit records e in the transaction of update (events' ctx), which
// appends it to the outbox and tells the listeners once committed; outside
// one it tells every listener of e at once.
func (s *Service) emit(ctx context.Context, e Event) {
	if sink, _ := ctx.Value(sinkKey{}).(*eventSink); sink != nil {
		sink.list = append(sink.list, e)
		return
	}
	s.tell(ctx, e)
}

// tell tells every listener of e.
func (s *Service) tell(ctx context.Context, e Event) {
	for _, l := range s.cfg.Listeners {
		if l != nil {
			l.IssueEvent(ctx, e)
		}
	}
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

// Participants returns the ids of the users who take part in issue
// issueID: its poster, the posters of its comments and its assignees,
// ascending, each once. It does no authorisation (notify asks it whom to
// tell of an event, and checks each user's permission itself).
// forge.ErrNotFound if there is no such issue.
func (s *Service) Participants(ctx context.Context, issueID forge.ID) ([]forge.ID, error) {
	var ids []forge.ID
	err := s.store.View(ctx, func(tx Tx) error {
		is, err := tx.IssueByID(ctx, issueID)
		if err != nil {
			return err
		}
		ids = append(ids, is.PosterID)
		comments, _, err := tx.ListComments(ctx, CommentFilter{IssueID: issueID, Types: []CommentType{CommentPlain}},
			forge.ListOptions{Page: 1, Limit: -1})
		if err != nil {
			return err
		}
		for _, c := range comments {
			ids = append(ids, c.PosterID)
		}
		as, err := tx.Assignees(ctx, []forge.ID{issueID})
		if err != nil {
			return err
		}
		ids = append(ids, as[issueID]...)
		return nil
	})
	if err != nil {
		return nil, err
	}
	slices.Sort(ids)
	return slices.Compact(slices.DeleteFunc(ids, func(id forge.ID) bool { return id == 0 })), nil
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
