package forge_test

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/hearthforge/hearth/forge"
)

func TestListOptionsOffset(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		page, limit, max int
		want             int
	}{
		{0, 0, forge.MaxPageSize, 0},
		{1, 10, forge.MaxPageSize, 0},
		{3, 10, forge.MaxPageSize, 20},
		{2, 0, forge.MaxPageSize, forge.DefaultPageSize},
		{2, 1000, forge.MaxPageSize, forge.MaxPageSize},
		{-5, -5, forge.MaxPageSize, 0},
		{math.MaxInt, 50, forge.MaxPageSize, forge.MaxOffset},
		{math.MaxInt, math.MaxInt, forge.MaxPageSize, forge.MaxOffset},
		{math.MaxInt / 50, 50, forge.MaxPageSize, forge.MaxOffset},
		{math.MaxInt32/50 + 1, 50, forge.MaxPageSize, 2147483600},
		{math.MaxInt32/50 + 2, 50, forge.MaxPageSize, forge.MaxOffset},
		{2, math.MaxInt, 1000, 1000},
		{math.MaxInt, math.MaxInt, 1000, forge.MaxOffset},
		{5, 10, 0, 4},
	} {
		got := forge.ListOptions{Page: tt.page, Limit: tt.limit}.OffsetMax(tt.max)
		assert.Equal(t, tt.want, got, "page %d limit %d max %d", tt.page, tt.limit, tt.max)
		assert.GreaterOrEqual(t, got, 0)
	}
	assert.Equal(t, forge.MaxOffset, forge.ListOptions{Page: math.MaxInt, Limit: 30}.Offset())
}

func TestListOptionsBounds(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		page, limit, n int
		lo, hi         int
	}{
		{1, 10, 25, 0, 10},
		{3, 10, 25, 20, 25},
		{4, 10, 25, 25, 25},
		{1, -1, 25, 0, 25},
		{1, 0, 25, 0, 0},
		{0, 10, 5, 0, 5},
		{math.MaxInt, 10, 5, 5, 5},
		{math.MaxInt, math.MaxInt, 5, 5, 5},
		{1, math.MaxInt, 5, 0, 5},
		{math.MinInt, math.MinInt, 5, 0, 5},
		{2, 3, -1, 0, 0},
	} {
		lo, hi := forge.ListOptions{Page: tt.page, Limit: tt.limit}.Bounds(tt.n)
		assert.Equal(t, []int{tt.lo, tt.hi}, []int{lo, hi}, "page %d limit %d n %d", tt.page, tt.limit, tt.n)
	}
	assert.Equal(t, []int{4, 5}, forge.Page([]int{0, 1, 2, 3, 4, 5}, forge.ListOptions{Page: 3, Limit: 2}))
}

// FuzzListOptionsBounds: whatever the page, limit and length, the bounds
// slice the list (0 ≤ lo ≤ hi ≤ n) and a page never holds more than its
// limit.
func FuzzListOptionsBounds(f *testing.F) {
	f.Add(1, 30, 10, 50)
	f.Add(math.MaxInt, math.MaxInt, 100, 1000)
	f.Add(math.MinInt, -1, 0, 0)
	f.Fuzz(func(t *testing.T, page, limit, n, maxLimit int) {
		n = max(n%100000, 0)
		list := make([]struct{}, n)
		o := forge.ListOptions{Page: page, Limit: limit}
		lo, hi := o.BoundsMax(n, maxLimit)
		if lo < 0 || lo > hi || hi > n {
			t.Fatalf("page %d limit %d n %d: bounds %d..%d", page, limit, n, lo, hi)
		}
		if limit >= 0 && hi-lo > limit {
			t.Fatalf("page %d limit %d: %d items", page, limit, hi-lo)
		}
		_ = forge.Page(list, o)
	})
}
