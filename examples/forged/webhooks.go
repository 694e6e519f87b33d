package main

import (
	"context"
	"log/slog"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/hooks"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/issues"
)

// hookPushes tells the webhook service of pushes (a repos.PushListener).
// Its service is set once built: the webhook service needs the repository
// service, which needs its listeners first.
type hookPushes struct {
	svc *hooks.Service
	log *slog.Logger
}

var _ repos.PushListener = (*hookPushes)(nil)

// AfterPush queues the push's webhook events; it never waits for a
// receiver.
func (p *hookPushes) AfterPush(ctx context.Context, actor forge.Actor, r *forge.Repository, ups []repos.RefUpdate) {
	if p.svc == nil {
		return
	}
	conv := make([]hooks.RefUpdate, len(ups))
	for i, u := range ups {
		conv[i] = hooks.RefUpdate{Ref: u.Ref, OldID: u.OldID, NewID: u.NewID}
	}
	if err := p.svc.Pushed(ctx, actor, r, conv); err != nil {
		p.log.Warn("webhook events not queued", "repo", r.FullName(), "err", err)
	}
}

// hookIssues tells the webhook service of issue events (an
// issues.Listener). Its service is set once built, as hookPushes'.
type hookIssues struct {
	svc *hooks.Service
	log *slog.Logger
}

var _ issues.Listener = (*hookIssues)(nil)

// IssueEvent queues the issues or issue_comment event; it never waits for
// a receiver.
func (h *hookIssues) IssueEvent(ctx context.Context, e issues.Event) {
	if h.svc == nil || e.Issue == nil {
		return
	}
	i := e.Issue
	is := hooks.IssueInfo{ID: i.ID, Number: i.Index, Title: i.Title, Body: i.Body, Closed: i.IsClosed, IsPull: i.IsPull,
		PosterID: i.PosterID, Comments: i.NumComments, Created: i.Created, Updated: i.Updated, ClosedAt: i.Closed}
	var err error
	switch e.Kind {
	case issues.EventCreate:
		err = h.svc.IssueChanged(ctx, e.Actor, e.Repo, is, hooks.ActionOpened)
	case issues.EventClose:
		err = h.svc.IssueChanged(ctx, e.Actor, e.Repo, is, hooks.ActionClosed)
	case issues.EventReopen:
		err = h.svc.IssueChanged(ctx, e.Actor, e.Repo, is, hooks.ActionReopened)
	case issues.EventComment:
		if c := e.Comment; c != nil {
			err = h.svc.IssueCommented(ctx, e.Actor, e.Repo, is, hooks.CommentInfo{ID: c.ID, Body: c.Body,
				PosterID: c.PosterID, Created: c.Created, Updated: c.Updated}, hooks.ActionCreated)
		}
	}
	if err != nil {
		h.log.Warn("webhook events not queued", "repo", e.Repo.FullName(), "issue", i.Index, "err", err)
	}
}

// hookRepos tells the webhook service of repositories created, forked and
// deleted (a repos.RepoListener): default hooks are copied into new
// repositories, and the repository and fork events queued. Its service is
// set once built, as hookPushes'.
type hookRepos struct {
	svc *hooks.Service
	log *slog.Logger
}

var _ repos.RepoListener = (*hookRepos)(nil)

// AfterCreate copies the default hooks and queues the repository event
// "created".
func (h *hookRepos) AfterCreate(ctx context.Context, actor forge.Actor, r *forge.Repository) {
	if h.svc == nil {
		return
	}
	if err := h.svc.RepoCreated(ctx, actor, r); err != nil {
		h.log.Warn("webhook events not queued", "repo", r.FullName(), "err", err)
	}
}

// AfterDelete queues the repository event "deleted".
func (h *hookRepos) AfterDelete(ctx context.Context, actor forge.Actor, r *forge.Repository) {
	if h.svc == nil {
		return
	}
	if err := h.svc.RepoDeleted(ctx, actor, r); err != nil {
		h.log.Warn("webhook events not queued", "repo", r.FullName(), "err", err)
	}
}

// AfterFork queues the fork event for the parent's hooks.
func (h *hookRepos) AfterFork(ctx context.Context, actor forge.Actor, parent, fork *forge.Repository) {
	if h.svc == nil {
		return
	}
	if err := h.svc.Forked(ctx, actor, parent, fork); err != nil {
		h.log.Warn("webhook events not queued", "repo", parent.FullName(), "fork", fork.FullName(), "err", err)
	}
}
