package orgs

import (
	"context"

	"github.com/hearthforge/hearth/forge"
)

// TeamRepos is one page of a team's repositories; they all belong to Org.
type TeamRepos struct {
	Org   *forge.User
	Repos []*forge.Repository
	Total int64
}

// ListTeamRepos returns one page of a team's repositories. Needs
// read:organization and a member of its organisation.
func (s *Service) ListTeamRepos(ctx context.Context, actor forge.Actor, id forge.ID, o forge.ListOptions) (*TeamRepos, error) {
	return nil, errTodo
}

// TeamRepo returns the repository org/repo if the team has it;
// forge.ErrNotFound otherwise. Needs read:organization and a member of the
// team's organisation.
func (s *Service) TeamRepo(ctx context.Context, actor forge.Actor, id forge.ID, org, repo string) (*forge.Repository, error) {
	return nil, errTodo
}

// AddTeamRepo gives a team the repository org/repo, which must belong to
// the team's organisation (forge.ErrNotFound otherwise). Needs
// write:organization and an owner.
func (s *Service) AddTeamRepo(ctx context.Context, actor forge.Actor, id forge.ID, org, repo string) error {
	return errTodo
}

// RemoveTeamRepo takes the repository org/repo from a team (no error if
// it does not have it). Needs write:organization and an owner.
func (s *Service) RemoveTeamRepo(ctx context.Context, actor forge.Actor, id forge.ID, org, repo string) error {
	return errTodo
}
