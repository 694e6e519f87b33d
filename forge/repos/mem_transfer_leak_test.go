package repos_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
)

// TestTransferAnswersHideOwnerRepositories: accepting or rejecting a
// transfer under an owner the actor cannot see answers alike whether the
// repository exists or not, so names cannot be probed.
func TestTransferAnswersHideOwnerRepositories(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newMemEnv(t)
	carol := e.user(t, "carol", func(u *forge.User) { u.Visibility = forge.VisibilityPrivate })
	bob := e.user(t, "bob")
	e.repo(t, carol, "cpub", false)

	for _, actor := range []forge.Actor{bob, {}} {
		_, errExisting := e.svc.AcceptTransfer(ctx, actor, "carol", "cpub")
		_, errMissing := e.svc.AcceptTransfer(ctx, actor, "carol", "doesnotexist")
		require.Error(t, errExisting)
		require.Error(t, errMissing)
		assert.ErrorIs(t, errExisting, forge.ErrNotFound)
		assert.Equal(t, errMissing.Error(), errExisting.Error(), "actor %q", actor.UserID())
		_, errExisting = e.svc.RejectTransfer(ctx, actor, "carol", "cpub")
		_, errMissing = e.svc.RejectTransfer(ctx, actor, "carol", "doesnotexist")
		assert.Equal(t, errMissing.Error(), errExisting.Error())
	}
}
