package sqlstore

import (
	"context"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/issues"
)

var _ issues.BlockReader = issueTx{}

// sqlBlockedByAny reads the blocks forge/orgs records (user_block: user_id
// blocks block_id).
var sqlBlockedByAny = prepared(`SELECT EXISTS (SELECT 1 FROM user_block
	WHERE block_id = ? AND user_id IN (SELECT CAST(value AS BIGINT) FROM json_each(?)))`)

func (t issueTx) IsBlockedByAny(ctx context.Context, blockerIDs []forge.ID, userID forge.ID) (bool, error) {
	if len(blockerIDs) == 0 {
		return false, nil
	}
	var blocked bool
	err := t.queryRow(ctx, sqlBlockedByAny, userID, idList(blockerIDs)).Scan(&blocked)
	return blocked, mapError(err, "blocks")
}
