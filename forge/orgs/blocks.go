package orgs

import (
	"context"
	"time"

	"github.com/hearthforge/hearth/forge"
)

// Blocked is a user an organisation blocks, with when.
type Blocked struct {
	User    *forge.User
	Created time.Time
}

// ListBlocked returns one page of the users org blocks, newest first.
// Needs read:organization and an owner.
func (s *Service) ListBlocked(ctx context.Context, actor forge.Actor, org string, o forge.ListOptions) ([]Blocked, int64, error) {
	if err := operations["orgListBlockedUsers"].Check(actor); err != nil {
		return nil, 0, err
	}
	var (
		out   []Blocked
		total int64
	)
	err := s.store.View(ctx, func(tx Tx) error {
		v, err := loadOrgFor(ctx, tx, actor, org, needOwner)
		if err != nil {
			return err
		}
		blocks, n, err := tx.ListBlocked(ctx, v.org.ID, o.Normalize())
		if err != nil {
			return err
		}
		ids := make([]forge.ID, len(blocks))
		for i, b := range blocks {
			ids[i] = b.UserID
		}
		users, err := tx.UsersByID(ctx, ids)
		if err != nil {
			return err
		}
		out, total = make([]Blocked, 0, len(blocks)), n
		for _, b := range blocks {
			if u := users[b.UserID]; u != nil {
				out = append(out, Blocked{User: u.VisibleTo(actor), Created: b.Created})
			}
		}
		return nil
	})
	return out, total, err
}

// blockTarget resolves the user org blocks or unblocks for an owner:
// *NotFoundError for an unknown user, forge.ErrInvalid `<name> is an
// organization not a user` for an organisation.
func blockTarget(ctx context.Context, tx Tx, actor forge.Actor, org, user string) (*orgView, *forge.User, error) {
	v, err := loadOrgFor(ctx, tx, actor, org, needOwner)
	if err != nil {
		return nil, nil, err
	}
	u, err := loadUser(ctx, tx, actor, user)
	if err != nil {
		return nil, nil, err
	}
	if u.IsOrganization() {
		return nil, nil, forge.Errorf(forge.ErrInvalid, "%s is an organization not a user", u.Name)
	}
	return v, u, nil
}

// Block makes org block user, who leaves the organisation's teams and
// membership and, as in Forgejo's BlockUser, loses their collaborations on
// and watches of the organisation's repositories and the transfers they
// offered it (Tx.DropBlocked).
// Blocking a blocked user changes nothing (Forgejo answers 204). Needs
// write:organization and an owner. A *NotFoundError for an unknown user
// (or an organisation the actor may not see); forge.ErrInvalid `<name> is
// an organization not a user`;
// forge.ErrPrecondition `user is the last member of owner team [uid: N]`
// for the organisation's last owner.
func (s *Service) Block(ctx context.Context, actor forge.Actor, org, user string) error {
	if err := operations["orgBlockUser"].Check(actor); err != nil {
		return err
	}
	now := s.clock.Now()
	return s.store.Update(ctx, func(tx Tx) error {
		v, u, err := blockTarget(ctx, tx, actor, org, user)
		if err != nil {
			return err
		}
		if blocked, err := tx.IsBlocked(ctx, v.org.ID, u.ID); err != nil || blocked {
			return err
		}
		if err := removeFromOrg(ctx, tx, v.org.ID, u.ID); err != nil {
			return err
		}
		if err := tx.DropBlocked(ctx, v.org.ID, u.ID); err != nil {
			return err
		}
		return tx.SetBlock(ctx, forge.Block{BlockerID: v.org.ID, UserID: u.ID, Created: now})
	})
}

// Unblock lifts a block; unblocking a user who is not blocked changes
// nothing (Forgejo answers 204). Needs write:organization and an owner. A
// *NotFoundError for an unknown user; forge.ErrInvalid for an
// organisation.
func (s *Service) Unblock(ctx context.Context, actor forge.Actor, org, user string) error {
	if err := operations["orgUnblockUser"].Check(actor); err != nil {
		return err
	}
	return s.store.Update(ctx, func(tx Tx) error {
		v, u, err := blockTarget(ctx, tx, actor, org, user)
		if err != nil {
			return err
		}
		if err := tx.DeleteBlock(ctx, v.org.ID, u.ID); err != nil && !isNotFound(err) {
			return err
		}
		return nil
	})
}
