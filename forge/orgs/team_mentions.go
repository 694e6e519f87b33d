package orgs

import (
	"context"
	"errors"

	"github.com/hearthforge/hearth/forge"
)

// TeamMembers resolves the team an `@org/team` mention by actor names in
// an issue of repository repoID (issues.TeamMembers): the team named team
// of organisation org, and its members who may act (active accounts
// allowed to sign in), in name order. It answers only when the actor may
// see the organisation's teams (a member of org, or a site
// administrator) and the team has the repository (directly or as a team
// of every repository); anything else is ErrTeamNotFound, as an unknown
// organisation or team, so that a mention tells nothing of teams the
// actor may not see. It checks no token scope: the caller's operation
// (writing an issue or a comment) has checked its own.
func (s *Service) TeamMembers(ctx context.Context, actor forge.Actor, org, team string, repoID forge.ID) (*forge.Team, []*forge.User, error) {
	if !actor.IsSignedIn() {
		return nil, nil, ErrTeamNotFound
	}
	var (
		t       *forge.Team
		members []*forge.User
	)
	err := s.store.View(ctx, func(tx Tx) error {
		o, err := tx.UserByName(ctx, org)
		if errors.Is(err, forge.ErrNotFound) || err == nil && !o.IsOrganization() {
			return ErrTeamNotFound
		} else if err != nil {
			return err
		}
		v, err := roleIn(ctx, tx, actor, o)
		if err != nil {
			return err
		}
		if !v.member && !v.admin {
			return ErrTeamNotFound
		}
		if t, err = tx.TeamByName(ctx, o.ID, team); errors.Is(err, forge.ErrNotFound) {
			return ErrTeamNotFound
		} else if err != nil {
			return err
		}
		if has, err := tx.HasTeamRepo(ctx, t.ID, repoID); err != nil {
			return err
		} else if !has {
			return ErrTeamNotFound
		}
		list, err := all(func(lo forge.ListOptions) ([]*forge.User, int64, error) {
			return tx.ListTeamMembers(ctx, t.ID, lo)
		})
		for _, u := range list {
			if u.IsActive && !u.ProhibitLogin {
				members = append(members, u)
			}
		}
		return err
	})
	if err != nil {
		return nil, nil, err
	}
	return t, members, nil
}
