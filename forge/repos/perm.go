package repos

import (
	"fmt"

	"github.com/hearthforge/hearth/forge"
)

// Grants is what the store knows of one actor's relation to one
// repository: the input of Access besides the actor, the repository and
// its owner.
type Grants struct {
	// Collab is the actor's collaborator mode, forge.AccessNone if the
	// actor is no collaborator.
	Collab forge.AccessMode
	// Member is true when the owner is an organisation the actor is a
	// member of.
	Member bool
	// Teams are the grants of the teams of the owning organisation the
	// actor is in that have the repository (through a team_repo row,
	// which teams including all repositories hold for each).
	Teams []forge.TeamGrant
}

// Access is the permission of the actor on repo, owned by owner (a user or
// an organisation), given the actor's grants: the one rule every
// repository, issue and pull-request check consults (Forgejo's
// GetUserRepoPermission, models/perm/access/repo_permission.go). A pure
// function.
//
// In order:
//   - a deploy key (Actor.DeployKey) has its mode on the code unit of the
//     repositories it is deployed to, nothing elsewhere;
//   - tokens restricted to public resources see private repositories and
//     repositories of non-public owners as absent, whatever the user's
//     rights (Forgejo's API middleware, applied here so that Go callers
//     get it too);
//   - anonymous actors get nothing on a private repository;
//   - an owner the actor may not see (OwnerVisibleTo: private
//     organisations to members, limited ones to signed-in users,
//     restricted users only organisations they are members of) gives
//     nothing, unless the actor is a collaborator of the repository;
//   - anonymous actors read the rest;
//   - site administrators and the owner: owner;
//   - otherwise Mode is the maximum of read on a public repository (not for
//     restricted users), the collaborator mode and the modes of the teams;
//     a member of a team with admin or owner mode (the Owners team) is an
//     owner of the repository, as in Forgejo;
//   - on an organisation's repository the units are, per unit, the maximum
//     of the collaborator's Mode (on every unit), the teams' modes of that
//     unit, and read for units no team defines on a public repository (not
//     for restricted users);
//   - on a user's repository every unit is at Mode.
//
// Units holds every enabled unit of the repository (EnabledUnits) at the
// actor's access; disabled units (HasIssues false…) are absent, that is
// none. Units is nil only when the actor has no access.
//
// Where Hearth differs from Forgejo: the public-only token rule lives here
// rather than in the HTTP middleware; unit default permissions (Forgejo's
// per-unit "anonymous read" settings) do not exist, every unit defaults to
// read; and collaborators of an organisation's repository get their
// collaborator mode raised by their teams' modes on every unit, as
// Forgejo's access table does (its UnitsMode is filled from AccessMode,
// the maximum of both).
func Access(actor forge.Actor, repo *forge.Repository, owner *forge.User, g Grants) forge.Permission {
	if dk := actor.DeployKey; dk != nil {
		// A deploy key (git over SSH) reaches the code of the
		// repositories it is deployed to, at its mode, and nothing else.
		mode := dk.Repos[repo.ID]
		if mode == forge.AccessNone {
			return forge.Permission{}
		}
		return forge.Permission{Mode: mode, Units: map[forge.Unit]forge.AccessMode{forge.UnitCode: mode}}
	}
	if actor.Scoped && actor.Scope.PublicOnly && (repo.Private || !isPublic(owner)) {
		return forge.Permission{}
	}
	u := actor.User
	if u == nil && repo.Private {
		return forge.Permission{}
	}
	collaborator := g.Collab > forge.AccessNone
	if !OwnerVisibleTo(actor, owner, g.Member) && !collaborator {
		return forge.Permission{}
	}
	units := EnabledUnits(repo)
	if u == nil {
		return uniform(forge.AccessModeRead, units)
	}
	if actor.IsSiteAdmin() || u.ID == repo.OwnerID {
		return uniform(forge.AccessModeOwner, units)
	}
	public := !repo.Private && !u.Restricted
	mode := forge.AccessNone
	if public {
		mode = forge.AccessModeRead
	}
	mode = max(mode, g.Collab)
	if !owner.IsOrganization() {
		return uniform(mode, units)
	}
	for _, t := range g.Teams {
		if t.Mode >= forge.AccessModeAdmin {
			return uniform(forge.AccessModeOwner, units)
		}
		mode = max(mode, t.Mode)
	}
	per := make(map[forge.Unit]forge.AccessMode, len(units))
	for _, unit := range units {
		m := forge.AccessNone
		if collaborator {
			m = mode
		}
		found := false
		for _, t := range g.Teams {
			if tm := t.Units[unit]; tm > forge.AccessNone {
				m, found = max(m, tm), true
			}
		}
		if !found && public {
			m = max(m, forge.AccessModeRead)
		}
		if m > forge.AccessNone {
			per[unit] = m
		}
	}
	if mode == forge.AccessNone && len(per) == 0 {
		return forge.Permission{}
	}
	return forge.Permission{Mode: mode, Units: per}
}

