package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/forgetest"
	"github.com/hearthforge/hearth/forge/sshkeys"
)

// testSSHKeys covers sshkeys.Tx: keys round trip, one per fingerprint, the
// filters and pages of ListKeys; deploy keys one per key and repository
// (and name), read with their key's fingerprint and content; deletes, and
// the cascades (a user's keys go with the user, deploy keys with their
// key and their repository).
func testSSHKeys(t *testing.T, b Backend) {
	ctx := context.Background()
	s := b.SSHKeys()
	ann := createUser(t, b.Auth(), forgetest.User("kann"))
	bob := createUser(t, b.Auth(), forgetest.User("kbob"))
	r1, r2 := newRepo(t, b, ann, "k1"), newRepo(t, b, ann, "k2")
	at := time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)
	k1 := &sshkeys.Key{OwnerID: ann.ID, Name: "laptop", Fingerprint: "SHA256:one", Content: "ssh-ed25519 AAA1",
		Mode: forge.AccessModeWrite, Type: sshkeys.TypeUser, Created: at, Updated: at}
	k2 := &sshkeys.Key{OwnerID: ann.ID, Name: "desk", Fingerprint: "SHA256:two", Content: "ssh-ed25519 AAA2",
		Mode: forge.AccessModeWrite, Type: sshkeys.TypeUser, Created: at, Updated: at}
	k3 := &sshkeys.Key{OwnerID: bob.ID, Name: "laptop", Fingerprint: "SHA256:three", Content: "ssh-ed25519 AAA3",
		Mode: forge.AccessModeWrite, Type: sshkeys.TypeUser, Created: at, Updated: at}
	dk := &sshkeys.Key{Name: "ci", Fingerprint: "SHA256:deploy", Content: "ssh-ed25519 AAAD",
		Mode: forge.AccessModeRead, Type: sshkeys.TypeDeploy, Created: at, Updated: at}
	require.NoError(t, s.Update(ctx, func(tx sshkeys.Tx) error {
		for _, k := range []*sshkeys.Key{k1, k2, k3, dk} {
			if err := tx.CreateKey(ctx, k); err != nil {
				return err
			}
		}
		return nil
	}))
	require.NotZero(t, k1.ID)
	err := s.Update(ctx, func(tx sshkeys.Tx) error {
		return tx.CreateKey(ctx, &sshkeys.Key{OwnerID: bob.ID, Name: "dup", Fingerprint: "SHA256:one", Content: "x",
			Mode: forge.AccessModeWrite, Type: sshkeys.TypeUser, Created: at, Updated: at})
	})
	assert.ErrorIs(t, err, forge.ErrConflict, "one key per fingerprint")
	err = s.Update(ctx, func(tx sshkeys.Tx) error {
		return tx.CreateKey(ctx, &sshkeys.Key{OwnerID: 99999, Name: "ghost", Fingerprint: "SHA256:ghost", Content: "x",
			Mode: forge.AccessModeWrite, Type: sshkeys.TypeUser, Created: at, Updated: at})
	})
	assert.ErrorIs(t, err, forge.ErrNotFound, "an unknown owner")

	d1 := &sshkeys.DeployKey{KeyID: dk.ID, RepoID: r1.ID, Name: "ci", Mode: forge.AccessModeRead, Created: at, Updated: at}
	d2 := &sshkeys.DeployKey{KeyID: dk.ID, RepoID: r2.ID, Name: "ci", Mode: forge.AccessModeWrite, Created: at, Updated: at}
	require.NoError(t, s.Update(ctx, func(tx sshkeys.Tx) error {
		if err := tx.CreateDeployKey(ctx, d1); err != nil {
			return err
		}
		return tx.CreateDeployKey(ctx, d2)
	}))
	err = s.Update(ctx, func(tx sshkeys.Tx) error {
		return tx.CreateDeployKey(ctx, &sshkeys.DeployKey{KeyID: dk.ID, RepoID: r1.ID, Name: "other", Mode: forge.AccessModeRead, Created: at, Updated: at})
	})
	assert.ErrorIs(t, err, forge.ErrConflict, "one deploy key per key and repository")
	err = s.Update(ctx, func(tx sshkeys.Tx) error {
		return tx.CreateDeployKey(ctx, &sshkeys.DeployKey{KeyID: k2.ID, RepoID: r1.ID, Name: "ci", Mode: forge.AccessModeRead, Created: at, Updated: at})
	})
	assert.ErrorIs(t, err, forge.ErrConflict, "names are unique per repository")

	require.NoError(t, s.View(ctx, func(tx sshkeys.Tx) error {
		got, err := tx.KeyByID(ctx, k1.ID)
		require.NoError(t, err)
		assert.Equal(t, *k1, *got)
		got, err = tx.KeyByFingerprint(ctx, "SHA256:deploy")
		require.NoError(t, err)
		assert.Equal(t, *dk, *got)
		_, err = tx.KeyByFingerprint(ctx, "SHA256:none")
		assert.ErrorIs(t, err, forge.ErrNotFound)
		_, err = tx.KeyByID(ctx, 99999)
		assert.ErrorIs(t, err, forge.ErrNotFound)

		list, n, err := tx.ListKeys(ctx, sshkeys.KeyFilter{OwnerID: ann.ID, Type: sshkeys.TypeUser}, forge.ListOptions{Page: 1, Limit: 1})
		require.NoError(t, err)
		assert.EqualValues(t, 2, n)
		require.Len(t, list, 1)
		assert.Equal(t, k1.ID, list[0].ID, "by id")
		list, _, err = tx.ListKeys(ctx, sshkeys.KeyFilter{OwnerID: ann.ID}, forge.ListOptions{Page: 2, Limit: 1})
		require.NoError(t, err)
		require.Len(t, list, 1)
		assert.Equal(t, k2.ID, list[0].ID)
		list, n, err = tx.ListKeys(ctx, sshkeys.KeyFilter{Name: "laptop"}, forge.ListOptions{Page: 1, Limit: -1})
		require.NoError(t, err)
		assert.EqualValues(t, 2, n)
		assert.Len(t, list, 2)
		list, n, err = tx.ListKeys(ctx, sshkeys.KeyFilter{Fingerprint: "SHA256:three"}, forge.ListOptions{Page: 1, Limit: 0})
		require.NoError(t, err)
		assert.EqualValues(t, 1, n)
		assert.Empty(t, list, "a zero limit counts only")
		list, _, err = tx.ListKeys(ctx, sshkeys.KeyFilter{Type: sshkeys.TypeDeploy}, forge.ListOptions{Page: 1, Limit: -1})
		require.NoError(t, err)
		require.Len(t, list, 1)
		assert.Zero(t, list[0].OwnerID)

		got1, err := tx.DeployKeyByID(ctx, d1.ID)
		require.NoError(t, err)
		want := *d1
		want.Fingerprint, want.Content = dk.Fingerprint, dk.Content
		assert.Equal(t, want, *got1)
		_, err = tx.DeployKeyByID(ctx, 99999)
		assert.ErrorIs(t, err, forge.ErrNotFound)
		ds, n, err := tx.ListDeployKeys(ctx, sshkeys.DeployFilter{KeyID: dk.ID}, forge.ListOptions{Page: 1, Limit: -1})
		require.NoError(t, err)
		assert.EqualValues(t, 2, n)
		require.Len(t, ds, 2)
		assert.Equal(t, []forge.ID{d1.ID, d2.ID}, []forge.ID{ds[0].ID, ds[1].ID})
		assert.Equal(t, forge.AccessModeWrite, ds[1].Mode)
		ds, _, err = tx.ListDeployKeys(ctx, sshkeys.DeployFilter{RepoID: r2.ID, Fingerprint: "SHA256:deploy", Name: "ci"}, forge.ListOptions{Page: 1, Limit: 10})
		require.NoError(t, err)
		require.Len(t, ds, 1)
		assert.Equal(t, d2.ID, ds[0].ID)
		ds, _, err = tx.ListDeployKeys(ctx, sshkeys.DeployFilter{Fingerprint: "SHA256:one"}, forge.ListOptions{Page: 1, Limit: 10})
		require.NoError(t, err)
		assert.Empty(t, ds)
		users, err := tx.UsersByID(ctx, []forge.ID{ann.ID})
		require.NoError(t, err)
		assert.Equal(t, "kann", users[ann.ID].Name)
		u, err := tx.UserByName(ctx, "KBOB")
		require.NoError(t, err)
		assert.Equal(t, bob.ID, u.ID)
		return nil
	}))

	// Deletes: a deploy key; a key takes its deploy keys; a user takes
	// their keys.
	require.NoError(t, s.Update(ctx, func(tx sshkeys.Tx) error { return tx.DeleteDeployKey(ctx, d1.ID) }))
	assert.ErrorIs(t, s.Update(ctx, func(tx sshkeys.Tx) error { return tx.DeleteDeployKey(ctx, d1.ID) }), forge.ErrNotFound)
	require.NoError(t, s.Update(ctx, func(tx sshkeys.Tx) error { return tx.DeleteKey(ctx, dk.ID) }))
	assert.ErrorIs(t, s.Update(ctx, func(tx sshkeys.Tx) error { return tx.DeleteKey(ctx, dk.ID) }), forge.ErrNotFound)
	update(t, b.Auth(), func(tx auth.Tx) error { return tx.DeleteUser(ctx, bob.ID) })
	require.NoError(t, s.View(ctx, func(tx sshkeys.Tx) error {
		_, err := tx.DeployKeyByID(ctx, d2.ID)
		assert.ErrorIs(t, err, forge.ErrNotFound, "deploy keys go with their key")
		_, err = tx.KeyByID(ctx, k3.ID)
		assert.ErrorIs(t, err, forge.ErrNotFound, "keys go with their user")
		_, n, err := tx.ListKeys(ctx, sshkeys.KeyFilter{}, forge.ListOptions{Page: 1, Limit: -1})
		require.NoError(t, err)
		assert.EqualValues(t, 2, n)
		return nil
	}))
}
