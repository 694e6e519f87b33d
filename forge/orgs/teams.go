package orgs

import (
	"context"

	"github.com/hearthforge/hearth/forge"
)

// TeamView is a team with its organisation (Forgejo fills the team JSON's
// `organization` on create, GET /teams/{id} and /user/teams only: the
// handler decides).
type TeamView struct {
	Team *forge.Team
	Org  *forge.User
}

// CreateTeamOptions are the fields of a new team (Forgejo's
// CreateTeamOption), as sent: the service applies Forgejo's rules
// (TeamAccess).
type CreateTeamOptions struct {
	Name        string
	Description string
	// Permission is "read", "write" or "admin"; anything else means none.
	Permission string
	// Units is the deprecated list of unit keys.
	Units []string
	// UnitsMap maps unit keys to "none", "read", "write" or "admin".
	UnitsMap         map[string]string
	IncludesAllRepos bool
	CanCreateOrgRepo bool
}

// EditTeamOptions change a team (Forgejo's EditTeamOption); nil fields and
// empty Units/UnitsMap are left unchanged.
type EditTeamOptions struct {
	Name             *string
	Description      *string
	Permission       *string
	Units            []string
	UnitsMap         map[string]string
	IncludesAllRepos *bool
	CanCreateOrgRepo *bool
}

// CreateTeam creates a team in org. Needs write:organization and an owner
// (forge.ErrForbidden `Must be an organization member` for non-members,
// `Must be an organization owner` for members). forge.ErrInvalid for an
// invalid name, `units permission should not be empty` (Forgejo answers
// it with a 500: a bug) and `team already exists [org_id: N, name: X]`.
// A team that includes all repositories gets every repository of org.
func (s *Service) CreateTeam(ctx context.Context, actor forge.Actor, org string, opts CreateTeamOptions) (*TeamView, error) {
	return nil, errTodo
}

// GetTeam returns a team by id. Needs read:organization and a member of
// the team's organisation (or a site administrator); forge.ErrNotFound for
// a missing team and for one the actor may not see.
func (s *Service) GetTeam(ctx context.Context, actor forge.Actor, id forge.ID) (*TeamView, error) {
	return nil, errTodo
}

// EditTeam changes a team and returns it. Needs write:organization and an
// owner of its organisation. The Owners team keeps its name, mode and
// units (only its description, can_create_org_repo and
// includes_all_repositories change). forge.ErrInvalid for invalid input or
// a taken name.
func (s *Service) EditTeam(ctx context.Context, actor forge.Actor, id forge.ID, opts EditTeamOptions) (*TeamView, error) {
	return nil, errTodo
}

// DeleteTeam removes a team with its members and repositories; members
// left in no team leave the organisation. Needs write:organization and an
// owner. The Owners team cannot be deleted (forge.ErrInvalid).
func (s *Service) DeleteTeam(ctx context.Context, actor forge.Actor, id forge.ID) error {
	return errTodo
}

// ListTeams returns one page of org's teams ordered by name (GET
// /orgs/{org}/teams): every team for owners and site administrators, the
// actor's own teams for other members. Needs read:organization and a
// member.
func (s *Service) ListTeams(ctx context.Context, actor forge.Actor, org string, o forge.ListOptions) ([]*forge.Team, int64, error) {
	return nil, 0, errTodo
}

// SearchTeams returns one page of org's teams whose name (or, with
// includeDesc, description) contains q, ignoring case, as ListTeams
// restricts them.
func (s *Service) SearchTeams(ctx context.Context, actor forge.Actor, org, q string, includeDesc bool, o forge.ListOptions) ([]*forge.Team, int64, error) {
	return nil, 0, errTodo
}

// ListUserTeams returns one page of the teams the actor is in, in every
// organisation (GET /user/teams). Needs a signed-in actor and
// read:user... Forgejo's route is in the user group: read:user.
func (s *Service) ListUserTeams(ctx context.Context, actor forge.Actor, o forge.ListOptions) ([]TeamView, int64, error) {
	return nil, 0, errTodo
}
