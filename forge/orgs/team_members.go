package orgs

import (
	"context"

	"github.com/hearthforge/hearth/forge"
)

// ListTeamMembers returns one page of a team's members ordered by name,
// redacted for the actor. Needs read:organization, a signed-in actor who
// may see the team (GetTeam) and is a member of its organisation or a
// site administrator.
func (s *Service) ListTeamMembers(ctx context.Context, actor forge.Actor, id forge.ID, o forge.ListOptions) ([]*forge.User, int64, error) {
	if err := operations["orgListTeamMembers"].Check(actor); err != nil {
		return nil, 0, err
	}
	var (
		list  []*forge.User
		total int64
	)
	err := s.store.View(ctx, func(tx Tx) error {
		v, err := loadTeam(ctx, tx, actor, id)
		if err != nil {
			return err
		}
		if !v.member && !v.admin {
			return ErrTeamNotFound
		}
		list, total, err = tx.ListTeamMembers(ctx, id, o.Normalize())
		return err
	})
	for i, u := range list {
		list[i] = u.VisibleTo(actor)
	}
	return list, total, err
}

// TeamMember returns the member named user of a team, redacted for the
// actor; a *NotFoundError for an unknown user, ErrTeamNotFound for a user
// not in the team. Needs read:organization and a signed-in actor who may
// see the team.
func (s *Service) TeamMember(ctx context.Context, actor forge.Actor, id forge.ID, user string) (*forge.User, error) {
	if err := operations["orgListTeamMember"].Check(actor); err != nil {
		return nil, err
	}
	var out *forge.User
	err := s.store.View(ctx, func(tx Tx) error {
		if _, err := loadTeam(ctx, tx, actor, id); err != nil {
			return err
		}
		u, err := loadUser(ctx, tx, actor, user)
		if err != nil {
			return err
		}
		in, err := tx.IsTeamMember(ctx, id, u.ID)
		if err != nil {
			return err
		}
		if !in {
			return ErrTeamNotFound
		}
		out = u.VisibleTo(actor)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// errBlocked refuses to add a user the organisation blocks (Forgejo's
// ErrBlockedUser, which its API answers with a 500; Hearth 422).
var errBlocked = forge.Errorf(forge.ErrInvalid, "user is blocked")

// AddTeamMember adds user to a team, making them a (concealed) member of
// its organisation; adding a member again changes nothing. Needs
// write:organization and an owner of the organisation (others who may see
// the team get ErrTeamNotFound). A *NotFoundError for an unknown user;
// forge.ErrInvalid for an organisation (`<name> is an organization not a
// user`) or a user the organisation blocks (`user is blocked`).
func (s *Service) AddTeamMember(ctx context.Context, actor forge.Actor, id forge.ID, user string) error {
	if err := operations["orgAddTeamMember"].Check(actor); err != nil {
		return err
	}
	return s.store.Update(ctx, func(tx Tx) error {
		v, u, err := teamMemberTarget(ctx, tx, actor, id, user)
		if err != nil {
			return err
		}
		if u.IsOrganization() {
			return forge.Errorf(forge.ErrInvalid, "%s is an organization not a user", u.Name)
		}
		blocked, err := tx.IsBlocked(ctx, v.org.ID, u.ID)
		if err != nil {
			return err
		}
		if blocked {
			return errBlocked
		}
		if in, err := tx.IsTeamMember(ctx, id, u.ID); err != nil || in {
			return err
		}
		member, err := isMember(ctx, tx, v.org.ID, u.ID)
		if err != nil {
			return err
		}
		if !member {
			if err := tx.SetMember(ctx, forge.Membership{OrgID: v.org.ID, UserID: u.ID}); err != nil {
				return err
			}
		}
		return tx.AddTeamMember(ctx, id, u.ID)
	})
}

// teamMemberTarget loads a team for an owner and the user a member route
// names.
func teamMemberTarget(ctx context.Context, tx Tx, actor forge.Actor, id forge.ID, user string) (*teamView, *forge.User, error) {
	v, err := loadTeam(ctx, tx, actor, id)
	if err != nil {
		return nil, nil, err
	}
	if err := v.requireOwner(); err != nil {
		return nil, nil, err
	}
	u, err := loadUser(ctx, tx, actor, user)
	if err != nil {
		return nil, nil, err
	}
	return v, u, nil
}

// RemoveTeamMember removes user from a team; a user left in no team of
// the organisation leaves it; removing a user who is not in the team
// changes nothing. Needs write:organization and an owner of the
// organisation. The Owners team is never left empty
// (forge.ErrPrecondition `user is the last member of owner team [uid:
// N]`). A *NotFoundError for an unknown user.
func (s *Service) RemoveTeamMember(ctx context.Context, actor forge.Actor, id forge.ID, user string) error {
	if err := operations["orgRemoveTeamMember"].Check(actor); err != nil {
		return err
	}
	return s.store.Update(ctx, func(tx Tx) error {
		v, u, err := teamMemberTarget(ctx, tx, actor, id, user)
		if err != nil {
			return err
		}
		if in, err := tx.IsTeamMember(ctx, id, u.ID); err != nil || !in {
			return err
		}
		if v.team.IsOwners() && v.team.NumMembers <= 1 {
			return errLastOwner(u.ID)
		}
		if err := tx.RemoveTeamMember(ctx, id, u.ID); err != nil {
			return err
		}
		return dropIfTeamless(ctx, tx, v.org.ID, u.ID)
	})
}
