package auth

import (
	"context"
	"errors"

	"github.com/hearthforge/hearth/forge"
)

// ErrBlocked is the reason of the refusal of an action between two users
// one of whom blocks the other (a forge.ErrForbidden, Forgejo's
// ErrBlockedByUser).
var ErrBlocked = errors.New("user is blocked by the poster or repository owner")

// blockedError is the refusal of an action a block prevents.
func blockedError() error {
	return forge.Reasonf(forge.ErrForbidden, ErrBlocked, "%s", ErrBlocked.Error())
}

// seenUser loads the account named name as actor may see it: a
// *NotFoundError-like forge.ErrNotFound `user redirect does not exist`
// when there is none or actor may not see it (CanSee).
func seenUser(ctx context.Context, tx Tx, actor forge.Actor, name string) (*forge.User, error) {
	u, err := tx.UserByName(ctx, name)
	switch {
	case errors.Is(err, forge.ErrNotFound):
		return nil, userNotFound(name)
	case err != nil:
		return nil, err
	case !CanSee(actor, u):
		return nil, userNotFound(name)
	}
	return u, nil
}

// followSubject is the account whose follows an operation reads: the
// actor's own when name is "", else the one named as actor may see it.
func followSubject(ctx context.Context, tx Tx, actor forge.Actor, name string) (*forge.User, error) {
	if name == "" {
		return tx.UserByID(ctx, actor.User.ID)
	}
	return seenUser(ctx, tx, actor, name)
}

// ListFollows returns one page of the followers of the user named name
// (or, with following, of the accounts it follows), the earliest follow
// first, each as actor may see it, and the number of all of them. An empty
// name is the actor (Forgejo's /user/followers, /user/following: a signed-in
// user with read:user); another needs read:user and a user actor may see,
// else forge.ErrNotFound. Accounts actor may not see are left out
// (Forgejo's isUserVisibleToViewerCond).
func (s *Service) ListFollows(ctx context.Context, actor forge.Actor, name string, following bool, o forge.ListOptions) ([]*forge.User, int64, error) {
	op := map[[2]bool]string{{true, false}: "userCurrentListFollowers", {true, true}: "userCurrentListFollowing",
		{false, false}: "userListFollowers", {false, true}: "userListFollowing"}[[2]bool{name == "", following}]
	if err := start(actor, op); err != nil {
		return nil, 0, err
	}
	var (
		users []*forge.User
		total int64
	)
	err := s.store.View(ctx, func(tx Tx) error {
		u, err := followSubject(ctx, tx, actor, name)
		if err != nil {
			return err
		}
		vf := SearchFilter(actor, SearchUsersOptions{})
		users, total, err = tx.ListFollows(ctx, FollowFilter{UserID: u.ID, Following: following,
			Visibilities: vf.Visibilities, Self: vf.Self}, o.Normalize())
		return err
	})
	if err != nil {
		return nil, 0, err
	}
	return visibleTo(actor, users), total, nil
}

// IsFollowing reports whether the user named name (the actor when "")
// follows the user named target. Forgejo's /user/following/{target} (a
// signed-in user) and /users/{name}/following/{target}: read:user; an
// unknown or unseen user or target is forge.ErrNotFound.
func (s *Service) IsFollowing(ctx context.Context, actor forge.Actor, name, target string) (bool, error) {
	op := "userCheckFollowing"
	if name == "" {
		op = "userCurrentCheckFollowing"
	}
	if err := start(actor, op); err != nil {
		return false, err
	}
	var ok bool
	err := s.store.View(ctx, func(tx Tx) error {
		u, err := followSubject(ctx, tx, actor, name)
		if err != nil {
			return err
		}
		t, err := seenUser(ctx, tx, actor, target)
		if err != nil {
			return err
		}
		ok, err = tx.IsFollowing(ctx, u.ID, t.ID)
		return err
	})
	return ok, err
}

// Follow makes the actor follow the user named target (Forgejo's
// FollowUser): following oneself or a user already followed changes
// nothing. Needs a signed-in user with write:user. forge.ErrNotFound for
// an unknown or unseen target; forge.ErrForbidden (reason ErrBlocked) when
// either blocks the other.
func (s *Service) Follow(ctx context.Context, actor forge.Actor, target string) error {
	if err := start(actor, "userCurrentPutFollow"); err != nil {
		return err
	}
	now := s.clock.Now()
	return s.store.Update(ctx, func(tx Tx) error {
		t, err := seenUser(ctx, tx, actor, target)
		if err != nil || t.ID == actor.User.ID {
			return err
		}
		if err := checkNotBlocked(ctx, tx, actor.User.ID, t.ID); err != nil {
			return err
		}
		return tx.Follow(ctx, actor.User.ID, t.ID, now)
	})
}

// Unfollow stops the actor following the user named target; not following
// changes nothing. Needs a signed-in user with write:user;
// forge.ErrNotFound for an unknown or unseen target.
func (s *Service) Unfollow(ctx context.Context, actor forge.Actor, target string) error {
	if err := start(actor, "userCurrentDeleteFollow"); err != nil {
		return err
	}
	return s.store.Update(ctx, func(tx Tx) error {
		t, err := seenUser(ctx, tx, actor, target)
		if err != nil {
			return err
		}
		return tx.Unfollow(ctx, actor.User.ID, t.ID)
	})
}

// checkNotBlocked refuses an action between a and b when either blocks
// the other: forge.ErrForbidden, reason ErrBlocked.
func checkNotBlocked(ctx context.Context, tx Tx, a, b forge.ID) error {
	for _, p := range [][2]forge.ID{{a, b}, {b, a}} {
		blocked, err := tx.IsBlocked(ctx, p[0], p[1])
		if err != nil {
			return err
		}
		if blocked {
			return blockedError()
		}
	}
	return nil
}