// uniform is mode on every unit of units (nothing for AccessNone).
func uniform(mode forge.AccessMode, units []forge.Unit) forge.Permission {
	if mode == forge.AccessNone {
		return forge.Permission{}
	}
	per := make(map[forge.Unit]forge.AccessMode, len(units))
	for _, u := range units {
		per[u] = mode
	}
	if mode == forge.AccessNone && len(per) == 0 {
		return forge.Permission{}
	}
	return forge.Permission{Mode: mode, Units: per}
}

// EnabledUnits lists the units repo has turned on, in forge.Units order:
// code always; issues or, with an external tracker, external issues when
// HasIssues; pull requests, releases, projects, packages and actions by
// their switch; the wiki or, with an external wiki, the external wiki
// when HasWiki.
func EnabledUnits(repo *forge.Repository) []forge.Unit {
	out := make([]forge.Unit, 0, len(forge.Units))
	for _, u := range forge.Units {
		on := false
		switch u {
		case forge.UnitCode:
			on = true
		case forge.UnitIssues:
			on = repo.HasIssues && repo.ExternalTracker == nil
		case forge.UnitExternalIssues:
			on = repo.HasIssues && repo.ExternalTracker != nil
		case forge.UnitPulls:
			on = repo.HasPullRequests
		case forge.UnitReleases:
			on = repo.HasReleases
		case forge.UnitWiki:
			on = repo.HasWiki && repo.ExternalWiki == nil
		case forge.UnitExternalWiki:
			on = repo.HasWiki && repo.ExternalWiki != nil
		case forge.UnitProjects:
			on = repo.HasProjects
		case forge.UnitPackages:
			on = repo.HasPackages
		case forge.UnitActions:
			on = repo.HasActions
		}
		if on {
			out = append(out, u)
		}
	}
	return out
}

// Permission is the overall access mode of the actor on a repository of a
// user (not an organisation) given the actor's collaborator mode:
// Access(...).Mode without memberships or teams. Code that may meet
// organisations' repositories uses Access.
func Permission(actor forge.Actor, repo *forge.Repository, owner *forge.User, collab forge.AccessMode) forge.AccessMode {
	return Access(actor, repo, owner, Grants{Collab: collab}).Mode
}

func isPublic(u *forge.User) bool {
	return u.Visibility == forge.VisibilityPublic || u.Visibility == ""
}

// LogString renders a repository as Forgejo's messages do:
// `<Repository 5:alice/tools>`.
func LogString(r *forge.Repository) string {
	return fmt.Sprintf("<Repository %d:%s>", r.ID, r.FullName())
}

// checkWritable is Forgejo's mustNotBeArchived: forge.ErrArchived
// `<Repository ID:owner/name> is archived`.
func checkWritable(r *forge.Repository) error {
	if r.Archived {
		return forge.Errorf(forge.ErrArchived, "%s is archived", LogString(r))
	}
	return nil
}
