package hooks

import (
	"context"
	"errors"

	"github.com/hearthforge/hearth/forge"
)

// Ports are the webhook service's trusted ports: the sinks the composition
// root (forge/site) queues the events of every domain through, with the
// payloads it built (Forgejo's full objects, httpapi/convert). They check
// nothing: whoever holds them queues signed deliveries of what it passes,
// so only NewWithPorts makes one, and only the composition root should hold
// it. What hooks decides is which hooks receive an event (its event word,
// X-Forgejo-Event and X-Forgejo-Event-Type, the branch filters), the
// delivery, the signing and the per-type conversions.
type Ports struct{ s *Service }

// NewWithPorts is New, with the service's trusted ports, for the
// composition root. New(cfg) is the same service without them.
func NewWithPorts(cfg Config) (*Service, *Ports, error) {
	s, err := New(cfg)
	if err != nil {
		return nil, nil, err
	}
	return s, &Ports{s: s}, nil
}

// Enqueue queues ev for every active hook that receives it: the
// repository's hooks, its owner's (organisation or user) hooks and the
// system hooks, whose events include ev.Word and whose branch filter
// passes ev.Branch. Hooks of a type Hearth does not deliver (see
// Deliverable) get nothing. It returns once the
// tasks are stored; Run delivers them, in the hook type's format. Called
// with the ctx of an OutboxHandler it stores nothing: the Dispatcher
// stores the tasks in the transaction that marks the event processed (as
// it does the default hooks RepoCreated and Forked copy).
func (p *Ports) Enqueue(ctx context.Context, ev Event) error {
	s := p.s
	if c := collectorFrom(ctx); c != nil {
		// Handling an outbox event: the dispatcher stores the tasks in
		// the transaction that marks the event processed.
		c.ops = append(c.ops, op{ev: ev})
		return nil
	}
	n := 0
	err := s.store.Update(ctx, func(tx Tx) error {
		var err error
		n, err = s.enqueueTx(ctx, tx, ev)
		return err
	})
	if err == nil && n > 0 {
		s.signal()
	}
	return err
}

// RefEvents reports which events a reference update sends, as Forgejo's
// notifier: create for a branch or tag the update creates, delete for one
// it removes, push for every update of a branch or tag that does not
// remove it. A reference that is neither (refs/notes/commits, written by
// a push or the notes API, refs/pull/…) sends none: Forgejo's post-receive
// hook ignores those refs.
func RefEvents(u RefUpdate) (create, del, push bool) {
	kind, _ := RefKind(u.Ref)
	if kind == "" {
		return false, false, false
	}
	return IsZeroID(u.OldID), IsZeroID(u.NewID), !IsZeroID(u.NewID)
}

// RefPayloads are the payloads of one reference update, one for each event
// RefEvents names (nil for the others): Forgejo's CreatePayload,
// DeletePayload and PushPayload.
type RefPayloads struct {
	Update               RefUpdate
	Create, Delete, Push any
}

// Pushed queues the events of a push, update by update: create, delete
// and push (RefEvents), each for the hooks whose branch filter passes the
// branch.
func (p *Ports) Pushed(ctx context.Context, repo *forge.Repository, refs []RefPayloads) error {
	var errs []error
	for _, r := range refs {
		kind, short := RefKind(r.Update.Ref)
		branch := ""
		if kind == "branch" {
			branch = short
		}
		create, del, push := RefEvents(r.Update)
		for _, ev := range []struct {
			word    string
			on      bool
			payload any
		}{{"create", create, r.Create}, {"delete", del, r.Delete}, {"push", push, r.Push}} {
			if ev.on {
				errs = append(errs, p.Enqueue(ctx, Event{Word: ev.word, Repo: repo, Branch: branch, Payload: ev.payload}))
			}
		}
	}
	return errors.Join(errs...)
}

// RepoCreated copies the default hooks into a new repository (as
// repository hooks) and queues the repository event "created" (payload:
// Forgejo's RepositoryPayload) for the hooks of its owner and the system
// hooks.
func (p *Ports) RepoCreated(ctx context.Context, repo *forge.Repository, payload any) error {
	if err := p.s.copyDefaults(ctx, repo); err != nil {
		return err
	}
	return p.Enqueue(ctx, Event{Word: "repository", Repo: repo, Payload: payload})
}

// RepoDeleted queues the repository event "deleted" (payload: Forgejo's
// RepositoryPayload) for the hooks of the repository's owner and the
// system hooks (the repository's own hooks are gone with it).
func (p *Ports) RepoDeleted(ctx context.Context, repo *forge.Repository, payload any) error {
	return p.Enqueue(ctx, Event{Word: "repository", Repo: repo, Payload: payload})
}

