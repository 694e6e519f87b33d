package storetest

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
)

// testOwnsRepositories: OwnsRepositories sees repositories in every state;
// DeleteUser is a plain delete that still refuses to orphan repositories
// (with no domain message: the rule and its message are auth's).
func testOwnsRepositories(t *testing.T, b Backend) {
	ctx := context.Background()
	owner := newUser(t, b, "olga")
	other := newUser(t, b, "otto")
	owns := func(id forge.ID) bool {
		var got bool
		require.NoError(t, b.Auth().View(ctx, func(tx auth.Tx) error {
			var err error
			got, err = tx.OwnsRepositories(ctx, id)
			return err
		}))
		return got
	}
	assert.False(t, owns(owner.ID))
	r := newRepo(t, b, owner, "kept")
	assert.True(t, owns(owner.ID))
	assert.False(t, owns(other.ID))
	assert.False(t, owns(9999), "an unknown user owns nothing")

	repoUpdate(t, b.Repos(), func(tx repos.Tx) error {
		r.Status = forge.RepoDeleting
		return tx.UpdateRepo(ctx, r)
	})
	assert.True(t, owns(owner.ID), "a repository being deleted still counts")

	err := b.Auth().Update(ctx, func(tx auth.Tx) error { return tx.DeleteUser(ctx, owner.ID) })
	assert.ErrorIs(t, err, forge.ErrPrecondition, "repositories are not orphaned")
	assert.NotContains(t, err.Error(), "ownership", "the rule's message is the domain's")

	repoUpdate(t, b.Repos(), func(tx repos.Tx) error { return tx.DeleteRepo(ctx, r.ID) })
	assert.False(t, owns(owner.ID))
	update(t, b.Auth(), func(tx auth.Tx) error { return tx.DeleteUser(ctx, owner.ID) })
}
