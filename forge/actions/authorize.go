package actions

import (
	"context"

	"github.com/hearthforge/hearth/forge"
)

// Authorize returns nil when actor may act on t as the writes of this
// package require (with manage, as managing secrets, variables and
// runners: the owner of the level or a site administrator; without, as
// dispatching a workflow: write access to the repository's Actions unit),
// else the error those operations return first: the token-scope or
// account-state error, the repository's or organisation's not-found
// error, ErrActionsDisabled, ErrNotRepoOwner, ErrNotOrgOwner,
// ErrNoActionsWrite, ErrSignInRequired, ErrNotSiteAdmin.
//
// It changes nothing and the operations check it all again: it lets the
// API refuse a caller without rights before it reads the request body, as
// Forgejo's middlewares run before its binding.
func (s *Service) Authorize(ctx context.Context, actor forge.Actor, t Target, manage bool) error {
	n := needWrite
	if manage {
		n = needOwner
	}
	_, err := s.resolve(ctx, actor, t, forge.AccessWrite, n)
	return err
}
