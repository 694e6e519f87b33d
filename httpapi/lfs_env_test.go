package httpapi_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge/lfs"
	"github.com/hearthforge/hearth/forge/orgs"
	"github.com/hearthforge/hearth/forge/packages"
	"github.com/hearthforge/hearth/httpapi"
	"github.com/hearthforge/hearth/quota"
	"github.com/hearthforge/hearth/storage/dbtest"
)

// lfsEnv is env with Git LFS and the package registry, quota as given, and
// the database and blob directory at hand to check what was stored.
type lfsEnv struct {
	*env
	db      *dbtest.DB
	blobDir string
	lfs     *lfs.Service
	pkgs    *packages.Service
}

func newLFSEnv(t *testing.T, q quota.Config) *lfsEnv {
	t.Helper()
	b := newBase(t, ":memory:", testSecret)
	db := b.db
	clock, svc, git, blobs := b.clock, b.auth, b.git, b.blobs
	blobDir := b.blobDir
	repoSvc, _ := b.repoService(t)
	orgSvc, err := orgs.New(orgs.Config{Store: db.Orgs(), Clock: clock})
	require.NoError(t, err)
	lfsSvc, err := lfs.New(lfs.Config{Store: db.LFS(), Blobs: blobs, Repos: repoSvc, Quota: q, Clock: clock})
	require.NoError(t, err)
	pkgSvc, err := packages.New(packages.Config{Store: db.Packages(), Blobs: blobs, Orgs: orgSvc, Repos: repoSvc, Quota: q, Clock: clock})
	require.NoError(t, err)
	quotaSvc, err := quota.New(quota.ServiceConfig{Store: db.Quota(), Quota: q, Orgs: orgSvc})
	require.NoError(t, err)
	e := b.serve(t, httpapi.Config{Auth: svc, Repos: repoSvc, Orgs: orgSvc, Git: git, LFS: lfsSvc, Packages: pkgSvc,
		Quota: quotaSvc})
	return &lfsEnv{env: e, db: db, blobDir: blobDir, lfs: lfsSvc, pkgs: pkgSvc}
}

// limit puts owner in a group whose rule limits subject to n bytes, with a
// second rule leaving everything else unlimited (an owner in a group whose
// rules do not cover a subject is refused it).
func (e *lfsEnv) limit(owner string, subject quota.Subject, n int64) {
	e.t.Helper()
	ctx := context.Background()
	require.NoError(e.t, e.db.Quota().Update(ctx, func(tx quota.Tx) error {
		u, err := tx.UserByName(ctx, owner)
		if err != nil {
			return err
		}
		for _, r := range []quota.Rule{{Name: "limit", Limit: n, Subjects: []quota.Subject{subject}},
			{Name: "rest", Limit: quota.Unlimited, Subjects: []quota.Subject{quota.SubjectAll}}} {
			if err := tx.CreateRule(ctx, &r); err != nil {
				return err
			}
		}
		if err := tx.CreateGroup(ctx, "g"); err != nil {
			return err
		}
		for _, r := range []string{"limit", "rest"} {
			if err := tx.AddGroupRule(ctx, "g", r); err != nil {
				return err
			}
		}
		return tx.AddGroupMember(ctx, "g", u.ID)
	}))
}

// usage returns owner's usage as the counters hold it.
func (e *lfsEnv) usage(owner string) quota.Used {
	e.t.Helper()
	ctx := context.Background()
	var u quota.Used
	require.NoError(e.t, e.db.Quota().View(ctx, func(tx quota.Tx) error {
		o, err := tx.UserByName(ctx, owner)
		if err != nil {
			return err
		}
		u, err = tx.Usage(ctx, o.ID)
		return err
	}))
	return u
}

// blobs returns the names of the blobs stored, by walking the directory.
func (e *lfsEnv) blobs() []string {
	e.t.Helper()
	var names []string
	require.NoError(e.t, filepath.WalkDir(e.blobDir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			names = append(names, d.Name())
		}
		return err
	}))
	return names
}
