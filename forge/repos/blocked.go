package repos

import (
	"context"

	"github.com/hearthforge/hearth/forge"
)

// errBlockedByUser is Forgejo's user_model.ErrBlockedByUser, answered 403.
const errBlockedByUser = "user is blocked by the poster or repository owner"

// checkNotBlocked refuses a user who is blocked by ownerID or blocks it,
// in either direction as Forgejo's AddCollaborator checks: forge.ErrForbidden
// `user is blocked by the poster or repository owner`.
func checkNotBlocked(ctx context.Context, tx Tx, ownerID, userID forge.ID) error {
	for _, p := range [][2]forge.ID{{ownerID, userID}, {userID, ownerID}} {
		blocked, err := tx.IsBlocked(ctx, p[0], p[1])
		if err != nil {
			return err
		}
		if blocked {
			return forge.Errorf(forge.ErrForbidden, errBlockedByUser)
		}
	}
	return nil
}

// checkNotBlockedBy refuses a user whom ownerID blocks (one direction, as
// Forgejo's StarRepo and WatchRepo check): forge.ErrForbidden
// `user is blocked by the poster or repository owner`.
func checkNotBlockedBy(ctx context.Context, tx Tx, ownerID, userID forge.ID) error {
	blocked, err := tx.IsBlocked(ctx, ownerID, userID)
	if err != nil {
		return err
	}
	if blocked {
		return forge.Errorf(forge.ErrForbidden, errBlockedByUser)
	}
	return nil
}
