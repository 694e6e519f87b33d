package issues_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/issues"
)

// TestSearchUnknownNames: as Forgejo's SearchIssues, label and milestone
// names are resolved among every label and milestone; unknown names are
// dropped, and a filter none of whose names exists is no filter (not an
// empty result).
func TestSearchUnknownNames(t *testing.T) {
	t.Parallel()
	c := newSQLCorpus(t, 10, 120)
	ctx := context.Background()
	total := func(opt issues.SearchOption) int64 {
		t.Helper()
		opt.State, opt.ListOptions = issues.StateAll, forge.ListOptions{Page: 1, Limit: 50}
		_, n, err := c.svc.Search(ctx, c.owner, opt)
		require.NoError(t, err)
		return n
	}
	all := total(issues.SearchOption{})
	require.EqualValues(t, 120, all)
	bug := total(issues.SearchOption{Labels: []string{"bug"}})
	require.EqualValues(t, 40, bug)
	assert.Equal(t, all, total(issues.SearchOption{Labels: []string{"nosuch"}}), "an unknown label is no filter")
	assert.Equal(t, bug, total(issues.SearchOption{Labels: []string{"bug", "nosuch"}}), "unknown names among known ones are dropped")
	assert.EqualValues(t, 0, total(issues.SearchOption{Labels: []string{"question"}}), "a known label on no issue")
	v1 := total(issues.SearchOption{Milestones: []string{"v1"}})
	require.EqualValues(t, 60, v1)
	assert.Equal(t, all, total(issues.SearchOption{Milestones: []string{"nosuch"}}), "an unknown milestone is no filter")
	assert.Equal(t, v1, total(issues.SearchOption{Milestones: []string{"nosuch", "v1"}}))
}
