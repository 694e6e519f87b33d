package auth

import (
	"context"

	"github.com/hearthforge/hearth/forge"
)

// AuthorizeTokens returns nil when actor may create access tokens for the
// user owner (owner themself or a site administrator: Forgejo's
// reqSelfOrAdmin), else the error CreateToken returns first for any
// option: the token-scope or account-state error, the user's not-found
// error, forge.ErrForbidden `doer should be the site admin or be same as
// the contextUser`.
//
// It changes nothing and CreateToken checks it all again: it lets the API
// refuse a caller without rights before it reads the request body, as
// Forgejo's middlewares run before its binding.
func (s *Service) AuthorizeTokens(ctx context.Context, actor forge.Actor, owner string) error {
	if err := operations["userCreateToken"].Check(actor); err != nil {
		return err
	}
	_, err := s.tokenOwner(ctx, actor, owner)
	return err
}
