package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/actions/artifacts"
	"github.com/hearthforge/hearth/quota"
)

// testArtifacts: artifacts round-trip, a run's names are unique, lists
// filter by run newest first, due artifacts come oldest first up to the
// limit, expiry keeps the row and forgets the blob, delete removes it.
func testArtifacts(t *testing.T, b Backend) {
	ctx := context.Background()
	s := b.Artifacts()
	owner, repo := newUserRepo(t, b, "artowner", "built")
	at := time.Date(2024, 7, 1, 0, 0, 0, 0, time.UTC)
	mk := func(run forge.ID, name string, expires time.Time) *artifacts.Artifact {
		return &artifacts.Artifact{RepoID: repo.ID, RunID: run, Name: name, BlobKey: "art-" + name, Size: 30,
			CompressedSize: 12, Status: artifacts.StatusConfirmed, Created: at, Expires: expires}
	}
	a1, a2, a3 := mk(1, "logs", at.Add(time.Hour)), mk(1, "bin", at.Add(48*time.Hour)), mk(2, "logs", at.Add(2*time.Hour))
	require.NoError(t, s.Update(ctx, func(tx artifacts.Tx) error {
		for _, a := range []*artifacts.Artifact{a1, a2, a3} {
			if err := tx.CreateArtifact(ctx, a); err != nil {
				return err
			}
			require.NotZero(t, a.ID)
		}
		return nil
	}))
	err := s.Update(ctx, func(tx artifacts.Tx) error { return tx.CreateArtifact(ctx, mk(1, "logs", at)) })
	assert.ErrorIs(t, err, forge.ErrConflict)
	bad := mk(3, "x", at)
	bad.RepoID = 9999
	err = s.Update(ctx, func(tx artifacts.Tx) error { return tx.CreateArtifact(ctx, bad) })
	assert.ErrorIs(t, err, forge.ErrNotFound)

	require.NoError(t, s.View(ctx, func(tx artifacts.Tx) error {
		got, err := tx.Artifact(ctx, repo.ID, a2.ID)
		require.NoError(t, err)
		assert.Equal(t, a2, got)
		_, err = tx.Artifact(ctx, repo.ID+1, a2.ID)
		assert.ErrorIs(t, err, forge.ErrNotFound, "another repository's id")
		r, err := tx.RepoByID(ctx, repo.ID)
		require.NoError(t, err)
		assert.Equal(t, owner.ID, r.OwnerID)
		list, n, err := tx.ListArtifacts(ctx, repo.ID, 0, forge.ListOptions{})
		require.NoError(t, err)
		assert.EqualValues(t, 3, n)
		assert.Equal(t, []forge.ID{a3.ID, a2.ID, a1.ID}, artifactIDs(list))
		list, n, err = tx.ListArtifacts(ctx, repo.ID, 1, forge.ListOptions{Page: 2, Limit: 1})
		require.NoError(t, err)
		assert.EqualValues(t, 2, n)
		assert.Equal(t, []forge.ID{a1.ID}, artifactIDs(list))
		due, err := tx.DueArtifacts(ctx, at.Add(3*time.Hour), 10)
		require.NoError(t, err)
		assert.Equal(t, []forge.ID{a1.ID, a3.ID}, artifactIDs(due))
		due, err = tx.DueArtifacts(ctx, at.Add(3*time.Hour), 1)
		require.NoError(t, err)
		assert.Equal(t, []forge.ID{a1.ID}, artifactIDs(due))
		return nil
	}))

	checkUsageTx(t, s.Update, s.View, quota.RepoOwner(repo), quota.BucketArtifacts, func(u quota.Used) int64 { return u.Artifacts })

	require.NoError(t, s.Update(ctx, func(tx artifacts.Tx) error { return tx.ExpireArtifact(ctx, a1.ID) }))
	require.NoError(t, s.Update(ctx, func(tx artifacts.Tx) error { return tx.DeleteArtifact(ctx, a3.ID) }))
	for _, fn := range []func(tx artifacts.Tx) error{
		func(tx artifacts.Tx) error { return tx.ExpireArtifact(ctx, 9999) },
		func(tx artifacts.Tx) error { return tx.DeleteArtifact(ctx, a3.ID) },
	} {
		assert.ErrorIs(t, s.Update(ctx, fn), forge.ErrNotFound)
	}
	require.NoError(t, s.View(ctx, func(tx artifacts.Tx) error {
		got, err := tx.Artifact(ctx, repo.ID, a1.ID)
		require.NoError(t, err)
		assert.Equal(t, artifacts.StatusExpired, got.Status)
		assert.Empty(t, got.BlobKey)
		due, err := tx.DueArtifacts(ctx, at.Add(100*time.Hour), 10)
		require.NoError(t, err)
		assert.Equal(t, []forge.ID{a2.ID}, artifactIDs(due), "expired ones are not due")
		return nil
	}))
}

func artifactIDs(list []*artifacts.Artifact) []forge.ID {
	return pluck(list, func(a *artifacts.Artifact) forge.ID { return a.ID })
}
