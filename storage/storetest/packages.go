package storetest

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/actions/artifacts"
	"github.com/hearthforge/hearth/forge/lfs"
	"github.com/hearthforge/hearth/forge/packages"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/quota"
)

// testPackages: packages, versions and files round-trip; names, versions
// and file names are unique ignoring case; the search filters by owner,
// type and name and pages newest first; links to repositories; deletes
// cascade from package to versions to files.
func testPackages(t *testing.T, b Backend) {
	ctx := context.Background()
	s := b.Packages()
	owner, repo := newUserRepo(t, b, "pkgowner", "src")
	other := newUser(t, b, "pkgother")
	at := time.Date(2024, 8, 1, 0, 0, 0, 0, time.UTC)
	p := &packages.Package{OwnerID: owner.ID, Type: packages.TypeGeneric, Name: "Tool", Created: at}
	q := &packages.Package{OwnerID: owner.ID, Type: "npm", Name: "lib", Created: at}
	o := &packages.Package{OwnerID: other.ID, Type: packages.TypeGeneric, Name: "tool", Created: at}
	v1 := &packages.Version{CreatorID: owner.ID, Version: "1.0", Created: at}
	v2 := &packages.Version{CreatorID: owner.ID, Version: "2.0", Created: at.Add(time.Hour)}
	vq := &packages.Version{CreatorID: owner.ID, Version: "0.1", Created: at.Add(2 * time.Hour)}
	f1 := &packages.File{Name: "a.tar.gz", BlobKey: "pkg-1", Size: 5, MD5: "m", SHA1: "s1", SHA256: "s2", SHA512: "s5", Created: at}
	f2 := &packages.File{Name: "b.txt", BlobKey: "pkg-2", Size: 7, Created: at}
	require.NoError(t, s.Update(ctx, func(tx packages.Tx) error {
		for _, x := range []*packages.Package{p, q, o} {
			require.NoError(t, tx.CreatePackage(ctx, x))
		}
		v1.PackageID, v2.PackageID, vq.PackageID = p.ID, p.ID, q.ID
		for _, v := range []*packages.Version{v1, v2, vq} {
			require.NoError(t, tx.CreateVersion(ctx, v))
		}
		f1.VersionID, f2.VersionID = v1.ID, v1.ID
		require.NoError(t, tx.CreateFile(ctx, f1))
		return tx.CreateFile(ctx, f2)
	}))
	for what, fn := range map[string]func(tx packages.Tx) error{
		"package": func(tx packages.Tx) error {
			return tx.CreatePackage(ctx, &packages.Package{OwnerID: owner.ID, Type: packages.TypeGeneric, Name: "TOOL", Created: at})
		},
		"version": func(tx packages.Tx) error {
			return tx.CreateVersion(ctx, &packages.Version{PackageID: p.ID, Version: "1.0", Created: at})
		},
		"file": func(tx packages.Tx) error {
			return tx.CreateFile(ctx, &packages.File{VersionID: v1.ID, Name: "A.TAR.GZ", BlobKey: "k", Created: at})
		},
	} {
		assert.ErrorIs(t, s.Update(ctx, fn), forge.ErrConflict, what)
	}
	err := s.Update(ctx, func(tx packages.Tx) error {
		return tx.CreatePackage(ctx, &packages.Package{OwnerID: 9999, Type: packages.TypeGeneric, Name: "x", Created: at})
	})
	assert.ErrorIs(t, err, forge.ErrNotFound, "a missing owner")

	require.NoError(t, s.View(ctx, func(tx packages.Tx) error {
		got, err := tx.PackageByName(ctx, owner.ID, packages.TypeGeneric, "tOOl")
		require.NoError(t, err)
		assert.Equal(t, p, got)
		got, err = tx.PackageByID(ctx, q.ID)
		require.NoError(t, err)
		assert.Equal(t, q, got)
		_, err = tx.PackageByName(ctx, owner.ID, "npm", "tool")
		assert.ErrorIs(t, err, forge.ErrNotFound)
		v, err := tx.VersionByName(ctx, p.ID, "2.0")
		require.NoError(t, err)
		assert.Equal(t, v2, v)
		n, err := tx.CountVersions(ctx, p.ID)
		require.NoError(t, err)
		assert.EqualValues(t, 2, n)
		f, err := tx.FileByName(ctx, v1.ID, "B.txt")
		require.NoError(t, err)
		assert.Equal(t, f2, f)
		files, err := tx.ListFiles(ctx, v1.ID)
		require.NoError(t, err)
		assert.Equal(t, []*packages.File{f1, f2}, files)
		u, err := tx.UserByName(ctx, "PKGOWNER")
		require.NoError(t, err)
		assert.Equal(t, owner.ID, u.ID)
		u, err = tx.UserByID(ctx, other.ID)
		require.NoError(t, err)
		assert.Equal(t, "pkgother", u.Name)
		r, err := tx.RepoByID(ctx, repo.ID)
		require.NoError(t, err)
		assert.Equal(t, "src", r.Name)

		refs, total, err := tx.SearchVersions(ctx, packages.Filter{OwnerID: owner.ID}, forge.ListOptions{})
		require.NoError(t, err)
		assert.EqualValues(t, 3, total)
		require.Len(t, refs, 3)
		assert.Equal(t, []string{"0.1", "2.0", "1.0"}, []string{refs[0].Version.Version, refs[1].Version.Version, refs[2].Version.Version})
		assert.Equal(t, q, refs[0].Package)
		refs, total, err = tx.SearchVersions(ctx, packages.Filter{OwnerID: owner.ID, Type: packages.TypeGeneric, Query: "OO"},
			forge.ListOptions{Page: 2, Limit: 1})
		require.NoError(t, err)
		assert.EqualValues(t, 2, total)
		require.Len(t, refs, 1)
		assert.Equal(t, v1, refs[0].Version)
		_, total, err = tx.SearchVersions(ctx, packages.Filter{OwnerID: owner.ID, Query: "%"}, forge.ListOptions{})
		require.NoError(t, err)
		assert.EqualValues(t, 0, total, "LIKE wildcards match themselves")
		return nil
	}))

	checkUsageTx(t, s.Update, s.View, quota.OwnerOf(owner), quota.BucketPackages, func(u quota.Used) int64 { return u.Packages })

	require.NoError(t, s.Update(ctx, func(tx packages.Tx) error { return tx.SetPackageRepo(ctx, p.ID, repo.ID) }))
	assert.ErrorIs(t, s.Update(ctx, func(tx packages.Tx) error { return tx.SetPackageRepo(ctx, 9999, repo.ID) }), forge.ErrNotFound)
	require.NoError(t, s.View(ctx, func(tx packages.Tx) error {
		got, err := tx.PackageByID(ctx, p.ID)
		assert.Equal(t, repo.ID, got.RepoID)
		return err
	}))
	require.NoError(t, s.Update(ctx, func(tx packages.Tx) error { return tx.SetPackageRepo(ctx, p.ID, 0) }))

	require.NoError(t, s.Update(ctx, func(tx packages.Tx) error { return tx.DeleteFile(ctx, f2.ID) }))
	require.NoError(t, s.Update(ctx, func(tx packages.Tx) error { return tx.DeleteVersion(ctx, v2.ID) }))
	require.NoError(t, s.Update(ctx, func(tx packages.Tx) error { return tx.DeletePackage(ctx, p.ID) }))
	for what, fn := range map[string]func(tx packages.Tx) error{
		"file":    func(tx packages.Tx) error { return tx.DeleteFile(ctx, f1.ID) },
		"version": func(tx packages.Tx) error { return tx.DeleteVersion(ctx, v1.ID) },
		"package": func(tx packages.Tx) error { return tx.DeletePackage(ctx, p.ID) },
	} {
		assert.ErrorIs(t, s.Update(ctx, fn), forge.ErrNotFound, "%s gone with its package", what)
	}
	require.NoError(t, s.View(ctx, func(tx packages.Tx) error {
		_, err := tx.PackageByID(ctx, p.ID)
		assert.ErrorIs(t, err, forge.ErrNotFound)
		files, err := tx.ListFiles(ctx, v1.ID)
		assert.Empty(t, files)
		return err
	}))
}

