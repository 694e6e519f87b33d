package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/forgetest"
	"github.com/hearthforge/hearth/forge/gpgkeys"
)

// testGPGKeys covers gpgkeys.Tx: a key and its subkeys round trip (e-mails,
// flags, times, the armored block on the primary row only), key ids are
// unique over all users, the owner's lists page primary keys by id, a
// subkey is found by id, verification, deletion of a subkey alone and of a
// primary key with its subkeys, and the keys going with their user.
func testGPGKeys(t *testing.T, b Backend) {
	ctx := context.Background()
	s := b.GPGKeys()
	ann := createUser(t, b.Auth(), forgetest.User("gann"))
	bob := createUser(t, b.Auth(), forgetest.User("gbob"))
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	k1 := &gpgkeys.Key{OwnerID: ann.ID, KeyID: "AAAA000000000001", Content: "c1", Armored: "armor-1", Created: at,
		Expires: at.Add(time.Hour), Added: at, Emails: []gpgkeys.Email{{Email: "gann@example.com", Verified: true}},
		CanSign: true, CanCertify: true,
		SubKeys: []*gpgkeys.Key{
			{KeyID: "AAAA0000000000S1", Content: "s1", Armored: "not kept", Created: at, Added: at, CanEncryptComms: true, CanEncryptStorage: true},
			{KeyID: "AAAA0000000000S2", Content: "s2", Created: at, Added: at, CanSign: true},
		}}
	k2 := &gpgkeys.Key{OwnerID: ann.ID, KeyID: "AAAA000000000002", Content: "c2", Armored: "armor-2", Created: at, Added: at}
	require.NoError(t, s.Update(ctx, func(tx gpgkeys.Tx) error {
		if err := tx.CreateKey(ctx, k1); err != nil {
			return err
		}
		return tx.CreateKey(ctx, k2)
	}))
	require.NotZero(t, k1.ID)
	require.NotZero(t, k1.SubKeys[0].ID)

	dup := func(owner forge.ID, keyID string) error {
		return s.Update(ctx, func(tx gpgkeys.Tx) error {
			return tx.CreateKey(ctx, &gpgkeys.Key{OwnerID: owner, KeyID: keyID, Content: "x", Created: at, Added: at})
		})
	}
	assert.ErrorIs(t, dup(bob.ID, "AAAA000000000001"), forge.ErrConflict, "a primary key id of another user")
	assert.ErrorIs(t, dup(bob.ID, "AAAA0000000000S2"), forge.ErrConflict, "a subkey id")
	assert.ErrorIs(t, dup(999999, "BBBB000000000001"), forge.ErrNotFound, "no such owner")

	require.NoError(t, s.View(ctx, func(tx gpgkeys.Tx) error {
		used, err := tx.KeyIDUsed(ctx, "AAAA0000000000S1")
		require.NoError(t, err)
		assert.True(t, used)
		used, err = tx.KeyIDUsed(ctx, "CCCC000000000001")
		require.NoError(t, err)
		assert.False(t, used)

		got, err := tx.KeyByID(ctx, ann.ID, k1.ID)
		require.NoError(t, err)
		want := &gpgkeys.Key{ID: k1.ID, OwnerID: ann.ID, KeyID: "AAAA000000000001", Content: "c1", Armored: "armor-1",
			Created: at, Expires: at.Add(time.Hour), Added: at,
			Emails: []gpgkeys.Email{{Email: "gann@example.com", Verified: true}}, CanSign: true, CanCertify: true,
			SubKeys: []*gpgkeys.Key{
				{ID: k1.SubKeys[0].ID, OwnerID: ann.ID, KeyID: "AAAA0000000000S1", PrimaryKeyID: "AAAA000000000001", Content: "s1",
					Created: at, Added: at, Emails: []gpgkeys.Email{}, CanEncryptComms: true, CanEncryptStorage: true},
				{ID: k1.SubKeys[1].ID, OwnerID: ann.ID, KeyID: "AAAA0000000000S2", PrimaryKeyID: "AAAA000000000001", Content: "s2",
					Created: at, Added: at, Emails: []gpgkeys.Email{}, CanSign: true},
			}}
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("KeyByID (-want +got):\n%s", d)
		}
		sub, err := tx.KeyByID(ctx, ann.ID, k1.SubKeys[1].ID)
		require.NoError(t, err)
		assert.Equal(t, "AAAA000000000001", sub.PrimaryKeyID)
		assert.Empty(t, sub.SubKeys)
		_, err = tx.KeyByID(ctx, bob.ID, k1.ID)
		assert.ErrorIs(t, err, forge.ErrNotFound, "another user's key")

		byKeyID, err := tx.KeyByKeyID(ctx, ann.ID, "AAAA000000000001")
		require.NoError(t, err)
		assert.Equal(t, k1.ID, byKeyID.ID)
		assert.Len(t, byKeyID.SubKeys, 2)
		_, err = tx.KeyByKeyID(ctx, ann.ID, "AAAA0000000000S1")
		assert.ErrorIs(t, err, forge.ErrNotFound, "a subkey is no primary key")

		list, total, err := tx.ListKeys(ctx, ann.ID, forge.ListOptions{Page: 1, Limit: 1})
		require.NoError(t, err)
		assert.EqualValues(t, 2, total, "primary keys only")
		require.Len(t, list, 1)
		assert.Equal(t, k1.ID, list[0].ID)
		assert.Len(t, list[0].SubKeys, 2)
		list, _, err = tx.ListKeys(ctx, ann.ID, forge.ListOptions{Page: 2, Limit: 1})
		require.NoError(t, err)
		require.Len(t, list, 1)
		assert.Equal(t, k2.ID, list[0].ID)
		list, total, err = tx.ListKeys(ctx, ann.ID, forge.ListOptions{Limit: -1})
		require.NoError(t, err)
		assert.Len(t, list, 2)
		assert.EqualValues(t, 2, total)
		list, total, err = tx.ListKeys(ctx, bob.ID, forge.ListOptions{Page: 1, Limit: 10})
		require.NoError(t, err)
		assert.Empty(t, list)
		assert.Zero(t, total)
		return nil
	}))

	require.NoError(t, s.Update(ctx, func(tx gpgkeys.Tx) error { return tx.SetVerified(ctx, k2.ID) }))
	assert.ErrorIs(t, s.Update(ctx, func(tx gpgkeys.Tx) error { return tx.SetVerified(ctx, 999999) }), forge.ErrNotFound)
	// A subkey alone, then a primary key with its other subkey.
	require.NoError(t, s.Update(ctx, func(tx gpgkeys.Tx) error { return tx.DeleteKey(ctx, k1.SubKeys[0].ID) }))
	require.NoError(t, s.View(ctx, func(tx gpgkeys.Tx) error {
		k, err := tx.KeyByID(ctx, ann.ID, k2.ID)
		require.NoError(t, err)
		assert.True(t, k.Verified)
		k, err = tx.KeyByID(ctx, ann.ID, k1.ID)
		require.NoError(t, err)
		require.Len(t, k.SubKeys, 1)
		assert.Equal(t, "AAAA0000000000S2", k.SubKeys[0].KeyID)
		return nil
	}))
	require.NoError(t, s.Update(ctx, func(tx gpgkeys.Tx) error { return tx.DeleteKey(ctx, k1.ID) }))
	assert.ErrorIs(t, s.Update(ctx, func(tx gpgkeys.Tx) error { return tx.DeleteKey(ctx, k1.ID) }), forge.ErrNotFound)
	require.NoError(t, s.View(ctx, func(tx gpgkeys.Tx) error {
		_, err := tx.KeyByID(ctx, ann.ID, k1.SubKeys[1].ID)
		assert.ErrorIs(t, err, forge.ErrNotFound, "the subkey went with its primary key")
		used, err := tx.KeyIDUsed(ctx, "AAAA0000000000S2")
		require.NoError(t, err)
		assert.False(t, used)
		return nil
	}))
	// The keys go with their user, and their ids are free again.
	update(t, b.Auth(), func(tx auth.Tx) error { return tx.DeleteUser(ctx, ann.ID) })
	require.NoError(t, s.View(ctx, func(tx gpgkeys.Tx) error {
		used, err := tx.KeyIDUsed(ctx, "AAAA000000000002")
		require.NoError(t, err)
		assert.False(t, used, "the key went with its user")
		return nil
	}))
	require.NoError(t, dup(bob.ID, "AAAA000000000002"))
}
