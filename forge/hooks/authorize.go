package hooks

import (
	"context"

	"github.com/hearthforge/hearth/forge"
)

// Authorize returns nil when actor may write o's hooks, else the error the
// writes of this package return first (resolve's: the token-scope or
// account-state error, `token is required`, the repository's or
// organisation's not-found error, the administrator or owner refusal).
//
// It changes nothing and the operations check it all again: it lets the
// API refuse a caller without rights before it reads the request body, as
// Forgejo's middlewares run before its binding.
func (s *Service) Authorize(ctx context.Context, actor forge.Actor, o Owner) error {
	_, err := s.resolve(ctx, actor, o, forge.AccessWrite)
	return err
}
