package orgs_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
)

// A blocked user keeps no access to the organisation's repositories
// through a collaboration, and no watch of them (Forgejo's BlockUser); a
// refused block takes nothing.
func TestBlockDropsCollaborations(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	own := e.user(t, "own")
	troll := e.user(t, "troll")
	o := e.org(t, own, "acme", "")
	other := e.org(t, own, "other", "")
	r := e.repo(t, o, "code")
	elsewhere := e.repo(t, other, "code")
	require.NoError(t, e.st.Repos().Update(ctx, func(tx repos.Tx) error {
		for _, id := range []forge.ID{r.ID, elsewhere.ID} {
			if err := tx.SetCollaborator(ctx, id, troll.UserID(), forge.AccessModeWrite); err != nil {
				return err
			}
			if err := tx.SetWatch(ctx, id, troll.UserID(), repos.WatchNormal, e.clock.Now()); err != nil {
				return err
			}
		}
		return nil
	}))
	modes := func() (acme, elsewhereMode forge.AccessMode, watching bool) {
		require.NoError(t, e.st.Repos().View(ctx, func(tx repos.Tx) error {
			var err error
			if acme, err = tx.CollaboratorMode(ctx, r.ID, troll.UserID()); err != nil {
				return err
			}
			w, _, err := tx.Watch(ctx, r.ID, troll.UserID())
			watching = w.Watching()
			if err != nil {
				return err
			}
			elsewhereMode, err = tx.CollaboratorMode(ctx, elsewhere.ID, troll.UserID())
			return err
		}))
		return
	}
	// The last owner cannot be blocked: nothing is taken.
	require.ErrorIs(t, e.svc.Block(ctx, own, "acme", "own"), forge.ErrPrecondition)

	require.NoError(t, e.svc.Block(ctx, own, "acme", "troll"))
	acme, elsewhereMode, watching := modes()
	require.Equal(t, forge.AccessNone, acme, "no collaboration on the organisation's repository")
	require.False(t, watching)
	require.Equal(t, forge.AccessModeWrite, elsewhereMode, "other owners' repositories are untouched")
}
