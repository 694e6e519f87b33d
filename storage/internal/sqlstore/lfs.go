package sqlstore

import (
	"context"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/lfs"
)

// LFS returns the store package forge/lfs consumes.
func (db *DB) LFS() lfs.Store { return storeOf(db, func(t *tx) lfs.Tx { return lfsTx{t} }) }

// lfsTx is a transaction seen as an lfs.Tx.
type lfsTx struct{ *tx }

var _ lfs.Tx = lfsTx{}

var (
	sqlAddLFS     = prepared(`INSERT INTO lfs_meta_object (repo_id, oid, size, created_unix) VALUES (?, ?, ?, ?)`)
	sqlGetLFS     = prepared(`SELECT size, created_unix FROM lfs_meta_object WHERE repo_id = ? AND oid = ?`)
	sqlDelLFS     = prepared(`DELETE FROM lfs_meta_object WHERE repo_id = ? AND oid = ?`)
	sqlCountLFS   = prepared(`SELECT count(*) FROM lfs_meta_object WHERE repo_id = ?`)
	sqlListLFS    = prepared(`SELECT oid, size, created_unix FROM lfs_meta_object WHERE repo_id = ? ORDER BY oid LIMIT ? OFFSET ?`)
	sqlCountOid   = prepared(`SELECT count(*) FROM lfs_meta_object WHERE oid = ?`)
	sqlRepoLFSSum = prepared(`SELECT CAST(coalesce(sum(size), 0) AS BIGINT) FROM lfs_meta_object WHERE repo_id = ?`)
)

func (t lfsTx) CreateMetaObject(ctx context.Context, m *lfs.MetaObject) error {
	return t.guarded(ctx, func() error {
		_, err := t.exec(ctx, sqlAddLFS, m.RepoID, m.Oid, m.Size, toUnix(m.Created))
		return mapError(err, "create lfs object")
	})
}

func (t lfsTx) MetaObject(ctx context.Context, repo forge.ID, oid string) (*lfs.MetaObject, error) {
	m := &lfs.MetaObject{Pointer: lfs.Pointer{Oid: oid}, RepoID: repo}
	var created int64
	if err := t.queryRow(ctx, sqlGetLFS, repo, oid).Scan(&m.Size, &created); err != nil {
		return nil, mapError(err, "lfs object")
	}
	m.Created = fromUnix(created)
	return m, nil
}

func (t lfsTx) DeleteMetaObject(ctx context.Context, repo forge.ID, oid string) error {
	res, err := t.exec(ctx, sqlDelLFS, repo, oid)
	return affectedOne(res, err, "delete lfs object")
}

func (t lfsTx) ListMetaObjects(ctx context.Context, repo forge.ID, o forge.ListOptions) ([]*lfs.MetaObject, int64, error) {
	return pageRows(ctx, t.tx, "list lfs objects", sqlCountLFS, sqlListLFS, []any{repo}, o,
		func(r interface{ Scan(...any) error }) (*lfs.MetaObject, error) {
			m := &lfs.MetaObject{RepoID: repo}
			var created int64
			err := r.Scan(&m.Oid, &m.Size, &created)
			m.Created = fromUnix(created)
			return m, err
		})
}

func (t lfsTx) CountOid(ctx context.Context, oid string) (int64, error) {
	var n int64
	err := t.queryRow(ctx, sqlCountOid, oid).Scan(&n)
	return n, mapError(err, "count lfs objects")
}

func (t lfsTx) RepoLFSSize(ctx context.Context, repo forge.ID) (int64, error) {
	var n int64
	err := t.queryRow(ctx, sqlRepoLFSSum, repo).Scan(&n)
	return n, mapError(err, "lfs size")
}
