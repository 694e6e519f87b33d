package sqlstore

import (
	"context"

	"github.com/hearthforge/hearth/storage/blob"
)

// BlobRefs returns the store the blob sweeper reads referenced keys from.
func (db *DB) BlobRefs() blob.RefStore {
	return storeOf(db, func(t *tx) blob.RefTx { return blobRefTx{t} })
}

// blobRefTx is a transaction seen as a blob.RefTx.
type blobRefTx struct{ *tx }

var _ blob.RefTx = blobRefTx{}

// sqlBlobKeys names every column that holds a blob key. LFS objects are
// keyed by oid under lfs.Pointer.BlobKey's "lfs-" prefix. A table that
// gains a blob column must be added here (storetest's BlobRefs case
// writes one row of each kind).
var sqlBlobKeys = prepared(`SELECT uuid FROM issue_attachment
UNION SELECT uuid FROM attachment WHERE external_url = ''
UNION SELECT avatar FROM repository WHERE avatar != ''
UNION SELECT avatar FROM users WHERE avatar != ''
UNION SELECT 'lfs-' || oid FROM lfs_meta_object
UNION SELECT blob_key FROM package_file
UNION SELECT blob_key FROM action_artifact`)

func (t blobRefTx) ReferencedBlobKeys(ctx context.Context) ([]string, error) {
	rows, err := t.query(ctx, sqlBlobKeys)
	if err != nil {
		return nil, mapError(err, "referenced blob keys")
	}
	defer rows.Close()
	var keys []string
	for rows.Next() {
		var k string
		if err := rows.Scan(&k); err != nil {
			return nil, mapError(err, "referenced blob keys")
		}
		keys = append(keys, k)
	}
	return keys, mapError(rows.Err(), "referenced blob keys")
}
