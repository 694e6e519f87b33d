package repos_test

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/forgetest"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/storage/memgit"
	"github.com/hearthforge/hearth/storage/memstore"
)

// TestConfigLimits: Config.MaxFilesPerCommit refuses a larger change before
// anything is written, and Config.MaxBlobSize leaves larger files' content
// out of contents reads.
func TestConfigLimits(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	store := memstore.New()
	git := memgit.New()
	s, err := repos.New(repos.Config{Store: store.Repos(), Git: git, MaxFilesPerCommit: 2, MaxBlobSize: 4})
	require.NoError(t, err)
	u := forgetest.User("ann")
	require.NoError(t, store.Auth().Update(ctx, func(tx auth.Tx) error { return tx.CreateUser(ctx, u, "") }))
	ann := forgetest.ActorFor(u)
	_, err = s.Create(ctx, ann, "", repos.CreateOptions{Name: "tools", AutoInit: true})
	require.NoError(t, err)

	three := []repos.FileChange{{Op: "create", Path: "a", Content: []byte("1")}, {Op: "create", Path: "b", Content: []byte("1")},
		{Op: "create", Path: "c", Content: []byte("1")}}
	_, _, _, err = s.ChangeFiles(ctx, ann, "ann", "tools", repos.ChangeFilesOptions{Files: three})
	assert.True(t, errors.Is(err, forge.ErrInvalid), "3 files over a limit of 2: %v", err)
	_, _, err = s.GetContents(ctx, ann, "ann", "tools", "a", "")
	assert.ErrorIs(t, err, forge.ErrNotFound, "nothing of the refused change was written")

	_, _, _, err = s.ChangeFiles(ctx, ann, "ann", "tools", repos.ChangeFilesOptions{Files: []repos.FileChange{
		{Op: "create", Path: "small", Content: []byte("1234")}, {Op: "create", Path: "large", Content: []byte("12345")}}})
	require.NoError(t, err)
	_, small, err := s.GetContents(ctx, ann, "ann", "tools", "small", "")
	require.NoError(t, err)
	assert.Equal(t, "1234", string(small.Content))
	_, large, err := s.GetContents(ctx, ann, "ann", "tools", "large", "")
	require.NoError(t, err)
	assert.Nil(t, large.Content, "over MaxBlobSize: described without content")
}
