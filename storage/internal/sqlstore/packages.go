package sqlstore

import (
	"context"
	"strings"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/packages"
)

// Packages returns the store package forge/packages consumes.
func (db *DB) Packages() packages.Store {
	return storeOf(db, func(t *tx) packages.Tx { return pkgTx{t} })
}

// pkgTx is a transaction seen as a packages.Tx.
type pkgTx struct{ *tx }

var _ packages.Tx = pkgTx{}

const (
	pkgCols     = `id, owner_id, coalesce(repo_id, 0), type, name, created_unix`
	versionCols = `id, package_id, creator_id, version, created_unix`
	pkgFileCols = `id, version_id, name, blob_key, size, hash_md5, hash_sha1, hash_sha256, hash_sha512, created_unix`
)

var (
	sqlAddPackage = prepared(`INSERT INTO package (owner_id, repo_id, type, name, lower_name, created_unix)
		VALUES (?, nullif(?, 0), ?, ?, ?, ?) RETURNING id`)
	sqlPackageByName = prepared(`SELECT ` + pkgCols + ` FROM package WHERE owner_id = ? AND type = ? AND lower_name = ?`)
	sqlPackageByID   = prepared(`SELECT ` + pkgCols + ` FROM package WHERE id = ?`)
	sqlSetPkgRepo    = prepared(`UPDATE package SET repo_id = nullif(?, 0) WHERE id = ?`)
	sqlDelPackage    = prepared(`DELETE FROM package WHERE id = ?`)
	sqlAddVersion    = prepared(`INSERT INTO package_version (package_id, creator_id, version, lower_version, created_unix)
		VALUES (?, ?, ?, ?, ?) RETURNING id`)
	sqlVersionByName = prepared(`SELECT ` + versionCols + ` FROM package_version WHERE package_id = ? AND lower_version = ?`)
	sqlCountVersions = prepared(`SELECT count(*) FROM package_version WHERE package_id = ?`)
	sqlDelVersion    = prepared(`DELETE FROM package_version WHERE id = ?`)
	sqlAddPkgFile    = prepared(`INSERT INTO package_file (version_id, name, lower_name, blob_key, size, hash_md5,
		hash_sha1, hash_sha256, hash_sha512, created_unix) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`)
	sqlPkgFileByName = prepared(`SELECT ` + pkgFileCols + ` FROM package_file WHERE version_id = ? AND lower_name = ?`)
	sqlPkgFiles      = prepared(`SELECT ` + pkgFileCols + ` FROM package_file WHERE version_id = ? ORDER BY id`)
	sqlDelPkgFile    = prepared(`DELETE FROM package_file WHERE id = ?`)

	// The search: owner, type ('' any), name substring (lower-cased,
	// LIKE-escaped).
	searchWhere = ` FROM package_version v JOIN package p ON p.id = v.package_id
		WHERE p.owner_id = ? AND (? = '' OR p.type = ?) AND p.lower_name LIKE ? ESCAPE '\'`
	sqlCountSearch = prepared(`SELECT count(*)` + searchWhere)
	sqlSearch      = prepared(`SELECT p.id, p.owner_id, coalesce(p.repo_id, 0), p.type, p.name, p.created_unix,
		v.id, v.package_id, v.creator_id, v.version, v.created_unix` + searchWhere + `
		ORDER BY v.created_unix DESC, v.id DESC LIMIT ? OFFSET ?`)
)

func scanPackage(r interface{ Scan(...any) error }) (*packages.Package, error) {
	p := &packages.Package{}
	var typ string
	var created int64
	if err := r.Scan(&p.ID, &p.OwnerID, &p.RepoID, &typ, &p.Name, &created); err != nil {
		return nil, err
	}
	p.Type, p.Created = packages.Type(typ), fromUnix(created)
	return p, nil
}

func scanVersion(r interface{ Scan(...any) error }) (*packages.Version, error) {
	v := &packages.Version{}
	var created int64
	if err := r.Scan(&v.ID, &v.PackageID, &v.CreatorID, &v.Version, &created); err != nil {
		return nil, err
	}
	v.Created = fromUnix(created)
	return v, nil
}

func scanPkgFile(r interface{ Scan(...any) error }) (*packages.File, error) {
	f := &packages.File{}
	var created int64
	if err := r.Scan(&f.ID, &f.VersionID, &f.Name, &f.BlobKey, &f.Size, &f.MD5, &f.SHA1, &f.SHA256, &f.SHA512,
		&created); err != nil {
		return nil, err
	}
	f.Created = fromUnix(created)
	return f, nil
}

