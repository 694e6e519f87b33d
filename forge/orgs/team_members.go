package orgs

import (
	"context"

	"github.com/hearthforge/hearth/forge"
)

// ListTeamMembers returns one page of a team's members. Needs
// read:organization and a member of its organisation.
func (s *Service) ListTeamMembers(ctx context.Context, actor forge.Actor, id forge.ID, o forge.ListOptions) ([]*forge.User, int64, error) {
	return nil, 0, errTodo
}

// TeamMember returns the member named user of a team; forge.ErrNotFound
// if the user is unknown or not in the team. Needs read:organization and a
// member of its organisation.
func (s *Service) TeamMember(ctx context.Context, actor forge.Actor, id forge.ID, user string) (*forge.User, error) {
	return nil, errTodo
}

// AddTeamMember adds user to a team, making them a member of its
// organisation. Needs write:organization and an owner. forge.ErrNotFound
// for an unknown user; forge.ErrInvalid for an organisation or a user the
// organisation blocks.
func (s *Service) AddTeamMember(ctx context.Context, actor forge.Actor, id forge.ID, user string) error {
	return errTodo
}

// RemoveTeamMember removes user from a team; a user left in no team of
// the organisation leaves it. Needs write:organization and an owner. The
// Owners team is never left empty (forge.ErrInvalid `user is the last
// member of owner team [uid: N]`). forge.ErrNotFound for an unknown user.
func (s *Service) RemoveTeamMember(ctx context.Context, actor forge.Actor, id forge.ID, user string) error {
	return errTodo
}
