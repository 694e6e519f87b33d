package orgs

import (
	"context"

	"github.com/hearthforge/hearth/forge"
)

// ListMembers returns one page of an organisation's members ordered by
// name (GET /orgs/{org}/members): every member for members and site
// administrators, only the public members for others
// (PublicMembersOnly). Needs read:organization and a signed-in actor
// (Forgejo's reqToken). Users are redacted for the actor
// (forge.User.VisibleTo).
func (s *Service) ListMembers(ctx context.Context, actor forge.Actor, org string, o forge.ListOptions) ([]*forge.User, int64, error) {
	return s.listMembers(ctx, actor, "orgListMembers", org, true, o)
}

// ListPublicMembers returns one page of an organisation's public members
// ordered by name. Needs read:organization.
func (s *Service) ListPublicMembers(ctx context.Context, actor forge.Actor, org string, o forge.ListOptions) ([]*forge.User, int64, error) {
	return s.listMembers(ctx, actor, "orgListPublicMembers", org, false, o)
}

func (s *Service) listMembers(ctx context.Context, actor forge.Actor, op, org string, all bool, o forge.ListOptions) ([]*forge.User, int64, error) {
	if err := operations[op].Check(actor); err != nil {
		return nil, 0, err
	}
	var (
		list  []*forge.User
		total int64
	)
	err := s.store.View(ctx, func(tx Tx) error {
		v, err := loadOrg(ctx, tx, actor, org)
		if err != nil {
			return err
		}
		publicOnly := true
		if all {
			if err := signedIn(actor); err != nil {
				return err
			}
			publicOnly = PublicMembersOnly(actor, v.member)
		}
		list, total, err = tx.ListMembers(ctx, v.org.ID, publicOnly, o.Normalize())
		return err
	})
	for i, u := range list {
		list[i] = u.VisibleTo(actor)
	}
	return list, total, err
}

// MemberAnswer is the answer of IsMember.
type MemberAnswer int

// IsMember answers, as Forgejo's orgIsMember.
const (
	// IsAMember: 204.
	IsAMember MemberAnswer = iota
	// NotAMember: 404.
	NotAMember
	// AskPublic: the actor may only learn of public membership: a redirect
	// to /api/v1/orgs/{Org}/public_members/{User}.
	AskPublic
)

// MemberCheck is the answer of IsMember with the canonical names for the
// redirect.
type MemberCheck struct {
	Answer    MemberAnswer
	Org, User string
}

// IsMember tells whether user is a member of org as Forgejo's orgIsMember
// does (CheckMember): members and site administrators learn it
// (IsAMember or NotAMember); a non-member asking about themself gets
// NotAMember; anyone else is sent to the public membership check
// (AskPublic). Needs read:organization and a signed-in actor. A
// *NotFoundError for an unknown user or an organisation the actor may not
// see.
func (s *Service) IsMember(ctx context.Context, actor forge.Actor, org, user string) (MemberCheck, error) {
	if err := operations["orgIsMember"].Check(actor); err != nil {
		return MemberCheck{}, err
	}
	var out MemberCheck
	err := s.store.View(ctx, func(tx Tx) error {
		v, err := loadOrgFor(ctx, tx, actor, org, needSignedIn)
		if err != nil {
			return err
		}
		u, err := loadUser(ctx, tx, actor, user)
		if err != nil {
			return err
		}
		target, err := isMember(ctx, tx, v.org.ID, u.ID)
		if err != nil {
			return err
		}
		out = MemberCheck{
			Answer: CheckMember(actor, v.member, u.ID == actor.UserID(), target),
			Org:    v.org.Name, User: u.Name,
		}
		return nil
	})
	return out, err
}

// IsPublicMember reports whether user is a public member of org. Needs
// read:organization. A *NotFoundError for an unknown user or an
// organisation the actor may not see.
func (s *Service) IsPublicMember(ctx context.Context, actor forge.Actor, org, user string) (bool, error) {
	if err := operations["orgIsPublicMember"].Check(actor); err != nil {
		return false, err
	}
	var public bool
	err := s.store.View(ctx, func(tx Tx) error {
		v, err := loadOrg(ctx, tx, actor, org)
		if err != nil {
			return err
		}
		u, err := loadUser(ctx, tx, actor, user)
		if err != nil {
			return err
		}
		m, err := tx.Member(ctx, v.org.ID, u.ID)
		public = err == nil && m.Public
		if err != nil && !isNotFound(err) {
			return err
		}
		return nil
	})
	return public, err
}