func (t pkgTx) CreatePackage(ctx context.Context, p *packages.Package) error {
	err := t.guarded(ctx, func() error {
		return t.queryRow(ctx, sqlAddPackage, p.OwnerID, p.RepoID, string(p.Type), p.Name, strings.ToLower(p.Name),
			toUnix(p.Created)).Scan(&p.ID)
	})
	return mapError(err, "create package")
}

func (t pkgTx) PackageByName(ctx context.Context, owner forge.ID, typ packages.Type, name string) (*packages.Package, error) {
	p, err := scanPackage(t.queryRow(ctx, sqlPackageByName, owner, string(typ), strings.ToLower(name)))
	return p, mapError(err, "package")
}

func (t pkgTx) PackageByID(ctx context.Context, id forge.ID) (*packages.Package, error) {
	p, err := scanPackage(t.queryRow(ctx, sqlPackageByID, id))
	return p, mapError(err, "package")
}

func (t pkgTx) SetPackageRepo(ctx context.Context, id, repo forge.ID) error {
	return t.guarded(ctx, func() error {
		res, err := t.exec(ctx, sqlSetPkgRepo, repo, id)
		return affectedOne(res, err, "link package")
	})
}

func (t pkgTx) DeletePackage(ctx context.Context, id forge.ID) error {
	res, err := t.exec(ctx, sqlDelPackage, id)
	return affectedOne(res, err, "delete package")
}

func (t pkgTx) CreateVersion(ctx context.Context, v *packages.Version) error {
	err := t.guarded(ctx, func() error {
		return t.queryRow(ctx, sqlAddVersion, v.PackageID, v.CreatorID, v.Version, strings.ToLower(v.Version),
			toUnix(v.Created)).Scan(&v.ID)
	})
	return mapError(err, "create package version")
}

func (t pkgTx) VersionByName(ctx context.Context, pkg forge.ID, version string) (*packages.Version, error) {
	v, err := scanVersion(t.queryRow(ctx, sqlVersionByName, pkg, strings.ToLower(version)))
	return v, mapError(err, "package version")
}

func (t pkgTx) CountVersions(ctx context.Context, pkg forge.ID) (int64, error) {
	var n int64
	err := t.queryRow(ctx, sqlCountVersions, pkg).Scan(&n)
	return n, mapError(err, "count package versions")
}

func (t pkgTx) DeleteVersion(ctx context.Context, id forge.ID) error {
	res, err := t.exec(ctx, sqlDelVersion, id)
	return affectedOne(res, err, "delete package version")
}

func (t pkgTx) SearchVersions(ctx context.Context, f packages.Filter, o forge.ListOptions) ([]packages.VersionRef, int64, error) {
	like := "%" + strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(strings.ToLower(f.Query)) + "%"
	args := []any{f.OwnerID, string(f.Type), string(f.Type), like}
	return pageRows(ctx, t.tx, "search packages", sqlCountSearch, sqlSearch, args, o,
		func(r interface{ Scan(...any) error }) (packages.VersionRef, error) {
			p, v := &packages.Package{}, &packages.Version{}
			var typ string
			var pc, vc int64
			err := r.Scan(&p.ID, &p.OwnerID, &p.RepoID, &typ, &p.Name, &pc, &v.ID, &v.PackageID, &v.CreatorID,
				&v.Version, &vc)
			p.Type, p.Created, v.Created = packages.Type(typ), fromUnix(pc), fromUnix(vc)
			return packages.VersionRef{Package: p, Version: v}, err
		})
}

func (t pkgTx) CreateFile(ctx context.Context, f *packages.File) error {
	err := t.guarded(ctx, func() error {
		return t.queryRow(ctx, sqlAddPkgFile, f.VersionID, f.Name, strings.ToLower(f.Name), f.BlobKey, f.Size, f.MD5,
			f.SHA1, f.SHA256, f.SHA512, toUnix(f.Created)).Scan(&f.ID)
	})
	return mapError(err, "create package file")
}

func (t pkgTx) FileByName(ctx context.Context, version forge.ID, name string) (*packages.File, error) {
	f, err := scanPkgFile(t.queryRow(ctx, sqlPkgFileByName, version, strings.ToLower(name)))
	return f, mapError(err, "package file")
}

func (t pkgTx) ListFiles(ctx context.Context, version forge.ID) ([]*packages.File, error) {
	return queryAll(ctx, t, scanPkgFile, "package files", sqlPkgFiles, version)
}

func (t pkgTx) DeleteFile(ctx context.Context, id forge.ID) error {
	res, err := t.exec(ctx, sqlDelPkgFile, id)
	return affectedOne(res, err, "delete package file")
}
