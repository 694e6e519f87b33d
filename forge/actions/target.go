package actions

import (
	"context"

	"github.com/hearthforge/hearth/forge"
)

// Level is which kind of owner a Target names.
type Level int

// Levels.
const (
	LevelRepo   Level = iota + 1 // a repository: Owner and Repo
	LevelOrg                     // an organisation: Owner
	LevelUser                    // the acting user
	LevelGlobal                  // the instance (site administrators)
)

// Target names where an operation acts, as the API path does.
type Target struct {
	Level Level
	Owner string // repository owner, or organisation
	Repo  string
}

// RepoTarget is the level of the repository owner/repo.
func RepoTarget(owner, repo string) Target { return Target{Level: LevelRepo, Owner: owner, Repo: repo} }

// OrgTarget is an organisation's level.
func OrgTarget(org string) Target { return Target{Level: LevelOrg, Owner: org} }

// UserTarget is the acting user's level.
func UserTarget() Target { return Target{Level: LevelUser} }

// GlobalTarget is the instance's level.
func GlobalTarget() Target { return Target{Level: LevelGlobal} }

// Errors of the access rules, with Forgejo's messages.
var (
	// ErrNotRepoOwner is Forgejo's reqOwner refusal on repository routes.
	ErrNotRepoOwner = forge.Errorf(forge.ErrForbidden, "user should be the owner of the repo")
	// ErrNoActionsWrite is Forgejo's reqRepoWriter refusal (dispatching a
	// workflow needs write access to the Actions unit).
	ErrNoActionsWrite = forge.Errorf(forge.ErrForbidden, "user should have a permission to write to a repo")
	// ErrNotOrgOwner is Forgejo's reqOrgOwnership refusal.
	ErrNotOrgOwner = forge.Errorf(forge.ErrForbidden, "Must be an organization owner")
	// ErrActionsDisabled answers a repository whose Actions unit is off
	// (Forgejo's ctx.NotFound).
	ErrActionsDisabled = forge.Errorf(forge.ErrNotFound, "The target couldn't be found.")
)

// need is what an operation requires on its target.
type need int

const (
	needRead  need = iota // read the repository's Actions unit
	needWrite             // write the repository's Actions unit
	needOwner             // own the level (manage secrets, runners...)
)

// resolved is a Target resolved for the actor.
type resolved struct {
	scope Scope
	// repo is set for repository targets; its OwnerID is the owner whose
	// runners a repository sees.
	repo *forge.Repository
}

// scopeCategory is the token scope category a level needs.
func (t Target) scopeCategory() forge.ScopeCategory {
	switch t.Level {
	case LevelRepo:
		return forge.CategoryRepository
	case LevelOrg:
		return forge.CategoryOrganization
	case LevelUser:
		return forge.CategoryUser
	}
	return forge.CategoryAdmin
}

// resolve checks what the operations on t at level that need n require
// (requirementOf, the table the API derives its routes from: account
// state, token scope, a signed-in user, a site administrator at the
// instance level), then the actor's right to act on t as n requires, and
// returns the scope.
func (s *Service) resolve(ctx context.Context, actor forge.Actor, t Target, level forge.AccessLevel, n need) (resolved, error) {
	if err := requirementOf(t.Level, level, n).Check(actor); err != nil {
		return resolved{}, err
	}
	switch t.Level {
	case LevelRepo:
		if s.cfg.Repos == nil {
			return resolved{}, forge.Errorf(forge.ErrPrecondition, "actions: repositories are not configured")
		}
		repo, perm, err := s.cfg.Repos.RepoAccess(ctx, actor, t.Owner, t.Repo)
		if err != nil {
			return resolved{}, err
		}
		if err := checkRepoAccess(perm, actor.IsSiteAdmin(), n); err != nil {
			return resolved{}, err
		}
		return resolved{scope: Scope{RepoID: repo.ID}, repo: repo}, nil
	case LevelOrg:
		if s.cfg.Orgs == nil {
			return resolved{}, forge.Errorf(forge.ErrPrecondition, "actions: organisations are not configured")
		}
		org, owner, _, err := s.cfg.Orgs.MemberRole(ctx, actor, t.Owner)
		if err != nil {
			return resolved{}, err
		}
		if !owner {
			return resolved{}, ErrNotOrgOwner
		}
		return resolved{scope: Scope{OwnerID: org.ID}}, nil
	case LevelUser:
		return resolved{scope: Scope{OwnerID: actor.User.ID}}, nil
	case LevelGlobal:
		return resolved{scope: Global}, nil
	}
	return resolved{}, forge.Errorf(forge.ErrInvalid, "actions: unknown target level %d", t.Level)
}

// checkRepoAccess is the rule of Forgejo's repository Actions routes: the
// Actions unit must be readable (forge.ErrNotFound otherwise, as a disabled
// unit); writes need write access to it; managing secrets, variables and
// runners needs owner access to the repository (the owner, organisation
// owners) or a site administrator (ErrNotRepoOwner: a collaborator with
// admin access is not enough). A disabled unit is forge.ErrNotFound for
// everyone.
func checkRepoAccess(perm forge.Permission, siteAdmin bool, n need) error {
	if perm.Unit(forge.UnitActions) < forge.AccessModeRead {
		return ErrActionsDisabled
	}
	if siteAdmin {
		return nil
	}
	switch n {
	case needWrite:
		if perm.Unit(forge.UnitActions) < forge.AccessModeWrite {
			return ErrNoActionsWrite
		}
	case needOwner:
		if perm.Mode < forge.AccessModeOwner {
			return ErrNotRepoOwner
		}
	}
	return nil
}
