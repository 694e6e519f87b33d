package sqlstore

import (
	"context"

	"github.com/hearthforge/hearth/forge"
)

// SetBlock implements orgs.Tx: a block already recorded keeps its time.
// forge.ErrNotFound if either account does not exist.
func (t *tx) SetBlock(ctx context.Context, b forge.Block) error {
	_, err := t.exec(ctx, sqlSetBlock, b.BlockerID, b.UserID, toUnix(b.Created))
	return mapError(err, "block user")
}

// DeleteBlock implements orgs.Tx.
func (t *tx) DeleteBlock(ctx context.Context, blockerID, userID forge.ID) error {
	res, err := t.exec(ctx, sqlDeleteBlock, blockerID, userID)
	return affectedOne(res, err, "unblock user")
}

// IsBlocked implements orgs.Tx.
func (t *tx) IsBlocked(ctx context.Context, blockerID, userID forge.ID) (bool, error) {
	var blocked bool
	err := t.queryRow(ctx, sqlIsBlocked, blockerID, userID).Scan(&blocked)
	return blocked, mapError(err, "blocked user")
}

// DropBlocked implements orgs.Tx.
func (t *tx) DropBlocked(ctx context.Context, ownerID, userID forge.ID) error {
	for _, q := range []string{sqlRecountUnwatched, sqlDropOwnerWatches, sqlDropOwnerCollabs, sqlDropOfferedTransfers} {
		if _, err := t.exec(ctx, q, ownerID, userID); err != nil {
			return mapError(err, "drop from owner's repositories")
		}
	}
	return nil
}

// ListBlocked implements orgs.Tx: newest first, then by user id.
func (t *tx) ListBlocked(ctx context.Context, blockerID forge.ID, o forge.ListOptions) ([]forge.Block, int64, error) {
	var total int64
	if err := t.queryRow(ctx, sqlCountBlocked, blockerID).Scan(&total); err != nil {
		return nil, 0, mapError(err, "count blocked users")
	}
	o = o.Normalize()
	rows, err := t.query(ctx, sqlListBlocked, blockerID, o.Limit, o.Offset())
	if err != nil {
		return nil, 0, mapError(err, "list blocked users")
	}
	defer rows.Close()
	list := []forge.Block{}
	for rows.Next() {
		b := forge.Block{BlockerID: blockerID}
		var created int64
		if err := rows.Scan(&b.UserID, &created); err != nil {
			return nil, 0, mapError(err, "list blocked users")
		}
		b.Created = fromUnix(created)
		list = append(list, b)
	}
	return list, total, mapError(rows.Err(), "list blocked users")
}

var (
	sqlSetBlock = prepared(`INSERT INTO user_block (user_id, block_id, created_unix) VALUES (?,?,?)
		ON CONFLICT DO NOTHING`)
	sqlDeleteBlock  = prepared(`DELETE FROM user_block WHERE user_id = ? AND block_id = ?`)
	sqlIsBlocked    = prepared(`SELECT EXISTS (SELECT 1 FROM user_block WHERE user_id = ? AND block_id = ?)`)
	sqlCountBlocked = prepared(`SELECT count(*) FROM user_block WHERE user_id = ?`)
	sqlListBlocked  = prepared(`SELECT block_id, created_unix FROM user_block WHERE user_id = ?
		ORDER BY created_unix DESC, block_id DESC LIMIT ? OFFSET ?`)
	// The repositories of owner ?1 the user ?2 watches count their
	// watchers without the user, before the watches go.
	sqlRecountUnwatched = prepared(`UPDATE repository SET num_watches =
		(SELECT count(*) FROM watch w WHERE w.repo_id = repository.id AND w.user_id <> ?2 AND w.mode IN (1, 3))
		WHERE owner_id = ?1 AND id IN (SELECT repo_id FROM watch WHERE user_id = ?2)`)
	sqlDropOwnerWatches = prepared(`DELETE FROM watch WHERE user_id = ?2
		AND repo_id IN (SELECT id FROM repository WHERE owner_id = ?1)`)
	sqlDropOwnerCollabs = prepared(`DELETE FROM collaboration WHERE user_id = ?2
		AND repo_id IN (SELECT id FROM repository WHERE owner_id = ?1)`)
	sqlDropOfferedTransfers = prepared(`DELETE FROM repo_transfer WHERE recipient_id = ?1 AND doer_id = ?2`)
)
