package hooks

import (
	"context"

	"github.com/hearthforge/hearth/forge"
)

// Owner names whose hooks an operation is about: AdminHooks, RepoHooks,
// OrgHooks or UserHooks.
type Owner struct {
	kind        ownerKind
	owner, name string
}

type ownerKind int

const (
	ownerAdmin ownerKind = iota + 1
	ownerRepo
	ownerOrg
	ownerUser
)

// AdminHooks are the system and default hooks (/admin/hooks).
func AdminHooks() Owner { return Owner{kind: ownerAdmin} }

// RepoHooks are a repository's hooks.
func RepoHooks(owner, repo string) Owner { return Owner{kind: ownerRepo, owner: owner, name: repo} }

// OrgHooks are an organisation's hooks.
func OrgHooks(org string) Owner { return Owner{kind: ownerOrg, owner: org} }

// UserHooks are the acting user's own hooks (/user/hooks).
func UserHooks() Owner { return Owner{kind: ownerUser} }

// Refusals with Forgejo's messages.
var (
	errRepoAdmin = forge.Errorf(forge.ErrForbidden, "user should be an owner or a collaborator with admin write of a repository")
	errOrgOwner  = forge.Errorf(forge.ErrForbidden, "Must be an organization owner")
	// ErrGitHooks refuses the /hooks/git routes: Hearth has no
	// server-side git hooks to edit, as Forgejo with git hooks disabled.
	ErrGitHooks = forge.Errorf(forge.ErrForbidden, "must be allowed to edit Git hooks")
	// ErrHookNotFound is a hook id that names no hook of the owner.
	ErrHookNotFound = forge.Errorf(forge.ErrNotFound, "The target couldn't be found.")
)

// scope is a resolved owner: the filter of its hooks and the repository
// (for repository hooks).
type scope struct {
	admin bool
	f     Filter
	repo  *forge.Repository
}

// owns reports whether h belongs to the scope (admin: system or default).
func (sc scope) owns(h *Hook) bool {
	if sc.admin {
		return h.RepoID == 0 && h.OwnerID == 0
	}
	return h.RepoID == sc.f.RepoID && h.OwnerID == sc.f.OwnerID
}

// resolve checks that the actor may manage o's hooks at level and returns
// its scope: first what the operations on o's hooks require
// (requirementOf, the table the API derives its routes from), then the
// actor's role in o. Errors: forge.Requirement.Check's (forge.Actor.Check's,
// `token is required` for anonymous actors, `user should be the site
// admin` for the system and default hooks), forge.ErrNotFound for a
// repository or organisation the actor may not see, forge.ErrForbidden
// for non-administrators of a repository and non-owners of an
// organisation, forge.ErrPrecondition when the service lacks Repos or Orgs.
func (s *Service) resolve(ctx context.Context, actor forge.Actor, o Owner, level forge.AccessLevel) (scope, error) {
	if err := requirementOf(o.kind, level).Check(actor); err != nil {
		return scope{}, err
	}
	switch o.kind {
	case ownerAdmin:
		return scope{admin: true}, nil
	case ownerRepo:
		if s.cfg.Repos == nil {
			return scope{}, forge.Errorf(forge.ErrPrecondition, "hooks: repository hooks are not configured")
		}
		r, perm, err := s.cfg.Repos.RepoAccess(ctx, actor, o.owner, o.name)
		if err != nil {
			return scope{}, err
		}
		if perm.Mode < forge.AccessModeAdmin && !actor.IsSiteAdmin() {
			return scope{}, errRepoAdmin
		}
		return scope{f: Filter{RepoID: r.ID}, repo: r}, nil
	case ownerOrg:
		if s.cfg.Orgs == nil {
			return scope{}, forge.Errorf(forge.ErrPrecondition, "hooks: organisation hooks are not configured")
		}
		org, owner, _, err := s.cfg.Orgs.MemberRole(ctx, actor, o.owner)
		if err != nil {
			return scope{}, err
		}
		if !owner && !actor.IsSiteAdmin() {
			return scope{}, errOrgOwner
		}
		return scope{f: Filter{OwnerID: org.ID}}, nil
	case ownerUser:
		return scope{f: Filter{OwnerID: actor.User.ID}}, nil
	}
	return scope{}, forge.Errorf(forge.ErrInvalid, "hooks: no owner given")
}

// GitHooks answers the /repos/{owner}/{repo}/hooks/git routes as Forgejo
// does with git hooks disabled: the repository must exist and the actor
// administer it (resolve's errors), then ErrGitHooks.
func (s *Service) GitHooks(ctx context.Context, actor forge.Actor, owner, repo string, level forge.AccessLevel) error {
	if _, err := s.resolve(ctx, actor, RepoHooks(owner, repo), level); err != nil {
		return err
	}
	return ErrGitHooks
}
