package sqlstore

import (
	"context"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/quota"
)

// The lists and recounts package quota reads from the rows of LFS objects,
// package files and artifacts (quota.LFSUsageTx, quota.PackageUsageTx,
// quota.ArtifactUsageTx), on the base transaction so that quota's Tx has
// them.

var (
	_ quota.LFSUsageTx      = (*tx)(nil)
	_ quota.PackageUsageTx  = (*tx)(nil)
	_ quota.ArtifactUsageTx = (*tx)(nil)
)

var (
	sqlRecountLFS = prepared(`SELECT CAST(coalesce(sum(l.size), 0) AS BIGINT) FROM lfs_meta_object l
		JOIN repository r ON r.id = l.repo_id WHERE r.owner_id = ?`)
	sqlRecountPackages = prepared(`SELECT CAST(coalesce(sum(f.size), 0) AS BIGINT) FROM package_file f
		JOIN package_version v ON v.id = f.version_id JOIN package p ON p.id = v.package_id WHERE p.owner_id = ?`)
	// One row per file, as Forgejo's join (a version of N files is listed
	// N times), each with its version's size.
	pkgUsageFrom = ` FROM package_file f JOIN package_version v ON v.id = f.version_id
		JOIN package p ON p.id = v.package_id JOIN users u ON u.id = p.owner_id WHERE p.owner_id = ?`
	sqlCountPackageUsage = prepared(`SELECT count(*)` + pkgUsageFrom)
	sqlListPackageUsage  = prepared(`SELECT u.name, p.name, p.type, v.version,
		(SELECT CAST(sum(g.size) AS BIGINT) FROM package_file g WHERE g.version_id = v.id) AS vsize` + pkgUsageFrom + `
		ORDER BY vsize DESC, f.id LIMIT ? OFFSET ?`)
	artifactUsageFrom = ` FROM action_artifact a JOIN repository r ON r.id = a.repo_id
		WHERE r.owner_id = ? AND a.status != 'expired'`
	sqlRecountArtifacts   = prepared(`SELECT CAST(coalesce(sum(a.file_compressed_size), 0) AS BIGINT)` + artifactUsageFrom)
	sqlCountArtifactUsage = prepared(`SELECT count(*)` + artifactUsageFrom)
	sqlListArtifactUsage  = prepared(`SELECT a.name, a.file_compressed_size` + artifactUsageFrom + `
		ORDER BY a.file_compressed_size DESC, a.id LIMIT ? OFFSET ?`)
)

// RecountLFS sums the LFS objects of owner's repositories.
func (t *tx) RecountLFS(ctx context.Context, owner forge.ID) (int64, error) {
	var n int64
	err := t.queryRow(ctx, sqlRecountLFS, owner).Scan(&n)
	return n, mapError(err, "recount lfs")
}

// RecountPackages sums the files of owner's packages.
func (t *tx) RecountPackages(ctx context.Context, owner forge.ID) (int64, error) {
	var n int64
	err := t.queryRow(ctx, sqlRecountPackages, owner).Scan(&n)
	return n, mapError(err, "recount packages")
}

// ListPackageUsage lists owner's package files, largest version first.
func (t *tx) ListPackageUsage(ctx context.Context, owner forge.ID, o forge.ListOptions) ([]quota.PackageUsage, int64, error) {
	return pageRows(ctx, t, "package usage", sqlCountPackageUsage, sqlListPackageUsage, []any{owner}, o,
		func(r interface{ Scan(...any) error }) (quota.PackageUsage, error) {
			var p quota.PackageUsage
			err := r.Scan(&p.OwnerName, &p.Name, &p.Type, &p.Version, &p.Size)
			return p, err
		})
}

// RecountArtifacts sums the unexpired artifacts of owner's repositories.
func (t *tx) RecountArtifacts(ctx context.Context, owner forge.ID) (int64, error) {
	var n int64
	err := t.queryRow(ctx, sqlRecountArtifacts, owner).Scan(&n)
	return n, mapError(err, "recount artifacts")
}

// ListArtifactUsage lists the unexpired artifacts of owner's repositories,
// largest first.
func (t *tx) ListArtifactUsage(ctx context.Context, owner forge.ID, o forge.ListOptions) ([]quota.ArtifactUsage, int64, error) {
	return pageRows(ctx, t, "artifact usage", sqlCountArtifactUsage, sqlListArtifactUsage, []any{owner}, o,
		func(r interface{ Scan(...any) error }) (quota.ArtifactUsage, error) {
			var a quota.ArtifactUsage
			err := r.Scan(&a.Name, &a.Size)
			return a, err
		})
}
