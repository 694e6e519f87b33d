package auth_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge"
)

// TestPublicOnlyTokensDoNotTellPrivateUsersExist: a public-only token asking
// for a private user it may not see gets the answer of a missing user, not
// the public-only refusal (which would tell that the user exists).
func TestPublicOnlyTokensDoNotTellPrivateUsersExist(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFixture(t, ":memory:")
	eve := f.user(t, "eve", false)
	f.user(t, "carol", false)
	private := forge.VisibilityPrivate
	_, err := f.svc.EditUser(ctx, f.root, "carol", auth.EditUserOptions{Visibility: &private})
	assert.NoError(t, err)
	scope, err := forge.ParseScope("read:user", "public-only")
	assert.NoError(t, err)
	eve.Scoped, eve.Scope = true, scope

	_, errPrivate := f.svc.User(ctx, eve, "carol")
	_, errMissing := f.svc.User(ctx, eve, "zzghost")
	assert.ErrorIs(t, errPrivate, forge.ErrNotFound)
	assert.ErrorIs(t, errMissing, forge.ErrNotFound)
	assert.Equal(t, "user redirect does not exist [name: carol]", errPrivate.Error())
}
