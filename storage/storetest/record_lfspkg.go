package storetest

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/actions/artifacts"
	"github.com/hearthforge/hearth/forge/forgetest"
	"github.com/hearthforge/hearth/forge/lfs"
	"github.com/hearthforge/hearth/forge/packages"
	"github.com/hearthforge/hearth/quota"
)

// The recording wrappers of lfs.Tx, packages.Tx and artifacts.Tx (see
// record.go).

func (r recBackend) LFS() lfs.Store { return recLFSStore{r.b.LFS(), r.rec} }

func (r recBackend) Packages() packages.Store { return recPkgStore{r.b.Packages(), r.rec} }

func (r recBackend) Artifacts() artifacts.Store { return recArtifactStore{r.b.Artifacts(), r.rec} }

type recLFSStore struct {
	s   lfs.Store
	rec *recorder
}

func (r recLFSStore) Update(ctx context.Context, fn func(lfs.Tx) error) error {
	return r.s.Update(ctx, func(tx lfs.Tx) error { return fn(recLFSTx{tx, r.rec}) })
}

func (r recLFSStore) View(ctx context.Context, fn func(lfs.Tx) error) error {
	return r.s.View(ctx, func(tx lfs.Tx) error { return fn(recLFSTx{tx, r.rec}) })
}

type recLFSTx struct {
	lfs.Tx
	rec *recorder
}

func (x recLFSTx) CreateMetaObject(ctx context.Context, m *lfs.MetaObject) error {
	x.rec.hit("lfs.Tx.CreateMetaObject")
	return x.Tx.CreateMetaObject(ctx, m)
}

func (x recLFSTx) MetaObject(ctx context.Context, repo forge.ID, oid string) (*lfs.MetaObject, error) {
	x.rec.hit("lfs.Tx.MetaObject")
	return x.Tx.MetaObject(ctx, repo, oid)
}

func (x recLFSTx) DeleteMetaObject(ctx context.Context, repo forge.ID, oid string) error {
	x.rec.hit("lfs.Tx.DeleteMetaObject")
	return x.Tx.DeleteMetaObject(ctx, repo, oid)
}

func (x recLFSTx) ListMetaObjects(ctx context.Context, repo forge.ID, o forge.ListOptions) ([]*lfs.MetaObject, int64, error) {
	x.rec.hit("lfs.Tx.ListMetaObjects")
	return x.Tx.ListMetaObjects(ctx, repo, o)
}

func (x recLFSTx) CountOid(ctx context.Context, oid string) (int64, error) {
	x.rec.hit("lfs.Tx.CountOid")
	return x.Tx.CountOid(ctx, oid)
}

func (x recLFSTx) RepoLFSSize(ctx context.Context, repo forge.ID) (int64, error) {
	x.rec.hit("lfs.Tx.RepoLFSSize")
	return x.Tx.RepoLFSSize(ctx, repo)
}

type recArtifactStore struct {
	s   artifacts.Store
	rec *recorder
}

func (r recArtifactStore) Update(ctx context.Context, fn func(artifacts.Tx) error) error {
	return r.s.Update(ctx, func(tx artifacts.Tx) error { return fn(recArtifactTx{tx, r.rec}) })
}

func (r recArtifactStore) View(ctx context.Context, fn func(artifacts.Tx) error) error {
	return r.s.View(ctx, func(tx artifacts.Tx) error { return fn(recArtifactTx{tx, r.rec}) })
}

type recArtifactTx struct {
	artifacts.Tx
	rec *recorder
}

func (x recArtifactTx) RepoByID(ctx context.Context, id forge.ID) (*forge.Repository, error) {
	x.rec.hit("artifacts.Tx.RepoByID")
	return x.Tx.RepoByID(ctx, id)
}

func (x recArtifactTx) CreateArtifact(ctx context.Context, a *artifacts.Artifact) error {
	x.rec.hit("artifacts.Tx.CreateArtifact")
	return x.Tx.CreateArtifact(ctx, a)
}

func (x recArtifactTx) Artifact(ctx context.Context, repo, id forge.ID) (*artifacts.Artifact, error) {
	x.rec.hit("artifacts.Tx.Artifact")
	return x.Tx.Artifact(ctx, repo, id)
}

func (x recArtifactTx) ListArtifacts(ctx context.Context, repo, run forge.ID, o forge.ListOptions) ([]*artifacts.Artifact, int64, error) {
	x.rec.hit("artifacts.Tx.ListArtifacts")
	return x.Tx.ListArtifacts(ctx, repo, run, o)
}

func (x recArtifactTx) ExpireArtifact(ctx context.Context, id forge.ID) error {
	x.rec.hit("artifacts.Tx.ExpireArtifact")
	return x.Tx.ExpireArtifact(ctx, id)
}

