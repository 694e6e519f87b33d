package storetest

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/actions/artifacts"
	"github.com/hearthforge/hearth/forge/lfs"
	"github.com/hearthforge/hearth/forge/packages"
	"github.com/hearthforge/hearth/quota"
)

// checkUsageTx: a domain's Tx charges quota in its own transaction: the
// counter it adds is in the owner's usage, read back through the same Tx;
// a rolled-back charge leaves nothing; the owner's groups read through it.
func checkUsageTx[T quota.UsageTx](t *testing.T, update, view func(context.Context, func(T) error) error, owner quota.Owner,
	b quota.Bucket, get func(quota.Used) int64) {
	t.Helper()
	ctx := context.Background()
	require.NoError(t, update(ctx, func(tx T) error { return tx.AddUsage(ctx, owner, b, 42) }))
	err := update(ctx, func(tx T) error {
		require.NoError(t, tx.AddUsage(ctx, owner, b, 1000))
		return forge.Errorf(forge.ErrInvalid, "roll back")
	})
	require.ErrorIs(t, err, forge.ErrInvalid)
	require.NoError(t, view(ctx, func(tx T) error {
		u, err := tx.Usage(ctx, owner.ID)
		require.NoError(t, err)
		assert.EqualValues(t, 42, get(u))
		gs, err := tx.QuotaGroupsOf(ctx, owner.ID)
		require.NoError(t, err)
		assert.Empty(t, gs)
		gs, err = tx.QuotaGroupsNamed(ctx, []string{"nope"})
		require.NoError(t, err)
		assert.Empty(t, gs)
		return nil
	}))
	require.NoError(t, update(ctx, func(tx T) error { return tx.AddUsage(ctx, owner, b, -42) }))
}

// testLFSPackageUsage: quota's recount and lists read the rows of LFS
// objects, package files and unexpired artifacts of the owner
// (quota.LFSUsageTx, quota.PackageUsageTx, quota.ArtifactUsageTx), when
// the backend's quota Tx has them.
func testLFSPackageUsage(t *testing.T, b Backend) {
	ctx := context.Background()
	owner := newUser(t, b, "usageowner")
	other := newUser(t, b, "usageother")
	repo := newRepo(t, b, owner, "stuff")
	elsewhere := newRepo(t, b, other, "stuff")
	at := time.Date(2024, 9, 1, 0, 0, 0, 0, time.UTC)
	require.NoError(t, b.LFS().Update(ctx, func(tx lfs.Tx) error {
		for _, m := range []*lfs.MetaObject{
			{Pointer: lfs.Pointer{Oid: strings.Repeat("1", 64), Size: 100}, RepoID: repo.ID, Created: at},
			{Pointer: lfs.Pointer{Oid: strings.Repeat("2", 64), Size: 20}, RepoID: repo.ID, Created: at},
			{Pointer: lfs.Pointer{Oid: strings.Repeat("1", 64), Size: 100}, RepoID: elsewhere.ID, Created: at},
		} {
			if err := tx.CreateMetaObject(ctx, m); err != nil {
				return err
			}
		}
		return nil
	}))
	require.NoError(t, b.Packages().Update(ctx, func(tx packages.Tx) error {
		for _, o := range []*forge.User{owner, other} {
			p := &packages.Package{OwnerID: o.ID, Type: packages.TypeGeneric, Name: "pkg", Created: at}
			require.NoError(t, tx.CreatePackage(ctx, p))
			for i, ver := range []string{"1", "2"} {
				v := &packages.Version{PackageID: p.ID, Version: ver, Created: at}
				require.NoError(t, tx.CreateVersion(ctx, v))
				for j := range i + 1 {
					f := &packages.File{VersionID: v.ID, Name: fmt.Sprintf("f%d", j), BlobKey: fmt.Sprintf("k%d%d%d", o.ID, i, j),
						Size: int64(10 * (i + 1)), Created: at}
					require.NoError(t, tx.CreateFile(ctx, f))
				}
			}
		}
		return nil
	}))
	require.NoError(t, b.Artifacts().Update(ctx, func(tx artifacts.Tx) error {
		for i, a := range []*artifacts.Artifact{
			{RepoID: repo.ID, RunID: 1, Name: "small", CompressedSize: 5},
			{RepoID: repo.ID, RunID: 1, Name: "large", CompressedSize: 50},
			{RepoID: repo.ID, RunID: 1, Name: "gone", CompressedSize: 500},
			{RepoID: elsewhere.ID, RunID: 2, Name: "theirs", CompressedSize: 7},
		} {
			a.BlobKey, a.Status, a.Created, a.Expires = fmt.Sprintf("a%d", i), artifacts.StatusConfirmed, at, at
			require.NoError(t, tx.CreateArtifact(ctx, a))
			if a.Name == "gone" {
				require.NoError(t, tx.ExpireArtifact(ctx, a.ID))
			}
		}
		return nil
	}))
	require.NoError(t, unwrapped(b).Quota().View(ctx, func(tx quota.Tx) error {
		u, err := tx.RecountUsage(ctx, owner.ID)
		require.NoError(t, err)
		assert.EqualValues(t, 120, u.LFS)
		assert.EqualValues(t, 50, u.Packages, "10 + 2×20")
		assert.EqualValues(t, 55, u.Artifacts, "expired ones do not count")
		pt, ok := tx.(quota.PackageUsageTx)
		if !ok {
			return nil
		}
		list, n, err := pt.ListPackageUsage(ctx, owner.ID, forge.ListOptions{})
		require.NoError(t, err)
		assert.EqualValues(t, 3, n, "one row per file, as Forgejo's join")
		assert.Equal(t, []quota.PackageUsage{
			{OwnerName: "usageowner", Name: "pkg", Type: "generic", Version: "2", Size: 40},
			{OwnerName: "usageowner", Name: "pkg", Type: "generic", Version: "2", Size: 40},
			{OwnerName: "usageowner", Name: "pkg", Type: "generic", Version: "1", Size: 10},
		}, list)
		at, ok := tx.(quota.ArtifactUsageTx)
		require.True(t, ok)
		alist, n, err := at.ListArtifactUsage(ctx, owner.ID, forge.ListOptions{Page: 1, Limit: 1})
		require.NoError(t, err)
		assert.EqualValues(t, 2, n)
		assert.Equal(t, []quota.ArtifactUsage{{Name: "large", Size: 50}}, alist)
		_, ok = tx.(quota.LFSUsageTx)
		assert.True(t, ok)
		return nil
	}))
}