// Publicize makes the actor's own membership public (PUT
// /orgs/{org}/public_members/{username}). Needs write:organization and a
// member (forge.ErrForbidden `Must be an organization member`);
// forge.ErrForbidden `Cannot publicize another member` for another user.
func (s *Service) Publicize(ctx context.Context, actor forge.Actor, org, user string) error {
	return s.setPublic(ctx, actor, "orgPublicizeMember", org, user, true)
}

// Conceal hides the actor's own membership (DELETE
// /orgs/{org}/public_members/{username}); as Publicize, with `Cannot
// conceal another member`.
func (s *Service) Conceal(ctx context.Context, actor forge.Actor, org, user string) error {
	return s.setPublic(ctx, actor, "orgConcealMember", org, user, false)
}

func (s *Service) setPublic(ctx context.Context, actor forge.Actor, op, org, user string, public bool) error {
	if err := operations[op].Check(actor); err != nil {
		return err
	}
	return s.store.Update(ctx, func(tx Tx) error {
		v, err := loadOrgFor(ctx, tx, actor, org, needMember)
		if err != nil {
			return err
		}
		u, err := loadUser(ctx, tx, actor, user)
		if err != nil {
			return err
		}
		if u.ID != actor.UserID() {
			if public {
				return forge.Errorf(forge.ErrForbidden, "Cannot publicize another member")
			}
			return forge.Errorf(forge.ErrForbidden, "Cannot conceal another member")
		}
		if !v.member {
			// A site administrator who is no member: nothing to change
			// (Forgejo updates no row).
			return nil
		}
		return tx.SetMember(ctx, forge.Membership{OrgID: v.org.ID, UserID: u.ID, Public: public})
	})
}

// RemoveMember removes user from org and from every team of it (DELETE
// /orgs/{org}/members/{username}). Needs write:organization and an owner.
// A *NotFoundError for an unknown user; removing a user who is no member
// changes nothing; removing the last owner is refused with
// forge.ErrPrecondition `user is the last member of owner team [uid: N]`
// (Forgejo's ErrLastOrgOwner, answered with a 500 by its API; Hearth 422).
func (s *Service) RemoveMember(ctx context.Context, actor forge.Actor, org, user string) error {
	if err := operations["orgDeleteMember"].Check(actor); err != nil {
		return err
	}
	return s.store.Update(ctx, func(tx Tx) error {
		v, err := loadOrgFor(ctx, tx, actor, org, needOwner)
		if err != nil {
			return err
		}
		u, err := loadUser(ctx, tx, actor, user)
		if err != nil {
			return err
		}
		return removeFromOrg(ctx, tx, v.org.ID, u.ID)
	})
}

// errLastOwner is Forgejo's ErrLastOrgOwner.
func errLastOwner(uid forge.ID) error {
	return forge.Errorf(forge.ErrPrecondition, "user is the last member of owner team [uid: %d]", uid)
}

// removeFromOrg takes the user out of every team of the organisation and
// ends the membership (Forgejo's RemoveOrgUser), refusing to leave the
// Owners team empty.
func removeFromOrg(ctx context.Context, tx Tx, orgID, userID forge.ID) error {
	member, err := isMember(ctx, tx, orgID, userID)
	if err != nil || !member {
		return err
	}
	teams, err := all(func(o forge.ListOptions) ([]*forge.Team, int64, error) {
		return tx.ListTeams(ctx, TeamFilter{OrgID: orgID, MemberID: userID}, o)
	})
	if err != nil {
		return err
	}
	for _, t := range teams {
		if t.IsOwners() && t.NumMembers <= 1 {
			return errLastOwner(userID)
		}
		if err := tx.RemoveTeamMember(ctx, t.ID, userID); err != nil {
			return err
		}
	}
	return tx.DeleteMember(ctx, orgID, userID)
}
