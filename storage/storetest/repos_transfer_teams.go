package storetest

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

// testTransferTeams: a pending transfer keeps its team ids in order,
// Transfer and Transfers return them, a replacing transfer replaces them,
// a deleted team leaves them, an unknown team is refused; TeamOrgs maps
// team ids to their organisation.
func testTransferTeams(t *testing.T, b Backend) {
	ctx := context.Background()
	s := b.Repos()
	ann := newUser(t, b, "ann")
	r, r2 := newRepo(t, b, ann, "tool"), newRepo(t, b, ann, "other")
	acme, zeta := newOrg(t, b, "acme"), newOrg(t, b, "zeta")
	t1, t2, t3 := newTeam(t, b, acme, "one"), newTeam(t, b, acme, "two"), newTeam(t, b, zeta, "three")
	at := time.Date(2024, 7, 1, 0, 0, 0, 0, time.UTC)

	require.NoError(t, s.View(ctx, func(tx repos.Tx) error {
		m, err := tx.TeamOrgs(ctx, []forge.ID{t1.ID, t3.ID, 99999})
		assert.Equal(t, map[forge.ID]forge.ID{t1.ID: acme.ID, t3.ID: zeta.ID}, m)
		require.NoError(t, err)
		m, err = tx.TeamOrgs(ctx, nil)
		assert.NotNil(t, m)
		assert.Empty(t, m)
		return err
	}))

	repoUpdate(t, s, func(tx repos.Tx) error {
		if err := tx.SetTransfer(ctx, &repos.Transfer{RepoID: r.ID, Doer: ann, Recipient: acme, Created: at,
			TeamIDs: []forge.ID{t2.ID, t1.ID}}); err != nil {
			return err
		}
		return tx.SetTransfer(ctx, &repos.Transfer{RepoID: r2.ID, Doer: ann, Recipient: acme, Created: at})
	})
	teamsOf := func() (single []forge.ID, batch map[forge.ID][]forge.ID) {
		require.NoError(t, s.View(ctx, func(tx repos.Tx) error {
			tr, err := tx.Transfer(ctx, r.ID)
			require.NoError(t, err)
			single = tr.TeamIDs
			m, err := tx.Transfers(ctx, []forge.ID{r.ID, r2.ID})
			require.NoError(t, err)
			batch = map[forge.ID][]forge.ID{}
			for id, tr := range m {
				batch[id] = tr.TeamIDs
			}
			return nil
		}))
		return single, batch
	}
	single, batch := teamsOf()
	assert.Equal(t, []forge.ID{t2.ID, t1.ID}, single, "kept in order")
	assert.Equal(t, []forge.ID{t2.ID, t1.ID}, batch[r.ID])
	assert.Empty(t, batch[r2.ID])
	assert.Contains(t, batch, r2.ID)

	// An unknown team is refused and nothing changes.
	err := s.Update(ctx, func(tx repos.Tx) error {
		return tx.SetTransfer(ctx, &repos.Transfer{RepoID: r.ID, Doer: ann, Recipient: acme, Created: at,
			TeamIDs: []forge.ID{t1.ID, 99999}})
	})
	assert.ErrorIs(t, err, forge.ErrNotFound)
	single, _ = teamsOf()
	assert.Equal(t, []forge.ID{t2.ID, t1.ID}, single)

	// A deleted team leaves the transfer.
	orgUpdate(t, b.Orgs(), func(tx orgs.Tx) error { return tx.DeleteTeam(ctx, t2.ID) })
	single, _ = teamsOf()
	assert.Equal(t, []forge.ID{t1.ID}, single)

	// A replacing transfer replaces the teams; a deleted transfer forgets them.
	repoUpdate(t, s, func(tx repos.Tx) error {
		return tx.SetTransfer(ctx, &repos.Transfer{RepoID: r.ID, Doer: ann, Recipient: zeta, Created: at, TeamIDs: []forge.ID{t3.ID}})
	})
	single, _ = teamsOf()
	assert.Equal(t, []forge.ID{t3.ID}, single)
	repoUpdate(t, s, func(tx repos.Tx) error {
		if err := tx.DeleteTransfer(ctx, r.ID); err != nil {
			return err
		}
		return tx.SetTransfer(ctx, &repos.Transfer{RepoID: r.ID, Doer: ann, Recipient: zeta, Created: at})
	})
	single, _ = teamsOf()
	assert.Empty(t, single)
}
