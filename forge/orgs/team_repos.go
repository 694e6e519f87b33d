package orgs

import (
	"context"
	"strings"

	"github.com/hearthforge/hearth/forge"
)

// TeamRepos is one page of a team's repositories; they all belong to Org.
type TeamRepos struct {
	Org   *forge.User
	Repos []*forge.Repository
	Total int64
}

// ListTeamRepos returns one page of a team's repositories ordered by name.
// Needs read:organization and a signed-in actor who may see the team
// (GetTeam). A token restricted to public resources lists (and counts)
// the public repositories only, as every list of repositories.
func (s *Service) ListTeamRepos(ctx context.Context, actor forge.Actor, id forge.ID, o forge.ListOptions) (*TeamRepos, error) {
	if err := operations["orgListTeamRepos"].Check(actor); err != nil {
		return nil, err
	}
	var out *TeamRepos
	err := s.store.View(ctx, func(tx Tx) error {
		v, err := loadTeam(ctx, tx, actor, id)
		if err != nil {
			return err
		}
		list, n, err := tx.ListTeamRepos(ctx, id, actor.Scoped && actor.Scope.PublicOnly, o.Normalize())
		out = &TeamRepos{Org: OrgVisibleTo(actor, v.org), Repos: list, Total: n}
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// teamRepo resolves the repository repo of the team's organisation (the
// {org} of the route is not consulted, as in Forgejo: another owner's
// repository is never the answer): ErrTeamNotFound if there is none.
func teamRepo(ctx context.Context, tx Tx, v *teamView, repo string) (*forge.Repository, error) {
	r, err := tx.RepoByName(ctx, v.org.ID, strings.TrimSuffix(repo, ".git"))
	if isNotFound(err) || err == nil && r.Status != forge.RepoReady {
		return nil, ErrTeamNotFound
	}
	return r, err
}

// TeamRepo returns the repository repo of the team's organisation (org is
// not consulted, as in Forgejo) if the team has it and the actor may read
// it (Config.Repos, when set: a member of a team without access to its
// repositories learns nothing of them, as Forgejo's HasAccess check);
// ErrTeamNotFound otherwise. Needs read:organization and a signed-in
// actor who may see the team.
func (s *Service) TeamRepo(ctx context.Context, actor forge.Actor, id forge.ID, org, repo string) (*forge.Repository, error) {
	if err := operations["orgListTeamRepo"].Check(actor); err != nil {
		return nil, err
	}
	var out *forge.Repository
	var orgName string
	err := s.store.View(ctx, func(tx Tx) error {
		v, err := loadTeam(ctx, tx, actor, id)
		if err != nil {
			return err
		}
		orgName = v.org.Name
		r, err := teamRepo(ctx, tx, v, repo)
		if err != nil {
			return err
		}
		has, err := tx.HasTeamRepo(ctx, id, r.ID)
		if err != nil {
			return err
		}
		if !has {
			return ErrTeamNotFound
		}
		out = r
		return nil
	})
	if err != nil || s.cfg.Repos == nil {
		return out, err
	}
	_, perm, err := s.cfg.Repos.RepoAccess(ctx, actor, orgName, out.Name)
	if isNotFound(err) || err == nil && !perm.HasAccess() {
		return nil, ErrTeamNotFound
	} else if err != nil {
		return nil, err
	}
	return out, nil
}

// errRepoAdmin refuses team repository changes to those without admin
// access to the repository (Forgejo's message).
var errRepoAdmin = forge.Errorf(forge.ErrForbidden, "Must have admin-level access to the repository")

// repoAdmin reports whether the actor administers the repository repo of
// the team's organisation by the repository service (Config.Repos; false
// without it). Owners and site administrators are not asked; nor is anyone
// when the actor has no admin access: errRepoAdmin then.
func (s *Service) repoAdmin(ctx context.Context, actor forge.Actor, v *teamView, repo string) (bool, error) {
	if v.canOwn() {
		return false, nil
	}
	if s.cfg.Repos == nil {
		return false, errRepoAdmin
	}
	_, perm, err := s.cfg.Repos.RepoAccess(ctx, actor, v.org.Name, repo)
	if err != nil {
		return false, err
	}
	if perm.Mode < forge.AccessModeAdmin {
		return false, errRepoAdmin
	}
	return true, nil
}

// AddTeamRepo gives a team the repository repo of the team's
// organisation (org is not consulted, as in Forgejo; ErrTeamNotFound if
// there is no such repository); giving it again changes nothing. As Forgejo's route: the actor may see the team
// (GetTeam) and has admin access to the repository (owners and site
// administrators have; others through Config.Repos); a private repository
// is ErrTeamNotFound to a public-only token:
// forge.ErrForbidden `Must have admin-level access to the repository`.
// Needs write:organization.
func (s *Service) AddTeamRepo(ctx context.Context, actor forge.Actor, id forge.ID, org, repo string) error {
	return s.changeTeamRepo(ctx, actor, "orgAddTeamRepository", id, repo, true)
}

// RemoveTeamRepo takes the repository org/repo from a team; as
// AddTeamRepo. Removing a repository the team does not have, or from a
// team that includes all repositories, changes nothing (Forgejo's
// RemoveRepositoryFromTeam).
func (s *Service) RemoveTeamRepo(ctx context.Context, actor forge.Actor, id forge.ID, org, repo string) error {
	return s.changeTeamRepo(ctx, actor, "orgRemoveTeamRepository", id, repo, false)
}

func (s *Service) changeTeamRepo(ctx context.Context, actor forge.Actor, op string, id forge.ID, repo string, add bool) error {
	if err := operations[op].Check(actor); err != nil {
		return err
	}
	// Who may administer the repository is the repository service's
	// answer, asked before the transaction (it reads in its own); the
	// transaction checks again who the actor is in the organisation, so
	// that an owner removed meanwhile does not pass as one.
	var v *teamView
	err := s.store.View(ctx, func(tx Tx) error {
		var err error
		if v, err = loadTeam(ctx, tx, actor, id); err != nil {
			return err
		}
		r, err := teamRepo(ctx, tx, v, repo)
		if err == nil && r.Private && actor.Scoped && actor.Scope.PublicOnly {
			// A public-only token touches no private repository: to it
			// the repository is missing.
			return ErrTeamNotFound
		}
		return err
	})
	if err != nil {
		return err
	}
	repoAdmin, err := s.repoAdmin(ctx, actor, v, repo)
	if err != nil {
		return err
	}
	return s.store.Update(ctx, func(tx Tx) error {
		v, err := loadTeam(ctx, tx, actor, id)
		if err != nil {
			return err
		}
		if !v.canOwn() && !repoAdmin {
			return errRepoAdmin
		}
		r, err := teamRepo(ctx, tx, v, repo)
		if err != nil {
			return err
		}
		if add {
			return tx.AddTeamRepo(ctx, id, r.ID)
		}
		if v.team.IncludesAllRepos {
			return nil
		}
		if err := tx.RemoveTeamRepo(ctx, id, r.ID); err != nil && !isNotFound(err) {
			return err
		}
		return nil
	})
}
