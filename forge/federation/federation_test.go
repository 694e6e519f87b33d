package federation_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/federation"
	"github.com/hearthforge/hearth/storage/memstore"
)

// TestKeyDirKeepsKeys: a key pair is made once, written 0600 in the
// directory and read back by a new KeyDir on the same directory (a
// restart); owners have different keys; a file that is no key is an
// error, never replaced.
func TestKeyDirKeepsKeys(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "federation")
	k := &federation.KeyDir{Dir: dir, Bits: 2048}
	a, err := k.KeyPair(ctx, "actor")
	require.NoError(t, err)
	again, err := (&federation.KeyDir{Dir: dir}).KeyPair(ctx, "actor")
	require.NoError(t, err)
	assert.True(t, a.Equal(again), "the key survives a restart")
	info, err := os.Stat(filepath.Join(dir, "actor.pem"))
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), info.Mode().Perm())
	u, err := k.KeyPair(ctx, "user-1")
	require.NoError(t, err)
	assert.False(t, a.Equal(u))

	require.NoError(t, os.WriteFile(filepath.Join(dir, "user-2.pem"), []byte("garbage"), 0o600))
	_, err = (&federation.KeyDir{Dir: dir}).KeyPair(ctx, "user-2")
	assert.Error(t, err)
	data, _ := os.ReadFile(filepath.Join(dir, "user-2.pem"))
	assert.Equal(t, "garbage", string(data), "a bad key file is left alone")
}

// TestDisabledIsAbsent: with federation off every operation is
// forge.ErrNotFound, whoever asks, and nothing is read or made.
func TestDisabledIsAbsent(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, err := federation.New(federation.Config{Store: memstore.New().Federation()})
	require.NoError(t, err)
	admin := forge.Actor{User: &forge.User{ID: 1, Name: "root", IsAdmin: true, IsActive: true}}
	for _, actor := range []forge.Actor{{}, admin} {
		_, err = s.NodeInfo(ctx, actor)
		assert.ErrorIs(t, err, forge.ErrNotFound)
		_, err = s.InstanceActor(ctx, actor, "http://x/")
		assert.ErrorIs(t, err, forge.ErrNotFound)
		_, err = s.Person(ctx, actor, "http://x/", nil, 1)
		assert.ErrorIs(t, err, forge.ErrNotFound)
		_, err = s.Repository(ctx, actor, "http://x/", nil, 1)
		assert.ErrorIs(t, err, forge.ErrNotFound)
		assert.ErrorIs(t, s.InstanceInbox(ctx, actor, nil), forge.ErrNotFound)
	}
	_, err = federation.New(federation.Config{Enabled: true})
	assert.Error(t, err, "enabled needs a store and keys")
}

// TestUnsignedIsRefused: with federation on, an operation behind the
// signature check refuses a request with no signature (ErrSignature),
// before it reads anything.
func TestUnsignedIsRefused(t *testing.T) {
	t.Parallel()
	s, err := federation.New(federation.Config{Enabled: true, Store: memstore.New().Federation(), Keys: &federation.MemoryKeys{}})
	require.NoError(t, err)
	_, err = s.Person(context.Background(), forge.Actor{}, "http://x/", nil, 1)
	assert.ErrorIs(t, err, federation.ErrSignature)
	assert.ErrorIs(t, err, forge.ErrInvalid)
}
