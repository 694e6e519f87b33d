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
