package issues

import (
	"context"

	"github.com/hearthforge/hearth/forge"
)

// ErrBlocked is the reason of the refusal of a blocked user (a
// forge.ErrForbidden, Forgejo's ErrBlockedByUser).
var ErrBlocked = errBlocked{}

type errBlocked struct{}

func (errBlocked) Error() string { return "user is blocked by the poster or repository owner" }

// checkBlocked refuses the actor when an account of blockers blocks it
// (Forgejo's IsBlockedMultiple), if the store reads blocks (BlockReader).
func checkBlocked(ctx context.Context, tx Tx, actor forge.Actor, blockers ...forge.ID) error {
	br, ok := tx.(BlockReader)
	if !ok || !actor.IsSignedIn() {
		return nil
	}
	blocked, err := br.IsBlockedByAny(ctx, blockers, actor.User.ID)
	if err != nil {
		return err
	}
	if blocked {
		return forge.Reasonf(forge.ErrForbidden, ErrBlocked, "%s", ErrBlocked.Error())
	}
	return nil
}
