package repos_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
)

// TestParentReturnsItsErrors: Parent answers nil for no parent or an
// invisible one, and returns the refusals of the actor (account state,
// token scope, an unreadable fork) instead of taking them for "no
// parent".
func TestParentReturnsItsErrors(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newMemEnv(t)
	alice := e.user(t, "alice")
	carol := e.user(t, "carol")
	stranger := e.user(t, "stranger")
	base := e.repo(t, alice, "base", false)
	fork, err := e.svc.Fork(ctx, carol, "alice", "base", "")
	require.NoError(t, err)
	private := e.repo(t, carol, "mine", true)

	p, err := e.svc.Parent(ctx, stranger, fork.Repo.ID)
	require.NoError(t, err)
	require.NotNil(t, p)
	assert.Equal(t, base.Repo.ID, p.Repo.ID)
	p, err = e.svc.Parent(ctx, carol, base.Repo.ID)
	require.NoError(t, err)
	assert.Nil(t, p, "not a fork")

	inactive := stranger
	u := *stranger.User
	u.IsActive = false
	inactive.User = &u
	_, err = e.svc.Parent(ctx, inactive, fork.Repo.ID)
	var state *forge.AccountStateError
	assert.ErrorAs(t, err, &state, "an account that may not act")
	_, err = e.svc.Parent(ctx, token(t, stranger, "read:user"), fork.Repo.ID)
	assert.ErrorIs(t, err, forge.ErrForbidden, "a token without read:repository")
	_, err = e.svc.Parent(ctx, stranger, private.Repo.ID)
	assert.ErrorIs(t, err, repos.ErrRepoNotFound, "a fork the actor cannot read")

	// A parent made private (its forks follow) is invisible to a reader
	// of the fork who cannot read it: nil, no error.
	yes := true
	_, err = e.svc.Edit(ctx, alice, "alice", "base", repos.EditOptions{Private: &yes})
	require.NoError(t, err)
	require.NoError(t, e.svc.AddCollaborator(ctx, carol, "carol", "base", "stranger", forge.AccessModeRead))
	p, err = e.svc.Parent(ctx, stranger, fork.Repo.ID)
	require.NoError(t, err)
	assert.Nil(t, p)
}