func (x recArtifactTx) DeleteArtifact(ctx context.Context, id forge.ID) error {
	x.rec.hit("artifacts.Tx.DeleteArtifact")
	return x.Tx.DeleteArtifact(ctx, id)
}

func (x recArtifactTx) DueArtifacts(ctx context.Context, now time.Time, limit int) ([]*artifacts.Artifact, error) {
	x.rec.hit("artifacts.Tx.DueArtifacts")
	return x.Tx.DueArtifacts(ctx, now, limit)
}

type recPkgStore struct {
	s   packages.Store
	rec *recorder
}

func (r recPkgStore) Update(ctx context.Context, fn func(packages.Tx) error) error {
	return r.s.Update(ctx, func(tx packages.Tx) error { return fn(recPkgTx{tx, r.rec}) })
}

func (r recPkgStore) View(ctx context.Context, fn func(packages.Tx) error) error {
	return r.s.View(ctx, func(tx packages.Tx) error { return fn(recPkgTx{tx, r.rec}) })
}

type recPkgTx struct {
	packages.Tx
	rec *recorder
}

func (x recPkgTx) UserByID(ctx context.Context, id forge.ID) (*forge.User, error) {
	x.rec.hit("packages.Tx.UserByID")
	return x.Tx.UserByID(ctx, id)
}

func (x recPkgTx) UserByName(ctx context.Context, name string) (*forge.User, error) {
	x.rec.hit("packages.Tx.UserByName")
	return x.Tx.UserByName(ctx, name)
}

func (x recPkgTx) RepoByID(ctx context.Context, id forge.ID) (*forge.Repository, error) {
	x.rec.hit("packages.Tx.RepoByID")
	return x.Tx.RepoByID(ctx, id)
}

func (x recPkgTx) CreatePackage(ctx context.Context, p *packages.Package) error {
	x.rec.hit("packages.Tx.CreatePackage")
	return x.Tx.CreatePackage(ctx, p)
}

func (x recPkgTx) PackageByName(ctx context.Context, owner forge.ID, typ packages.Type, name string) (*packages.Package, error) {
	x.rec.hit("packages.Tx.PackageByName")
	return x.Tx.PackageByName(ctx, owner, typ, name)
}

func (x recPkgTx) PackageByID(ctx context.Context, id forge.ID) (*packages.Package, error) {
	x.rec.hit("packages.Tx.PackageByID")
	return x.Tx.PackageByID(ctx, id)
}

func (x recPkgTx) SetPackageRepo(ctx context.Context, id, repo forge.ID) error {
	x.rec.hit("packages.Tx.SetPackageRepo")
	return x.Tx.SetPackageRepo(ctx, id, repo)
}

func (x recPkgTx) DeletePackage(ctx context.Context, id forge.ID) error {
	x.rec.hit("packages.Tx.DeletePackage")
	return x.Tx.DeletePackage(ctx, id)
}

func (x recPkgTx) CreateVersion(ctx context.Context, v *packages.Version) error {
	x.rec.hit("packages.Tx.CreateVersion")
	return x.Tx.CreateVersion(ctx, v)
}

func (x recPkgTx) VersionByName(ctx context.Context, pkg forge.ID, version string) (*packages.Version, error) {
	x.rec.hit("packages.Tx.VersionByName")
	return x.Tx.VersionByName(ctx, pkg, version)
}

func (x recPkgTx) CountVersions(ctx context.Context, pkg forge.ID) (int64, error) {
	x.rec.hit("packages.Tx.CountVersions")
	return x.Tx.CountVersions(ctx, pkg)
}

func (x recPkgTx) DeleteVersion(ctx context.Context, id forge.ID) error {
	x.rec.hit("packages.Tx.DeleteVersion")
	return x.Tx.DeleteVersion(ctx, id)
}

func (x recPkgTx) SearchVersions(ctx context.Context, f packages.Filter, o forge.ListOptions) ([]packages.VersionRef, int64, error) {
	x.rec.hit("packages.Tx.SearchVersions")
	return x.Tx.SearchVersions(ctx, f, o)
}

func (x recPkgTx) CreateFile(ctx context.Context, f *packages.File) error {
	x.rec.hit("packages.Tx.CreateFile")
	return x.Tx.CreateFile(ctx, f)
}

func (x recPkgTx) FileByName(ctx context.Context, version forge.ID, name string) (*packages.File, error) {
	x.rec.hit("packages.Tx.FileByName")
	return x.Tx.FileByName(ctx, version, name)
}

