package orgs

import (
	"context"
	"time"

	"github.com/hearthforge/hearth/forge"
)

// Blocked is a user an organisation blocks, with when.
type Blocked struct {
	User    *forge.User
	Created time.Time
}

// ListBlocked returns one page of the users org blocks, newest first.
// Needs read:organization and an owner.
func (s *Service) ListBlocked(ctx context.Context, actor forge.Actor, org string, o forge.ListOptions) ([]Blocked, int64, error) {
	return nil, 0, errTodo
}

// Block makes org block user: the user leaves the organisation's teams and
// membership. Needs write:organization and an owner. forge.ErrNotFound for
// an unknown user; forge.ErrInvalid for blocking oneself, an organisation
// or an already blocked user (Forgejo's messages).
func (s *Service) Block(ctx context.Context, actor forge.Actor, org, user string) error {
	return errTodo
}

// Unblock lifts a block. Needs write:organization and an owner.
// forge.ErrNotFound for an unknown user; forge.ErrInvalid for a user that
// is not blocked.
func (s *Service) Unblock(ctx context.Context, actor forge.Actor, org, user string) error {
	return errTodo
}
