package orgs

import (
	"context"
	"errors"
	"strings"

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
	// Name: nil or "" leaves it.
	Name        *string
	Description *string
	// Permission: nil or "" leaves the mode (and units_map then replaces
	// only the units, as in Forgejo).
	Permission       *string
	Units            []string
	UnitsMap         map[string]string
	IncludesAllRepos *bool
	CanCreateOrgRepo *bool
}

// teamExists is Forgejo's ErrTeamAlreadyExist (it names the lower-cased
// name).
func teamExists(orgID forge.ID, name string) error {
	return forge.Errorf(forge.ErrInvalid, "team already exists [org_id: %d, name: %s]", orgID, strings.ToLower(name))
}

// CreateTeam creates a team in org and returns it with its organisation.
// Needs write:organization, a signed-in member (forge.ErrForbidden `Must
// be an organization member`) who owns the organisation (`Must be an
// organization owner`). forge.ErrInvalid for an invalid name (`[Name]:
// AlphaDashDot`…), a description over 255 characters, `units permission
// should not be empty` (TeamAccess; Forgejo answers it with a 500, a bug)
// and `team already exists [org_id: N, name: x]`. A team that includes all
// repositories gets every repository of org.
func (s *Service) CreateTeam(ctx context.Context, actor forge.Actor, org string, opts CreateTeamOptions) (*TeamView, error) {
	if err := operations["orgCreateTeam"].Check(actor); err != nil {
		return nil, err
	}
	var out *TeamView
	err := s.store.Update(ctx, func(tx Tx) error {
		v, err := loadOrgFor(ctx, tx, actor, org, needMember)
		if err != nil {
			return err
		}
		if err := v.requireOwner(); err != nil {
			return err
		}
		if err := CheckTeamName(opts.Name); err != nil {
			return err
		}
		if err := checkMaxSize("Description", opts.Description, 255); err != nil {
			return err
		}
		mode, units, err := TeamAccess(opts.Permission, opts.Units, opts.UnitsMap)
		if err != nil {
			return err
		}
		if _, err := tx.TeamByName(ctx, v.org.ID, opts.Name); err == nil {
			return teamExists(v.org.ID, opts.Name)
		} else if !isNotFound(err) {
			return err
		}
		t := &forge.Team{OrgID: v.org.ID, Name: opts.Name, Description: opts.Description, Mode: mode,
			Units: units, IncludesAllRepos: opts.IncludesAllRepos, CanCreateOrgRepo: opts.CanCreateOrgRepo}
		if err := tx.CreateTeam(ctx, t); errors.Is(err, forge.ErrConflict) {
			return teamExists(v.org.ID, opts.Name)
		} else if err != nil {
			return err
		}
		if t.IncludesAllRepos {
			if err := addAllRepos(ctx, tx, t); err != nil {
				return err
			}
		}
		t, err = tx.Team(ctx, t.ID)
		out = &TeamView{Team: t, Org: OrgVisibleTo(actor, v.org)}
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// addAllRepos gives a team every ready repository of its organisation
// (Forgejo's addAllRepositories).
func addAllRepos(ctx context.Context, tx Tx, t *forge.Team) error {
	ids, err := tx.ListOwnerRepoIDs(ctx, t.OrgID)
	if err != nil {
		return err
	}
	for _, id := range ids {
		if err := tx.AddTeamRepo(ctx, t.ID, id); err != nil {
			return err
		}
	}
	return nil
}

// removeAllRepos takes every repository from a team.
func removeAllRepos(ctx context.Context, tx Tx, t *forge.Team) error {
	repos, err := all(func(o forge.ListOptions) ([]*forge.Repository, int64, error) {
		return tx.ListTeamRepos(ctx, t.ID, false, o)
	})
	if err != nil {
		return err
	}
	for _, r := range repos {
		if err := tx.RemoveTeamRepo(ctx, t.ID, r.ID); err != nil && !isNotFound(err) {
			return err
		}
	}
	return nil
}

// GetTeam returns a team by id with its organisation. Needs
// read:organization and, as Forgejo's reqTeamMembership, a site
// administrator, an owner of its organisation or a member of the team:
// other members of the organisation get ErrMustBeTeamMember, everyone
// else ErrTeamNotFound as for a missing team.
func (s *Service) GetTeam(ctx context.Context, actor forge.Actor, id forge.ID) (*TeamView, error) {
	if err := operations["orgGetTeam"].Check(actor); err != nil {
		return nil, err
	}
	var out *TeamView
	err := s.store.View(ctx, func(tx Tx) error {
		v, err := loadTeam(ctx, tx, actor, id)
		if err != nil {
			return err
		}
		out = &TeamView{Team: v.team, Org: OrgVisibleTo(actor, v.org)}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// EditTeam changes a team and returns it, as Forgejo's EditTeam: a new
// Permission sets the mode (a units_map then lowers it to its minimum, as
// on creation), units follow the units_map or units list (every unit at
// admin for admin teams), IncludesAllRepos on fills the team with every
// repository of the organisation and off empties it. The Owners team keeps
// its name (forge.ErrInvalid `cannot rename the Owners team`), mode and
// units, and can always create repositories. Needs write:organization and
// an owner of its organisation (others who may see the team get
// ErrTeamNotFound, as Forgejo's reqOrgOwnership reached through a team).
// forge.ErrInvalid for an invalid name or description, and `team already
// exists [org_id: N, name: x]`.
func (s *Service) EditTeam(ctx context.Context, actor forge.Actor, id forge.ID, opts EditTeamOptions) (*TeamView, error) {
	if err := operations["orgEditTeam"].Check(actor); err != nil {
		return nil, err
	}
	var out *TeamView
	err := s.store.Update(ctx, func(tx Tx) error {
		v, err := loadTeam(ctx, tx, actor, id)
		if err != nil {
			return err
		}
		if err := v.requireOwner(); err != nil {
			return err
		}
		t, owners := v.team, v.team.IsOwners()
		wasAll := t.IncludesAllRepos
		if opts.Name != nil && *opts.Name != "" && *opts.Name != t.Name {
			if owners {
				return forge.Errorf(forge.ErrInvalid, "cannot rename the Owners team")
			}
			if err := CheckTeamName(*opts.Name); err != nil {
				return err
			}
			t.Name = *opts.Name
		}
		if opts.Description != nil {
			if err := checkMaxSize("Description", *opts.Description, 255); err != nil {
				return err
			}
			t.Description = *opts.Description
		}
		if opts.CanCreateOrgRepo != nil {
			t.CanCreateOrgRepo = owners || *opts.CanCreateOrgRepo
		}
		if !owners {
			editAccess(t, opts)
			if opts.IncludesAllRepos != nil {
				t.IncludesAllRepos = *opts.IncludesAllRepos
			}
		}
		if err := tx.UpdateTeam(ctx, t); errors.Is(err, forge.ErrConflict) {
			return teamExists(t.OrgID, t.Name)
		} else if err != nil {
			return err
		}
		switch {
		case t.IncludesAllRepos && !wasAll:
			err = addAllRepos(ctx, tx, t)
		case !t.IncludesAllRepos && wasAll:
			err = removeAllRepos(ctx, tx, t)
		}
		if err != nil {
			return err
		}
		t, err = tx.Team(ctx, t.ID)
		out = &TeamView{Team: t, Org: OrgVisibleTo(actor, v.org)}
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// editAccess applies the access options of an edit to a team other than
// the Owners team (Forgejo's EditTeam).
func editAccess(t *forge.Team, opts EditTeamOptions) {
	if opts.Permission != nil && *opts.Permission != "" {
		p := ParseAccessMode(*opts.Permission)
		if p < forge.AccessModeAdmin && len(opts.UnitsMap) > 0 {
			p = MinUnitAccessMode(ParseUnitsMap(opts.UnitsMap))
		}
		t.Mode = p
	}
	switch {
	case t.Mode >= forge.AccessModeAdmin:
		t.Units = AdminUnits()
	case len(opts.UnitsMap) > 0:
		t.Units = ParseUnitsMap(opts.UnitsMap)
	case len(opts.Units) > 0:
		t.Units = unitsAt(opts.Units, t.Mode)
	}
}

// DeleteTeam removes a team with its members and repositories; members
// left in no team of the organisation leave it (Forgejo's DeleteTeam).
// Needs write:organization and an owner of its organisation. The Owners
// team cannot be deleted (forge.ErrInvalid `cannot delete Owners team`;
// Forgejo's API would delete it).
func (s *Service) DeleteTeam(ctx context.Context, actor forge.Actor, id forge.ID) error {
	if err := operations["orgDeleteTeam"].Check(actor); err != nil {
		return err
	}
	return s.store.Update(ctx, func(tx Tx) error {
		v, err := loadTeam(ctx, tx, actor, id)
		if err != nil {
			return err
		}
		if err := v.requireOwner(); err != nil {
			return err
		}
		if v.team.IsOwners() {
			return forge.Errorf(forge.ErrInvalid, "cannot delete Owners team")
		}
		members, err := all(func(o forge.ListOptions) ([]*forge.User, int64, error) {
			return tx.ListTeamMembers(ctx, id, o)
		})
		if err != nil {
			return err
		}
		if err := tx.DeleteTeam(ctx, id); err != nil {
			return err
		}
		for _, u := range members {
			if err := dropIfTeamless(ctx, tx, v.team.OrgID, u.ID); err != nil {
				return err
			}
		}
		return nil
	})
}

// dropIfTeamless ends the membership of a user in no team of the
// organisation (Forgejo's removeInvalidOrgUser).
func dropIfTeamless(ctx context.Context, tx Tx, orgID, userID forge.ID) error {
	_, n, err := tx.ListTeams(ctx, TeamFilter{OrgID: orgID, MemberID: userID}, forge.ListOptions{Page: 1, Limit: 1})
	if err != nil || n > 0 {
		return err
	}
	return tx.DeleteMember(ctx, orgID, userID)
}

// ListTeams returns one page of org's teams ordered by name (GET
// /orgs/{org}/teams). Needs read:organization and a signed-in member (or
// site administrator).
func (s *Service) ListTeams(ctx context.Context, actor forge.Actor, org string, o forge.ListOptions) ([]*forge.Team, int64, error) {
	return s.searchTeams(ctx, actor, "orgListTeams", org, TeamFilter{}, o)
}

// SearchTeams returns one page of org's teams whose name (or, with
// includeDesc, description) contains q, ignoring case, ordered by name.
// Only site administrators search every team; others search the teams
// they are in (Forgejo's SearchTeam, even for owners). Needs
// read:organization and a signed-in member.
func (s *Service) SearchTeams(ctx context.Context, actor forge.Actor, org, q string, includeDesc bool, o forge.ListOptions) ([]*forge.Team, int64, error) {
	f := TeamFilter{Keyword: strings.TrimSpace(q), IncludeDesc: includeDesc}
	if !actor.IsSiteAdmin() {
		f.MemberID = actor.UserID()
	}
	return s.searchTeams(ctx, actor, "teamSearch", org, f, o)
}

func (s *Service) searchTeams(ctx context.Context, actor forge.Actor, op, org string, f TeamFilter, o forge.ListOptions) ([]*forge.Team, int64, error) {
	if err := operations[op].Check(actor); err != nil {
		return nil, 0, err
	}
	var (
		list  []*forge.Team
		total int64
	)
	err := s.store.View(ctx, func(tx Tx) error {
		v, err := loadOrgFor(ctx, tx, actor, org, needMember)
		if err != nil {
			return err
		}
		f.OrgID = v.org.ID
		list, total, err = tx.ListTeams(ctx, f, o.Normalize())
		return err
	})
	return list, total, err
}

// ListUserTeams returns one page of the teams the actor is in, in every
// organisation, with their organisations, ordered by name (GET
// /user/teams), and their number. Needs a signed-in actor and read:user
// (the route is in Forgejo's user group). Public-only tokens see the teams
// of public organisations only: the store filters them, so that pages and
// the total count only those.
func (s *Service) ListUserTeams(ctx context.Context, actor forge.Actor, o forge.ListOptions) ([]TeamView, int64, error) {
	if err := operations["userListTeams"].Check(actor); err != nil {
		return nil, 0, err
	}
	var (
		out   []TeamView
		total int64
	)
	err := s.store.View(ctx, func(tx Tx) error {
		f := TeamFilter{MemberID: actor.UserID()}
		if actor.Scoped && actor.Scope.PublicOnly {
			f.OrgVisibilities = []forge.Visibility{forge.VisibilityPublic}
		}
		teams, n, err := tx.ListTeams(ctx, f, o.Normalize())
		if err != nil {
			return err
		}
		ids := make([]forge.ID, len(teams))
		for i, t := range teams {
			ids[i] = t.OrgID
		}
		orgs, err := tx.UsersByID(ctx, ids)
		if err != nil {
			return err
		}
		out, total = make([]TeamView, 0, len(teams)), n
		for _, t := range teams {
			if org := orgs[t.OrgID]; org != nil && Visible(actor, org, true) {
				out = append(out, TeamView{Team: t, Org: OrgVisibleTo(actor, org)})
			}
		}
		return nil
	})
	return out, total, err
}
