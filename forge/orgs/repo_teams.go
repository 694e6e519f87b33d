package orgs

import (
	"context"

	"github.com/hearthforge/hearth/forge"
)

// repoTeamsBase resolves owner/repo for the /repos/{owner}/{repo}/teams
// routes (op is the operation's, its entry checked first): the repository with the actor's permission (Config.Repos: its
// errors, forge.ErrNotFound for repositories the actor may not see), and
// the owning organisation (ErrNotOrgRepo for a user's repository).
func (s *Service) repoTeamsBase(ctx context.Context, actor forge.Actor, op, owner, repo string) (*forge.Repository, forge.Permission, *forge.User, error) {
	req := operations[op]
	if err := req.Check(actor); err != nil {
		return nil, forge.Permission{}, nil, err
	}
	level := req.Level
	if s.cfg.Repos == nil {
		return nil, forge.Permission{}, nil, forge.Errorf(forge.ErrPrecondition, "orgs: repository teams need Config.Repos")
	}
	r, perm, err := s.cfg.Repos.RepoAccess(ctx, actor, owner, repo)
	if err != nil {
		return nil, forge.Permission{}, nil, err
	}
	if level == forge.AccessRead && !perm.HasAccess() && !actor.IsSiteAdmin() {
		return nil, forge.Permission{}, nil, forge.Errorf(forge.ErrForbidden, "user should have any permission to read repository or permissions of site admin")
	}
	if level == forge.AccessWrite && perm.Mode < forge.AccessModeAdmin && !actor.IsSiteAdmin() {
		return nil, forge.Permission{}, nil, forge.Errorf(forge.ErrForbidden, "user should be an owner or a collaborator with admin write of a repository")
	}
	var org *forge.User
	err = s.store.View(ctx, func(tx Tx) error {
		var err error
		org, err = tx.UserByID(ctx, r.OwnerID)
		return err
	})
	if err != nil {
		return nil, forge.Permission{}, nil, err
	}
	if !org.IsOrganization() {
		return nil, forge.Permission{}, nil, ErrNotOrgRepo
	}
	return r, perm, org, nil
}

// errNoTeam is Forgejo's ErrTeamNotExist for a team name of the
// organisation.
func errNoTeam(orgID forge.ID, name string) error {
	return forge.Errorf(forge.ErrNotFound, "team does not exist [org_id %d, team_id %d, name: %s]", orgID, 0, name)
}

// repoTeam finds the organisation's team called name and whether it has
// the repository; `team does not exist […]` (forge.ErrNotFound) if there
// is no such team.
func repoTeam(ctx context.Context, tx Tx, orgID, repoID forge.ID, name string) (*forge.Team, bool, error) {
	t, err := tx.TeamByName(ctx, orgID, name)
	if isNotFound(err) {
		return nil, false, errNoTeam(orgID, name)
	} else if err != nil {
		return nil, false, err
	}
	has, err := tx.HasTeamRepo(ctx, t.ID, repoID)
	return t, has, err
}

// RepoTeams lists the teams that have the repository owner/repo, ordered
// by name (GET /repos/{owner}/{repo}/teams). Needs read:repository, a
// signed-in actor with any access to the repository (Forgejo's
// reqAnyRepoReader), and an organisation's repository (ErrNotOrgRepo).
func (s *Service) RepoTeams(ctx context.Context, actor forge.Actor, owner, repo string) ([]*forge.Team, error) {
	r, _, org, err := s.repoTeamsBase(ctx, actor, "repoListTeams", owner, repo)
	if err != nil {
		return nil, err
	}
	var list []*forge.Team
	err = s.store.View(ctx, func(tx Tx) error {
		var err error
		list, err = all(func(o forge.ListOptions) ([]*forge.Team, int64, error) {
			return tx.ListTeams(ctx, TeamFilter{OrgID: org.ID, RepoID: r.ID}, o)
		})
		return err
	})
	return list, err
}

// RepoTeam returns the team named team of the repository's organisation
// if it has the repository: forge.ErrNotFound `team does not exist […]`
// for an unknown team, ErrTeamNotFound for a team without it. As
// RepoTeams.
func (s *Service) RepoTeam(ctx context.Context, actor forge.Actor, owner, repo, team string) (*forge.Team, error) {
	r, _, org, err := s.repoTeamsBase(ctx, actor, "repoCheckTeam", owner, repo)
	if err != nil {
		return nil, err
	}
	var out *forge.Team
	err = s.store.View(ctx, func(tx Tx) error {
		t, has, err := repoTeam(ctx, tx, org.ID, r.ID, team)
		if err != nil {
			return err
		}
		if !has {
			return ErrTeamNotFound
		}
		out = t
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// AddRepoTeam gives the team named team the repository (PUT
// /repos/{owner}/{repo}/teams/{team}). Needs write:repository and a
// repository administrator (Forgejo's reqAdmin: forge.ErrForbidden `user
// should be an owner or a collaborator with admin write of a
// repository`) who owns it unless the organisation has
// RepoAdminChangeTeamAccess (forge.ErrForbidden `user is nor repo admin
// nor owner`). forge.ErrNotFound for an unknown team; forge.ErrInvalid
// `team 'x' is already added to repo`.
func (s *Service) AddRepoTeam(ctx context.Context, actor forge.Actor, owner, repo, team string) error {
	return s.changeRepoTeam(ctx, actor, owner, repo, team, true)
}

// RemoveRepoTeam takes the repository from the team named team (DELETE
// /repos/{owner}/{repo}/teams/{team}). As AddRepoTeam, with
// forge.ErrInvalid `team 'x' was not added to repo`.
func (s *Service) RemoveRepoTeam(ctx context.Context, actor forge.Actor, owner, repo, team string) error {
	return s.changeRepoTeam(ctx, actor, owner, repo, team, false)
}

func (s *Service) changeRepoTeam(ctx context.Context, actor forge.Actor, owner, repo, team string, add bool) error {
	op := "repoDeleteTeam"
	if add {
		op = "repoAddTeam"
	}
	r, perm, org, err := s.repoTeamsBase(ctx, actor, op, owner, repo)
	if err != nil {
		return err
	}
	if !org.RepoAdminChangeTeamAccess && perm.Mode < forge.AccessModeOwner && !actor.IsSiteAdmin() {
		return forge.Errorf(forge.ErrForbidden, "user is nor repo admin nor owner")
	}
	return s.store.Update(ctx, func(tx Tx) error {
		t, has, err := repoTeam(ctx, tx, org.ID, r.ID, team)
		if err != nil {
			return err
		}
		switch {
		case add && has:
			return forge.Errorf(forge.ErrInvalid, "team '%s' is already added to repo", t.Name)
		case add:
			return tx.AddTeamRepo(ctx, t.ID, r.ID)
		case !has:
			return forge.Errorf(forge.ErrInvalid, "team '%s' was not added to repo", t.Name)
		case t.IncludesAllRepos:
			// Forgejo ignores removals from teams that include every
			// repository.
			return nil
		}
		return tx.RemoveTeamRepo(ctx, t.ID, r.ID)
	})
}
