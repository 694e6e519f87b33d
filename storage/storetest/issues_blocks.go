package storetest

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/orgs"
	"github.com/hearthforge/hearth/issues"
)

// testIssueBlocks: issues.BlockReader reads the blocks forge/orgs writes.
// A backend whose issue transactions do not read blocks skips it; one
// without an orgs store checks that nobody is blocked.
func testIssueBlocks(t *testing.T, b Backend) {
	ctx := context.Background()
	s := b.Issues()
	var reads bool
	issueView(t, s, func(tx issues.Tx) error { _, reads = tx.(issues.BlockReader); return nil })
	if !reads {
		t.Skip("the backend's issues.Tx is no issues.BlockReader")
	}
	owner := newUser(t, b, "bowner")
	poster := newUser(t, b, "bposter")
	pest := newUser(t, b, "bpest")
	ob, withOrgs := b.(interface{ Orgs() orgs.Store })
	if withOrgs {
		require.NoError(t, ob.Orgs().Update(ctx, func(tx orgs.Tx) error {
			return tx.SetBlock(ctx, forge.Block{BlockerID: poster.ID, UserID: pest.ID, Created: issueAt})
		}))
	}
	issueView(t, s, func(tx issues.Tx) error {
		br := tx.(issues.BlockReader)
		for _, c := range []struct {
			blockers []forge.ID
			user     forge.ID
			want     bool
		}{
			{[]forge.ID{owner.ID, poster.ID}, pest.ID, withOrgs},
			{[]forge.ID{poster.ID}, pest.ID, withOrgs},
			{[]forge.ID{owner.ID}, pest.ID, false},
			{[]forge.ID{pest.ID}, poster.ID, false},
			{nil, pest.ID, false},
		} {
			got, err := br.IsBlockedByAny(ctx, c.blockers, c.user)
			require.NoError(t, err)
			assert.Equal(t, c.want, got, "IsBlockedByAny(%v, %d)", c.blockers, c.user)
		}
		return nil
	})
}
