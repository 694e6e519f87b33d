package mirror

import (
	"context"

	"github.com/hearthforge/hearth/forge"
)

// AuthorizePush returns nil when actor may add or change the push mirrors
// of owner/name, else the error those operations return first (the
// token-scope or account-state error, ErrDisabled, the repository's
// not-found error, forge.ErrForbidden `user should be an administrator of
// the repo`, forge.ErrArchived).
//
// It changes nothing and the operations check it all again: it lets the
// API refuse a caller without rights before it reads the request body, as
// Forgejo's middlewares run before its binding.
func (s *Service) AuthorizePush(ctx context.Context, actor forge.Actor, owner, name string) error {
	_, err := s.pushAccess(ctx, actor, owner, name, forge.AccessWrite)
	return err
}