func (x recPkgTx) ListFiles(ctx context.Context, version forge.ID) ([]*packages.File, error) {
	x.rec.hit("packages.Tx.ListFiles")
	return x.Tx.ListFiles(ctx, version)
}

func (x recPkgTx) DeleteFile(ctx context.Context, id forge.ID) error {
	x.rec.hit("packages.Tx.DeleteFile")
	return x.Tx.DeleteFile(ctx, id)
}

// addLFSPackageInterfaces adds lfs.Tx, packages.Tx and artifacts.Tx to the
// interfaces the suite must cover.
func addLFSPackageInterfaces(m map[string]reflect.Type) {
	m["lfs.Tx"] = reflect.TypeFor[lfs.Tx]()
	m["packages.Tx"] = reflect.TypeFor[packages.Tx]()
	m["artifacts.Tx"] = reflect.TypeFor[artifacts.Tx]()
}

func (x recLFSTx) AddUsage(ctx context.Context, owner quota.Owner, b quota.Bucket, delta int64) error {
	x.rec.hit("lfs.Tx.AddUsage")
	return x.Tx.AddUsage(ctx, owner, b, delta)
}

func (x recLFSTx) Usage(ctx context.Context, owner forge.ID) (quota.Used, error) {
	x.rec.hit("lfs.Tx.Usage")
	return x.Tx.Usage(ctx, owner)
}

func (x recLFSTx) QuotaGroupsOf(ctx context.Context, owner forge.ID) ([]quota.Group, error) {
	x.rec.hit("lfs.Tx.QuotaGroupsOf")
	return x.Tx.QuotaGroupsOf(ctx, owner)
}

func (x recLFSTx) QuotaGroupsNamed(ctx context.Context, names []string) ([]quota.Group, error) {
	x.rec.hit("lfs.Tx.QuotaGroupsNamed")
	return x.Tx.QuotaGroupsNamed(ctx, names)
}

func (x recArtifactTx) AddUsage(ctx context.Context, owner quota.Owner, b quota.Bucket, delta int64) error {
	x.rec.hit("artifacts.Tx.AddUsage")
	return x.Tx.AddUsage(ctx, owner, b, delta)
}

func (x recArtifactTx) Usage(ctx context.Context, owner forge.ID) (quota.Used, error) {
	x.rec.hit("artifacts.Tx.Usage")
	return x.Tx.Usage(ctx, owner)
}

func (x recArtifactTx) QuotaGroupsOf(ctx context.Context, owner forge.ID) ([]quota.Group, error) {
	x.rec.hit("artifacts.Tx.QuotaGroupsOf")
	return x.Tx.QuotaGroupsOf(ctx, owner)
}

func (x recArtifactTx) QuotaGroupsNamed(ctx context.Context, names []string) ([]quota.Group, error) {
	x.rec.hit("artifacts.Tx.QuotaGroupsNamed")
	return x.Tx.QuotaGroupsNamed(ctx, names)
}

func (x recPkgTx) AddUsage(ctx context.Context, owner quota.Owner, b quota.Bucket, delta int64) error {
	x.rec.hit("packages.Tx.AddUsage")
	return x.Tx.AddUsage(ctx, owner, b, delta)
}

func (x recPkgTx) Usage(ctx context.Context, owner forge.ID) (quota.Used, error) {
	x.rec.hit("packages.Tx.Usage")
	return x.Tx.Usage(ctx, owner)
}

func (x recPkgTx) QuotaGroupsOf(ctx context.Context, owner forge.ID) ([]quota.Group, error) {
	x.rec.hit("packages.Tx.QuotaGroupsOf")
	return x.Tx.QuotaGroupsOf(ctx, owner)
}

func (x recPkgTx) QuotaGroupsNamed(ctx context.Context, names []string) ([]quota.Group, error) {
	x.rec.hit("packages.Tx.QuotaGroupsNamed")
	return x.Tx.QuotaGroupsNamed(ctx, names)
}

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

// unwrapped returns the backend under the recording wrapper, whose
// transactions have the optional interfaces the wrapper hides.
func unwrapped(b Backend) Backend {
	if r, ok := b.(recBackend); ok {
		return r.b
	}
	return b
}

// testLFSPackageUsage: quota's recount and lists read the rows of LFS
// objects, package files and unexpired artifacts of the owner
// (quota.LFSUsageTx, quota.PackageUsageTx, quota.ArtifactUsageTx), when
// the backend's quota Tx has them.
func testLFSPackageUsage(t *testing.T, b Backend) {
	ctx := context.Background()
	owner := createUser(t, b.Auth(), forgetest.User("usageowner"))
	other := createUser(t, b.Auth(), forgetest.User("usageother"))
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
