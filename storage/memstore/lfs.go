package memstore

import (
	"cmp"
	"context"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/lfs"
)

// LFS returns the store package forge/lfs consumes.
func (s *Store) LFS() lfs.Store { return storeOf(s, func(t *tx) lfs.Tx { return lfsTx{t} }) }

// lfsTx is a transaction seen as an lfs.Tx.
type lfsTx struct{ *tx }

// lfsKey keys a repository's LFS object.
type lfsKey struct {
	repo forge.ID
	oid  string
}

var _ lfs.Tx = lfsTx{}

func (t lfsTx) CreateMetaObject(ctx context.Context, m *lfs.MetaObject) error {
	if err := writeRef(ctx, t, t.st.repos, m.RepoID, "create lfs object"); err != nil {
		return err
	}
	k := lfsKey{m.RepoID, m.Oid}
	if _, ok := t.st.lfsMeta[k]; ok {
		return conflict("create lfs object")
	}
	v := *m
	v.Created = ts(v.Created)
	t.st.lfsMeta[k] = v
	return nil
}

func (t lfsTx) MetaObject(ctx context.Context, repo forge.ID, oid string) (*lfs.MetaObject, error) {
	return readRow(ctx, t, t.st.lfsMeta, lfsKey{repo, oid}, "lfs object")
}

func (t lfsTx) DeleteMetaObject(ctx context.Context, repo forge.ID, oid string) error {
	if err := t.write(ctx); err != nil {
		return err
	}
	k := lfsKey{repo, oid}
	if _, ok := t.st.lfsMeta[k]; !ok {
		return notFound("delete lfs object")
	}
	delete(t.st.lfsMeta, k)
	return nil
}

func (t lfsTx) ListMetaObjects(ctx context.Context, repo forge.ID, o forge.ListOptions) ([]*lfs.MetaObject, int64, error) {
	if err := t.read(ctx); err != nil {
		return nil, 0, err
	}
	all := []*lfs.MetaObject{}
	for k, v := range t.st.lfsMeta {
		if k.repo == repo {
			all = append(all, &v)
		}
	}
	list, n := pageOf(all, func(a, b *lfs.MetaObject) int { return cmp.Compare(a.Oid, b.Oid) }, o)
	return list, n, nil
}

func (t lfsTx) CountOid(ctx context.Context, oid string) (int64, error) {
	if err := t.read(ctx); err != nil {
		return 0, err
	}
	var n int64
	for k := range t.st.lfsMeta {
		if k.oid == oid {
			n++
		}
	}
	return n, nil
}

func (t lfsTx) RepoLFSSize(ctx context.Context, repo forge.ID) (int64, error) {
	if err := t.read(ctx); err != nil {
		return 0, err
	}
	var n int64
	for k, v := range t.st.lfsMeta {
		if k.repo == repo {
			n += v.Size
		}
	}
	return n, nil
}
