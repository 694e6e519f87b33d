package memstore

import (
	"cmp"
	"context"
	"strings"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/actions/artifacts"
	"github.com/hearthforge/hearth/forge/lfs"
	"github.com/hearthforge/hearth/forge/packages"
)

// Packages returns the store package forge/packages consumes.
func (s *Store) Packages() packages.Store {
	return storeOf(s, func(t *tx) packages.Tx { return pkgTx{t} })
}

// pkgTx is a transaction seen as a packages.Tx.
type pkgTx struct{ *tx }

var _ packages.Tx = pkgTx{}

func (t pkgTx) CreatePackage(ctx context.Context, p *packages.Package) error {
	if err := writeRef(ctx, t, t.st.users, p.OwnerID, "create package"); err != nil {
		return err
	}
	if p.RepoID != 0 {
		if _, ok := t.st.repos[p.RepoID]; !ok {
			return missingRef("create package")
		}
	}
	if err := conflictIf(t.st.packages, func(cur packages.Package) bool {
		return cur.OwnerID == p.OwnerID && cur.Type == p.Type && strings.EqualFold(cur.Name, p.Name)
	}, "create package"); err != nil {
		return err
	}
	v := *p
	v.ID, v.Created = t.st.nextID("package"), ts(v.Created)
	t.st.packages[v.ID] = v
	p.ID = v.ID
	return nil
}

func (t pkgTx) PackageByName(ctx context.Context, owner forge.ID, typ packages.Type, name string) (*packages.Package, error) {
	return findRow(ctx, t, t.st.packages, func(cur packages.Package) bool {
		return cur.OwnerID == owner && cur.Type == typ && strings.EqualFold(cur.Name, name)
	}, "package")
}

func (t pkgTx) PackageByID(ctx context.Context, id forge.ID) (*packages.Package, error) {
	return readRow(ctx, t, t.st.packages, id, "package")
}

func (t pkgTx) SetPackageRepo(ctx context.Context, id, repo forge.ID) error {
	cur, err := writeRow(ctx, t, t.st.packages, id, "link package")
	if err != nil {
		return err
	}
	if _, ok := t.st.repos[repo]; repo != 0 && !ok {
		return missingRef("link package")
	}
	cur.RepoID = repo
	t.st.packages[id] = cur
	return nil
}

func (t pkgTx) DeletePackage(ctx context.Context, id forge.ID) error {
	return deleteRow(ctx, t, t.st.packages, id, "delete package", func(id forge.ID) {
		delete(t.st.packages, id)
		for vid, v := range t.st.pkgVersions {
			if v.PackageID == id {
				t.deleteVersion(vid)
			}
		}
	})
}

func (t pkgTx) CreateVersion(ctx context.Context, v *packages.Version) error {
	if err := writeRef(ctx, t, t.st.packages, v.PackageID, "create package version"); err != nil {
		return err
	}
	if err := conflictIf(t.st.pkgVersions, func(cur packages.Version) bool {
		return cur.PackageID == v.PackageID && strings.EqualFold(cur.Version, v.Version)
	}, "create package version"); err != nil {
		return err
	}
	row := *v
	row.ID, row.Created = t.st.nextID("package_version"), ts(row.Created)
	t.st.pkgVersions[row.ID] = row
	v.ID = row.ID
	return nil
}

func (t pkgTx) VersionByName(ctx context.Context, pkg forge.ID, version string) (*packages.Version, error) {
	return findRow(ctx, t, t.st.pkgVersions, func(cur packages.Version) bool {
		return cur.PackageID == pkg && strings.EqualFold(cur.Version, version)
	}, "package version")
}

func (t pkgTx) CountVersions(ctx context.Context, pkg forge.ID) (int64, error) {
	return countRows(ctx, t, t.st.pkgVersions, func(cur packages.Version) bool { return cur.PackageID == pkg })
}

