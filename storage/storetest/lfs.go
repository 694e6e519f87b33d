package storetest

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/lfs"
	"github.com/hearthforge/hearth/quota"
)

// testLFS: meta objects round-trip per repository, conflict on a second
// insert, count across repositories, list by oid with the total, sum per
// repository, delete, and missing rows are forge.ErrNotFound.
func testLFS(t *testing.T, b Backend) {
	ctx := context.Background()
	s := b.LFS()
	_, r1, r2 := newUserRepos(t, b, "lfsowner", "one", "two")
	at := time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)
	oidA, oidB := strings.Repeat("a", 64), strings.Repeat("b", 64)
	mk := func(repo forge.ID, oid string, size int64) *lfs.MetaObject {
		return &lfs.MetaObject{Pointer: lfs.Pointer{Oid: oid, Size: size}, RepoID: repo, Created: at}
	}
	require.NoError(t, s.Update(ctx, func(tx lfs.Tx) error {
		for _, m := range []*lfs.MetaObject{mk(r1.ID, oidB, 20), mk(r1.ID, oidA, 10), mk(r2.ID, oidA, 10)} {
			if err := tx.CreateMetaObject(ctx, m); err != nil {
				return err
			}
		}
		return nil
	}))
	err := s.Update(ctx, func(tx lfs.Tx) error { return tx.CreateMetaObject(ctx, mk(r1.ID, oidA, 10)) })
	assert.ErrorIs(t, err, forge.ErrConflict)
	err = s.Update(ctx, func(tx lfs.Tx) error { return tx.CreateMetaObject(ctx, mk(9999, oidA, 10)) })
	assert.ErrorIs(t, err, forge.ErrNotFound, "a missing repository")

	require.NoError(t, s.View(ctx, func(tx lfs.Tx) error {
		m, err := tx.MetaObject(ctx, r1.ID, oidA)
		require.NoError(t, err)
		assert.Equal(t, mk(r1.ID, oidA, 10), m)
		_, err = tx.MetaObject(ctx, r2.ID, oidB)
		assert.ErrorIs(t, err, forge.ErrNotFound)
		n, err := tx.CountOid(ctx, oidA)
		require.NoError(t, err)
		assert.EqualValues(t, 2, n)
		list, total, err := tx.ListMetaObjects(ctx, r1.ID, forge.ListOptions{Page: 1, Limit: 1})
		require.NoError(t, err)
		assert.EqualValues(t, 2, total)
		require.Len(t, list, 1)
		assert.Equal(t, oidA, list[0].Oid, "ordered by oid")
		sum, err := tx.RepoLFSSize(ctx, r1.ID)
		require.NoError(t, err)
		assert.EqualValues(t, 30, sum)
		return nil
	}))

	checkUsageTx(t, s.Update, s.View, quota.RepoOwner(r1), quota.BucketLFS, func(u quota.Used) int64 { return u.LFS })

	require.NoError(t, s.Update(ctx, func(tx lfs.Tx) error { return tx.DeleteMetaObject(ctx, r1.ID, oidA) }))
	err = s.Update(ctx, func(tx lfs.Tx) error { return tx.DeleteMetaObject(ctx, r1.ID, oidA) })
	assert.ErrorIs(t, err, forge.ErrNotFound)
	require.NoError(t, s.View(ctx, func(tx lfs.Tx) error {
		n, err := tx.CountOid(ctx, oidA)
		assert.EqualValues(t, 1, n)
		return err
	}))
}
