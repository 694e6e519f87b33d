package orgs

import (
	"context"

	"github.com/hearthforge/hearth/forge"
)

// RepoTeams lists the teams that have the repository owner/repo (GET
// /repos/{owner}/{repo}/teams). Needs read:repository and read access to
// the repository. forge.ErrInvalid (Forgejo's 404? see body) when the
// owner is no organisation.
func (s *Service) RepoTeams(ctx context.Context, actor forge.Actor, owner, repo string) ([]*forge.Team, error) {
	return nil, errTodo
}

// RepoTeam returns the team named team of the repository's organisation
// if it has the repository; forge.ErrNotFound otherwise. Needs
// read:repository and read access.
func (s *Service) RepoTeam(ctx context.Context, actor forge.Actor, owner, repo, team string) (*forge.Team, error) {
	return nil, errTodo
}

// AddRepoTeam gives the team named team the repository. Needs
// write:repository and an owner of the organisation, or a repository
// administrator when the organisation has RepoAdminChangeTeamAccess.
// forge.ErrInvalid (Forgejo's 422) when the team already has it.
func (s *Service) AddRepoTeam(ctx context.Context, actor forge.Actor, owner, repo, team string) error {
	return errTodo
}

// RemoveRepoTeam takes the repository from the team named team. As
// AddRepoTeam; forge.ErrInvalid when the team does not have it.
func (s *Service) RemoveRepoTeam(ctx context.Context, actor forge.Actor, owner, repo, team string) error {
	return errTodo
}