// Forked copies the default hooks into the new fork, as RepoCreated does
// (Forgejo creates forks through the same CreateRepositoryByExample),
// queues the fork event (payload: Forgejo's ForkPayload) for the hooks of
// the repository forked (parent) and, when created is not nil (a fork into
// an organisation, as Forgejo's notifier), the repository event "created"
// with that payload for the fork's hooks, its organisation's and the
// system hooks.
func (p *Ports) Forked(ctx context.Context, parent, fork *forge.Repository, payload, created any) error {
	if err := p.s.copyDefaults(ctx, fork); err != nil {
		return err
	}
	err := p.Enqueue(ctx, Event{Word: "fork", Repo: parent, Payload: payload})
	if created != nil {
		err = errors.Join(err, p.Enqueue(ctx, Event{Word: "repository", Repo: fork, Payload: created}))
	}
	return err
}

// IssueChanged queues the issues event of an issue (isPull false) or the
// pull_request event of a pull request with action (payload: Forgejo's
// IssuePayload or PullRequestPayload, with changes for ActionEdited): the
// hooks receiving it are those subscribed to IssueEventWord(action,
// isPull), or pull_request_sync for ActionSynchronized.
func (p *Ports) IssueChanged(ctx context.Context, repo *forge.Repository, isPull bool, action string, payload any) error {
	word, name, typ := IssueEventWord(action, isPull)
	if isPull && action == ActionSynchronized {
		word, typ = "pull_request_sync", "pull_request_sync"
	}
	return p.Enqueue(ctx, Event{Word: word, Name: name, Type: typ, Repo: repo, Payload: payload})
}

// IssueCommented queues the issue_comment event of a comment created,
// edited or deleted (payload: Forgejo's IssueCommentPayload), under the
// word and event type pull_request_comment for a pull request's.
func (p *Ports) IssueCommented(ctx context.Context, repo *forge.Repository, isPull bool, payload any) error {
	word := "issue_comment"
	if isPull {
		word = "pull_request_comment"
	}
	return p.Enqueue(ctx, Event{Word: word, Name: "issue_comment", Type: word, Repo: repo, Payload: payload})
}

// PullReviewed queues the review event of a submitted review of kind
// ReviewApproved, ReviewRejected or ReviewComment (payload: Forgejo's
// PullRequestPayload with review): word pull_request_review;
// X-Forgejo-Event pull_request_approved, pull_request_rejected or
// pull_request_comment and X-Forgejo-Event-Type kind, as Forgejo.
// forge.ErrInvalid for another kind.
func (p *Ports) PullReviewed(ctx context.Context, repo *forge.Repository, kind string, payload any) error {
	name, ok := reviewEventName[kind]
	if !ok {
		return forge.Errorf(forge.ErrInvalid, "hooks: review event: %q", kind)
	}
	return p.Enqueue(ctx, Event{Word: "pull_request_review", Name: name, Type: kind, Repo: repo, Payload: payload})
}

// PullReviewRequested queues the pull_request event of a review requested
// or its request removed (payload: Forgejo's PullRequestPayload with
// requested_reviewer, action ActionReviewRequested or
// ActionReviewRequestRemoved): word pull_request_review_request,
// X-Forgejo-Event pull_request and X-Forgejo-Event-Type
// pull_request_review_request, as Forgejo's notifier
// PullRequestReviewRequest.
func (p *Ports) PullReviewRequested(ctx context.Context, repo *forge.Repository, payload any) error {
	return p.Enqueue(ctx, Event{Word: "pull_request_review_request", Name: "pull_request", Type: "pull_request_review_request",
		Repo: repo, Payload: payload})
}

// ReleaseChanged queues the release event (word release) with action
// ReleasePublished, ReleaseUpdated or ReleaseDeleted (payload: Forgejo's
// ReleasePayload), as Forgejo's notifier sendReleaseHook.
// forge.ErrInvalid for another action.
func (p *Ports) ReleaseChanged(ctx context.Context, repo *forge.Repository, action string, payload any) error {
	switch action {
	case ReleasePublished, ReleaseUpdated, ReleaseDeleted:
	default:
		return forge.Errorf(forge.ErrInvalid, "hooks: release action: %q", action)
	}
	return p.Enqueue(ctx, Event{Word: "release", Repo: repo, Payload: payload})
}
