package repos_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
)

// TestRelatedOfTrustsOnlyIDs: RelatedOf loads what it is given ids of and
// shows nothing of a repository the actor may not read, whatever the
// caller knows of it.
func TestRelatedOfTrustsOnlyIDs(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newMemEnv(t)
	alice := e.user(t, "alice")
	e.user(t, "bob")
	mallory := e.user(t, "mallory")
	secret := e.repo(t, alice, "secret", true)
	pub := e.repo(t, alice, "pub", false)
	for _, name := range []string{"secret", "pub"} {
		_, err := e.svc.StartTransfer(ctx, alice, "alice", name, "bob", nil)
		require.NoError(t, err)
	}
	ids := []forge.ID{secret.Repo.ID, pub.Repo.ID, 9999}

	for name, actor := range map[string]forge.Actor{"stranger": mallory, "anonymous": {}} {
		rel, err := e.svc.RelatedOf(ctx, actor, ids)
		require.NoError(t, err, name)
		_, ok := rel[secret.Repo.ID]
		assert.False(t, ok, "%s: nothing of a private repository it cannot read", name)
		_, ok = rel[9999]
		assert.False(t, ok, "%s: nothing of a missing repository", name)
		require.NotNil(t, rel[pub.Repo.ID].Transfer, "%s: the transfer of a public repository is shown", name)
	}
	rel, err := e.svc.RelatedOf(ctx, alice, ids)
	require.NoError(t, err)
	require.NotNil(t, rel[secret.Repo.ID].Transfer, "the owner sees its transfer")
	assert.Equal(t, "bob", rel[secret.Repo.ID].Transfer.Recipient.Name)

	// A credential without read:repository sees nothing related; an
	// account that may not act is refused.
	rel, err = e.svc.RelatedOf(ctx, token(t, alice, "read:user"), ids)
	require.NoError(t, err)
	assert.Empty(t, rel)
	_, err = e.svc.RelatedOf(ctx, deactivated(alice), ids)
	assert.ErrorIs(t, err, forge.ErrForbidden)
}

// TestRelatedOfHidesUnreadableParents: a fork's parent is shown only to
// those who may read it.
func TestRelatedOfHidesUnreadableParents(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newMemEnv(t)
	alice := e.user(t, "alice")
	carol := e.user(t, "carol")
	bob := e.user(t, "bob")
	base := e.repo(t, alice, "base", true)
	require.NoError(t, e.svc.AddCollaborator(ctx, alice, "alice", "base", "carol", forge.AccessModeRead))
	fork, err := e.svc.Fork(ctx, carol, "alice", "base", "")
	require.NoError(t, err)
	require.NoError(t, e.svc.AddCollaborator(ctx, carol, "carol", "base", "bob", forge.AccessModeRead))

	rel, err := e.svc.RelatedOf(ctx, carol, []forge.ID{fork.Repo.ID})
	require.NoError(t, err)
	require.NotNil(t, rel[fork.Repo.ID].Parent, "a reader of the parent sees it")
	assert.Equal(t, base.Repo.ID, rel[fork.Repo.ID].Parent.Repo.ID)

	rel, err = e.svc.RelatedOf(ctx, bob, []forge.ID{fork.Repo.ID})
	require.NoError(t, err)
	require.Contains(t, rel, fork.Repo.ID, "bob reads the fork")
	assert.Nil(t, rel[fork.Repo.ID].Parent, "but not its parent")
}

// deactivated is a copy of the actor whose account is inactive.
func deactivated(a forge.Actor) forge.Actor {
	u := *a.User
	u.IsActive = false
	a.User = &u
	return a
}