// testLFSPackageCascades: deleting a repository deletes its LFS objects
// and artifacts and unlinks its packages; deleting a user deletes its
// packages with their versions and files.
func testLFSPackageCascades(t *testing.T, b Backend) {
	ctx := context.Background()
	owner, repo := newUserRepo(t, b, "cascowner", "doomed")
	lone := newUser(t, b, "casclone")
	at := time.Date(2024, 10, 1, 0, 0, 0, 0, time.UTC)
	oid := strings.Repeat("c", 64)
	require.NoError(t, b.LFS().Update(ctx, func(tx lfs.Tx) error {
		return tx.CreateMetaObject(ctx, &lfs.MetaObject{Pointer: lfs.Pointer{Oid: oid, Size: 3}, RepoID: repo.ID, Created: at})
	}))
	art := &artifacts.Artifact{RepoID: repo.ID, RunID: 1, Name: "a", BlobKey: "k", Status: artifacts.StatusConfirmed, Created: at, Expires: at}
	require.NoError(t, b.Artifacts().Update(ctx, func(tx artifacts.Tx) error { return tx.CreateArtifact(ctx, art) }))
	linked := &packages.Package{OwnerID: owner.ID, RepoID: repo.ID, Type: packages.TypeGeneric, Name: "linked", Created: at}
	gone := &packages.Package{OwnerID: lone.ID, Type: packages.TypeGeneric, Name: "gone", Created: at}
	v := &packages.Version{Version: "1", Created: at}
	require.NoError(t, b.Packages().Update(ctx, func(tx packages.Tx) error {
		require.NoError(t, tx.CreatePackage(ctx, linked))
		require.NoError(t, tx.CreatePackage(ctx, gone))
		v.PackageID = gone.ID
		require.NoError(t, tx.CreateVersion(ctx, v))
		return tx.CreateFile(ctx, &packages.File{VersionID: v.ID, Name: "f", BlobKey: "k", Created: at})
	}))

	repoUpdate(t, b.Repos(), func(tx repos.Tx) error { return tx.DeleteRepo(ctx, repo.ID) })
	update(t, b.Auth(), func(tx auth.Tx) error { return tx.DeleteUser(ctx, lone.ID) })

	require.NoError(t, b.LFS().View(ctx, func(tx lfs.Tx) error {
		n, err := tx.CountOid(ctx, oid)
		assert.Zero(t, n)
		return err
	}))
	wantNotFound(t, b.Artifacts(), func(ctx context.Context, tx artifacts.Tx) error {
		_, err := tx.Artifact(ctx, repo.ID, art.ID)
		return err
	})
	require.NoError(t, b.Packages().View(ctx, func(tx packages.Tx) error {
		p, err := tx.PackageByID(ctx, linked.ID)
		require.NoError(t, err)
		assert.Zero(t, p.RepoID, "unlinked")
		_, err = tx.PackageByID(ctx, gone.ID)
		assert.ErrorIs(t, err, forge.ErrNotFound)
		files, err := tx.ListFiles(ctx, v.ID)
		assert.Empty(t, files)
		return err
	}))
}
