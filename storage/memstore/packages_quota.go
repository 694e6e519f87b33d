package memstore

import (
	"cmp"
	"context"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/actions/artifacts"
	"github.com/hearthforge/hearth/quota"
)

// The lists and recounts package quota reads from the rows of LFS objects,
// package files and artifacts (quota.LFSUsageTx, quota.PackageUsageTx,
// quota.ArtifactUsageTx), on the base transaction so that quota's Tx has
// them. They follow storage/sqlite's queries.

var (
	_ quota.LFSUsageTx      = (*tx)(nil)
	_ quota.PackageUsageTx  = (*tx)(nil)
	_ quota.ArtifactUsageTx = (*tx)(nil)
)

// ownedRepo reports whether repo exists and belongs to owner.
func (t *tx) ownedRepo(repo, owner forge.ID) bool {
	r, ok := t.st.repos[repo]
	return ok && r.OwnerID == owner
}

// RecountLFS sums the LFS objects of owner's repositories.
func (t *tx) RecountLFS(ctx context.Context, owner forge.ID) (int64, error) {
	if err := t.read(ctx); err != nil {
		return 0, err
	}
	var n int64
	for k, m := range t.st.lfsMeta {
		if t.ownedRepo(k.repo, owner) {
			n += m.Size
		}
	}
	return n, nil
}

// RecountPackages sums the files of owner's packages.
func (t *tx) RecountPackages(ctx context.Context, owner forge.ID) (int64, error) {
	if err := t.read(ctx); err != nil {
		return 0, err
	}
	var n int64
	for _, f := range t.st.pkgFiles {
		if v, ok := t.st.pkgVersions[f.VersionID]; ok && t.st.packages[v.PackageID].OwnerID == owner {
			n += f.Size
		}
	}
	return n, nil
}

// ListPackageUsage lists owner's package files, one row per file with its
// version's size, largest version first.
func (t *tx) ListPackageUsage(ctx context.Context, owner forge.ID, o forge.ListOptions) ([]quota.PackageUsage, int64, error) {
	if err := t.read(ctx); err != nil {
		return nil, 0, err
	}
	sizes := map[forge.ID]int64{}
	for _, f := range t.st.pkgFiles {
		sizes[f.VersionID] += f.Size
	}
	type row struct {
		u  quota.PackageUsage
		id forge.ID
	}
	all := []row{}
	for _, f := range t.st.pkgFiles {
		v, ok := t.st.pkgVersions[f.VersionID]
		p := t.st.packages[v.PackageID]
		if !ok || p.OwnerID != owner {
			continue
		}
		all = append(all, row{quota.PackageUsage{OwnerName: t.st.users[owner].u.Name, Name: p.Name, Type: string(p.Type),
			Version: v.Version, Size: sizes[v.ID]}, f.ID})
	}
	list, n := pageOf(all, func(a, b row) int { return cmp.Or(cmp.Compare(b.u.Size, a.u.Size), cmp.Compare(a.id, b.id)) }, o)
	out := make([]quota.PackageUsage, len(list))
	for i, r := range list {
		out[i] = r.u
	}
	return out, n, nil
}

// RecountArtifacts sums the unexpired artifacts of owner's repositories.
func (t *tx) RecountArtifacts(ctx context.Context, owner forge.ID) (int64, error) {
	if err := t.read(ctx); err != nil {
		return 0, err
	}
	var n int64
	for _, a := range t.st.artifacts {
		if a.Status != artifacts.StatusExpired && t.ownedRepo(a.RepoID, owner) {
			n += a.CompressedSize
		}
	}
	return n, nil
}

// ListArtifactUsage lists the unexpired artifacts of owner's repositories,
// largest first.
func (t *tx) ListArtifactUsage(ctx context.Context, owner forge.ID, o forge.ListOptions) ([]quota.ArtifactUsage, int64, error) {
	if err := t.read(ctx); err != nil {
		return nil, 0, err
	}
	all := rowsWhere(t.st.artifacts, func(a artifacts.Artifact) bool {
		return a.Status != artifacts.StatusExpired && t.ownedRepo(a.RepoID, owner)
	})
	list, n := pageOf(all, func(a, b artifacts.Artifact) int {
		return cmp.Or(cmp.Compare(b.CompressedSize, a.CompressedSize), cmp.Compare(a.ID, b.ID))
	}, o)
	out := make([]quota.ArtifactUsage, len(list))
	for i, a := range list {
		out[i] = quota.ArtifactUsage{Name: a.Name, Size: a.CompressedSize}
	}
	return out, n, nil
}
