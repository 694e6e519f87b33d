package sqlite

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/forgetest"
	"github.com/hearthforge/hearth/issues"
)

// The rows forge/orgs writes in user_block (user_id blocks block_id) are
// what issues.BlockReader reads, in that direction.
func TestIssuesIsBlockedByAny(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, err := Open(ctx, ":memory:")
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	var ids []forge.ID
	require.NoError(t, db.Auth().Update(ctx, func(tx auth.Tx) error {
		for _, name := range []string{"one", "two", "three"} {
			u := forgetest.User(name)
			if err := tx.CreateUser(ctx, u, ""); err != nil {
				return err
			}
			ids = append(ids, u.ID)
		}
		return nil
	}))
	_, err = db.write.ExecContext(ctx, `INSERT INTO user_block (user_id, block_id, created_unix) VALUES (?, ?, 1)`, ids[0], ids[2])
	require.NoError(t, err)
	require.NoError(t, db.Issues().View(ctx, func(tx issues.Tx) error {
		for _, c := range []struct {
			blockers []forge.ID
			user     forge.ID
			want     bool
		}{
			{[]forge.ID{ids[0]}, ids[2], true},
			{[]forge.ID{ids[1], ids[0]}, ids[2], true},
			{[]forge.ID{ids[1]}, ids[2], false},
			{[]forge.ID{ids[2]}, ids[0], false},
			{nil, ids[2], false},
		} {
			got, err := tx.(issues.BlockReader).IsBlockedByAny(ctx, c.blockers, c.user)
			require.NoError(t, err)
			assert.Equal(t, c.want, got, "IsBlockedByAny(%v, %d)", c.blockers, c.user)
		}
		return nil
	}))
}
