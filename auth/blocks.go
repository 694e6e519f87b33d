package auth

import (
	"context"
	"errors"

	"github.com/hearthforge/hearth/forge"
)

// Block makes the actor block the user named name, as Forgejo's
// services/user BlockUser: both stop following each other, and the
// blocked user loses its watches of and collaborations on the actor's
// repositories and the transfers it offered the actor, in one
// transaction. What a block then prevents is checked where the action is
// (Follow here; starring, watching and collaborators in forge/repos;
// issues, comments and reactions in package issues). Blocking oneself or
// a blocked user changes nothing. Needs a signed-in user with write:user;
// forge.ErrNotFound for an unknown or unseen user.
func (s *Service) Block(ctx context.Context, actor forge.Actor, name string) error {
	if err := start(actor, "userBlockUser"); err != nil {
		return err
	}
	now := s.clock.Now()
	return s.store.Update(ctx, func(tx Tx) error {
		u, err := seenUser(ctx, tx, actor, name)
		if err != nil || u.ID == actor.User.ID {
			return err
		}
		me := actor.User.ID
		if blocked, err := tx.IsBlocked(ctx, me, u.ID); err != nil || blocked {
			return err
		}
		if err := tx.SetBlock(ctx, forge.Block{BlockerID: me, UserID: u.ID, Created: now}); err != nil {
			return err
		}
		if err := tx.Unfollow(ctx, u.ID, me); err != nil {
			return err
		}
		if err := tx.Unfollow(ctx, me, u.ID); err != nil {
			return err
		}
		return tx.DropBlocked(ctx, me, u.ID)
	})
}

// Unblock lifts the actor's block of the user named name; a user not
// blocked changes nothing. Needs a signed-in user with write:user;
// forge.ErrNotFound for an unknown or unseen user.
func (s *Service) Unblock(ctx context.Context, actor forge.Actor, name string) error {
	if err := start(actor, "userUnblockUser"); err != nil {
		return err
	}
	return s.store.Update(ctx, func(tx Tx) error {
		u, err := seenUser(ctx, tx, actor, name)
		if err != nil {
			return err
		}
		if err := tx.DeleteBlock(ctx, actor.User.ID, u.ID); err != nil && !errors.Is(err, forge.ErrNotFound) {
			return err
		}
		return nil
	})
}

// ListBlocked returns one page of the actor's blocks, newest first, and
// their number. Needs a signed-in user with read:user.
func (s *Service) ListBlocked(ctx context.Context, actor forge.Actor, o forge.ListOptions) ([]forge.Block, int64, error) {
	if err := start(actor, "userListBlockedUsers"); err != nil {
		return nil, 0, err
	}
	var (
		list  []forge.Block
		total int64
	)
	err := s.store.View(ctx, func(tx Tx) error {
		var err error
		list, total, err = tx.ListBlocked(ctx, actor.User.ID, o.Normalize())
		return err
	})
	return list, total, err
}
