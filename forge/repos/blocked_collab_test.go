package repos_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/orgs"
	"github.com/hearthforge/hearth/forge/repos"
)

// A user the owning organisation blocks, or a user who blocks the owner,
// cannot be made a collaborator: 403 `user is blocked by the poster or
// repository owner` (Forgejo's repo_module.AddCollaborator), nothing stored.
func TestAddCollaboratorBlocked(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newOrgEnv(t)
	owner := e.user(t, "owner")
	pest := e.user(t, "pest")
	shy := e.user(t, "shy")
	fine := e.user(t, "fine")
	acme := e.org(t, "acme", forge.VisibilityPublic, owner)
	_, err := e.svc.CreateInOrg(ctx, owner, "acme", repos.CreateOptions{Name: "tool"})
	require.NoError(t, err)
	_, err = e.svc.Create(ctx, owner, "", repos.CreateOptions{Name: "mine"})
	require.NoError(t, err)
	require.NoError(t, e.orgs.Update(ctx, func(tx orgs.Tx) error {
		if err := tx.SetBlock(ctx, forge.Block{BlockerID: acme.ID, UserID: pest.UserID(), Created: time.Unix(1700000000, 0)}); err != nil {
			return err
		}
		if err := tx.SetBlock(ctx, forge.Block{BlockerID: shy.UserID(), UserID: acme.ID, Created: time.Unix(1700000000, 0)}); err != nil {
			return err
		}
		return tx.SetBlock(ctx, forge.Block{BlockerID: owner.UserID(), UserID: pest.UserID(), Created: time.Unix(1700000000, 0)})
	}))
	for _, c := range []struct{ owner, repo, user string }{
		{"acme", "tool", "pest"},  // the organisation blocks the user
		{"acme", "tool", "shy"},   // the user blocks the organisation
		{"owner", "mine", "pest"}, // a user owner blocks the user
	} {
		err := e.svc.AddCollaborator(ctx, owner, c.owner, c.repo, c.user, forge.AccessModeWrite)
		require.ErrorIs(t, err, forge.ErrForbidden, "%+v", c)
		assert.EqualError(t, err, "user is blocked by the poster or repository owner")
		ok, err := e.svc.IsCollaborator(ctx, owner, c.owner, c.repo, c.user)
		require.NoError(t, err)
		assert.False(t, ok, "%+v: nothing stored", c)
	}
	require.NoError(t, e.svc.AddCollaborator(ctx, owner, "acme", "tool", "fine", forge.AccessModeWrite))
	require.NoError(t, e.svc.AddCollaborator(ctx, owner, "owner", "mine", "shy", forge.AccessModeRead))
	_ = fine
}
