package memstore

import (
	"context"
	"sort"

	"github.com/hearthforge/hearth/forge/lfs"
	"github.com/hearthforge/hearth/storage/blob"
)

// BlobRefs returns the store the blob sweeper reads referenced keys from.
func (s *Store) BlobRefs() blob.RefStore {
	return storeOf(s, func(t *tx) blob.RefTx { return blobRefTx{t} })
}

// blobRefTx is a transaction seen as a blob.RefTx.
type blobRefTx struct{ *tx }

var _ blob.RefTx = blobRefTx{}

// ReferencedBlobKeys returns the keys sorted (the order is unspecified;
// sorting keeps results reproducible).
func (t blobRefTx) ReferencedBlobKeys(ctx context.Context) ([]string, error) {
	if err := t.read(ctx); err != nil {
		return nil, err
	}
	set := map[string]struct{}{}
	add := func(k string) {
		if k != "" {
			set[k] = struct{}{}
		}
	}
	for _, a := range t.st.issueAssets {
		add(a.UUID)
	}
	for _, a := range t.st.attachments {
		if a.ExternalURL == "" {
			add(a.UUID)
		}
	}
	for _, r := range t.st.repos {
		add(r.Avatar)
	}
	for _, u := range t.st.users {
		add(u.u.Avatar)
	}
	for k := range t.st.lfsMeta {
		add(lfs.Pointer{Oid: k.oid}.BlobKey())
	}
	for _, f := range t.st.pkgFiles {
		add(f.BlobKey)
	}
	for _, a := range t.st.artifacts {
		add(a.BlobKey)
	}
	keys := make([]string, 0, len(set))
	for k := range set {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys, nil
}
