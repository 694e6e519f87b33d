package memstore

import (
	"context"
	"testing"
	"time"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/issues"
)

// The block rows forge/orgs writes are what issues.Tx.IsBlockedByAny reads.
func TestIssuesIsBlockedByAny(t *testing.T) {
	t.Parallel()
	s := New()
	st := s.cur.Load().clone()
	st.blocks[blockKey{blocker: 1, user: 3}] = time.Unix(0, 0)
	s.cur.Store(st)
	ctx := context.Background()
	err := s.Issues().View(ctx, func(tx issues.Tx) error {
		for _, c := range []struct {
			blockers []forge.ID
			user     forge.ID
			want     bool
		}{
			{[]forge.ID{1}, 3, true},
			{[]forge.ID{2, 1}, 3, true},
			{[]forge.ID{2}, 3, false},
			{[]forge.ID{3}, 1, false},
			{nil, 3, false},
		} {
			got, err := tx.(issues.BlockReader).IsBlockedByAny(ctx, c.blockers, c.user)
			if err != nil {
				return err
			}
			if got != c.want {
				t.Errorf("IsBlockedByAny(%v, %d) = %v", c.blockers, c.user, got)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
