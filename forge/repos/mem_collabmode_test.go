package repos_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
)

// AddCollaborator grants read, write or admin only: none, owner and
// values outside the enumeration are forge.ErrInvalid, and nothing is
// stored.
func TestMemAddCollaboratorModes(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newMemEnv(t)
	ann := e.user(t, "ann")
	e.user(t, "bob")
	e.repo(t, ann, "tools", false)
	for _, m := range []forge.AccessMode{forge.AccessNone, forge.AccessModeOwner, forge.AccessModeOwner + 1, -1} {
		err := e.svc.AddCollaborator(ctx, ann, "ann", "tools", "bob", m)
		require.ErrorIs(t, err, forge.ErrInvalid, "mode %d", m)
		assert.EqualError(t, err, "[Permission]: In")
		ok, err := e.svc.IsCollaborator(ctx, ann, "ann", "tools", "bob")
		require.NoError(t, err)
		assert.False(t, ok, "mode %d: nothing stored", m)
	}
	for _, m := range []forge.AccessMode{forge.AccessModeRead, forge.AccessModeWrite, forge.AccessModeAdmin} {
		require.NoError(t, e.svc.AddCollaborator(ctx, ann, "ann", "tools", "bob", m))
		_, got, err := e.svc.UserPermission(ctx, ann, "ann", "tools", "bob")
		require.NoError(t, err)
		assert.Equal(t, m, got)
	}
}

func TestAccessModeString(t *testing.T) {
	t.Parallel()
	for m, want := range map[forge.AccessMode]string{
		forge.AccessNone: "none", forge.AccessModeRead: "read", forge.AccessModeWrite: "write",
		forge.AccessModeAdmin: "admin", forge.AccessModeOwner: "owner", forge.AccessModeOwner + 1: "none", -1: "none",
	} {
		assert.Equal(t, want, repos.AccessModeString(m), "mode %d", m)
	}
}