func (t pkgTx) deleteVersion(id forge.ID) {
	delete(t.st.pkgVersions, id)
	deleteWhere(t.st.pkgFiles, func(_ forge.ID, f packages.File) bool { return f.VersionID == id })
}

func (t pkgTx) DeleteVersion(ctx context.Context, id forge.ID) error {
	return deleteRow(ctx, t, t.st.pkgVersions, id, "delete package version", t.deleteVersion)
}

func (t pkgTx) SearchVersions(ctx context.Context, f packages.Filter, o forge.ListOptions) ([]packages.VersionRef, int64, error) {
	if err := t.read(ctx); err != nil {
		return nil, 0, err
	}
	all := []packages.VersionRef{}
	q := strings.ToLower(f.Query)
	for _, v := range t.st.pkgVersions {
		p := t.st.packages[v.PackageID]
		if p.OwnerID != f.OwnerID || (f.Type != "" && p.Type != f.Type) || !strings.Contains(strings.ToLower(p.Name), q) {
			continue
		}
		all = append(all, packages.VersionRef{Package: &p, Version: &v})
	}
	list, n := pageOf(all, func(a, b packages.VersionRef) int {
		return cmp.Or(b.Version.Created.Compare(a.Version.Created), cmp.Compare(b.Version.ID, a.Version.ID))
	}, o)
	return list, n, nil
}

func (t pkgTx) CreateFile(ctx context.Context, f *packages.File) error {
	if err := writeRef(ctx, t, t.st.pkgVersions, f.VersionID, "create package file"); err != nil {
		return err
	}
	if err := conflictIf(t.st.pkgFiles, func(cur packages.File) bool {
		return cur.VersionID == f.VersionID && strings.EqualFold(cur.Name, f.Name)
	}, "create package file"); err != nil {
		return err
	}
	row := *f
	row.ID, row.Created = t.st.nextID("package_file"), ts(row.Created)
	t.st.pkgFiles[row.ID] = row
	f.ID = row.ID
	return nil
}

func (t pkgTx) FileByName(ctx context.Context, version forge.ID, name string) (*packages.File, error) {
	return findRow(ctx, t, t.st.pkgFiles, func(cur packages.File) bool { return cur.VersionID == version && strings.EqualFold(cur.Name, name) }, "package file")
}

func (t pkgTx) ListFiles(ctx context.Context, version forge.ID) ([]*packages.File, error) {
	return listRows(ctx, t, t.st.pkgFiles, func(cur packages.File) bool { return cur.VersionID == version }, func(a, b *packages.File) int { return cmp.Compare(a.ID, b.ID) })
}

func (t pkgTx) DeleteFile(ctx context.Context, id forge.ID) error {
	return deleteRow(ctx, t, t.st.pkgFiles, id, "delete package file", nil)
}

// deleteUserPackages cascades a user's deletion to its packages, their
// versions and files, as the SQL schema does.
func (s *state) deleteUserPackages(user forge.ID) {
	for id, p := range s.packages {
		if p.OwnerID != user {
			continue
		}
		delete(s.packages, id)
		for vid, v := range s.pkgVersions {
			if v.PackageID == id {
				delete(s.pkgVersions, vid)
				deleteWhere(s.pkgFiles, func(_ forge.ID, f packages.File) bool { return f.VersionID == vid })
			}
		}
	}
}

// deleteRepoLFSPackages cascades a repository's deletion as the SQL schema
// does: its LFS objects and artifacts go, its packages are unlinked.
func (s *state) deleteRepoLFSPackages(repo forge.ID) {
	deleteWhere(s.lfsMeta, func(k lfsKey, _ lfs.MetaObject) bool { return k.repo == repo })
	deleteWhere(s.artifacts, func(_ forge.ID, a artifacts.Artifact) bool { return a.RepoID == repo })
	for id, p := range s.packages {
		if p.RepoID == repo {
			p.RepoID = 0
			s.packages[id] = p
		}
	}
}
