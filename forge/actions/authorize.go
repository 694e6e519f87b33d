package actions

import (
	"context"

	"github.com/hearthforge/hearth/forge"
)

// Authorize returns nil when actor may act on t as the operation op (a
// Forgejo operationId this package serves, Requirements) requires, else
// the error op returns first: forge.Requirement.Check's (token scope,
// account state, `token is required`, `user should be the site admin`),
// the repository's or organisation's not-found error, ErrActionsDisabled,
// ErrNotRepoOwner, ErrNotOrgOwner, ErrNoActionsWrite; forge.ErrInvalid
// for an op this package does not serve or a t of another level.
//
// It changes nothing and the operations check it all again: it lets the
// API refuse a caller without rights before it reads the request body, as
// Forgejo's middlewares run before its binding.
func (s *Service) Authorize(ctx context.Context, actor forge.Actor, op string, t Target) error {
	o, ok := operations[op]
	if !ok || o.level != t.Level {
		return forge.Errorf(forge.ErrInvalid, "actions: %q is no operation on level %d", op, t.Level)
	}
	_, err := s.resolve(ctx, actor, t, o.access, o.need)
	return err
}
