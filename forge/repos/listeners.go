package repos

import (
	"context"

	"github.com/hearthforge/hearth/forge"
)

// RepoListener is told of repositories created, forked and deleted, after
// the change is committed (webhooks' repository and fork events, default
// hooks copied into new repositories). It runs in the request that made
// the change and cannot fail it: long work belongs in a queue of the
// listener's own, and errors are the listener's to log.
type RepoListener interface {
	// AfterCreate follows a repository's creation by Create or CreateInOrg
	// (for the actor, an organisation, or another user by an administrator).
	AfterCreate(ctx context.Context, actor forge.Actor, repo *forge.Repository)
	// AfterDelete follows a repository's deletion; repo is as it was.
	AfterDelete(ctx context.Context, actor forge.Actor, repo *forge.Repository)
	// AfterFork follows Fork and ForkInto: parent was forked into fork.
	AfterFork(ctx context.Context, actor forge.Actor, parent, fork *forge.Repository)
}

// notifyCreated tells the listeners of the repository r created.
func (s *Service) notifyCreated(ctx context.Context, actor forge.Actor, r *forge.Repository) {
	for _, l := range s.cfg.RepoListeners {
		l.AfterCreate(ctx, actor, copyRepo(r))
	}
}

// notifyDeleted tells the listeners of the repository r deleted.
func (s *Service) notifyDeleted(ctx context.Context, actor forge.Actor, r *forge.Repository) {
	for _, l := range s.cfg.RepoListeners {
		l.AfterDelete(ctx, actor, copyRepo(r))
	}
}

// notifyForked tells the listeners of parent forked into fork.
func (s *Service) notifyForked(ctx context.Context, actor forge.Actor, parent, fork *forge.Repository) {
	for _, l := range s.cfg.RepoListeners {
		l.AfterFork(ctx, actor, copyRepo(parent), copyRepo(fork))
	}
}

// copyRepo is a shallow copy of r, so that a listener keeping it does not
// see later changes of the service's value.
func copyRepo(r *forge.Repository) *forge.Repository {
	c := *r
	return &c
}
