package gitstore

import (
	"fmt"
	"testing"
)

func TestLRUBounds(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name          string
		size          int
		maxCost       int64
		puts          int
		extra         int64
		wantLen       int
		wantNewestIn  bool
		wantOldestOut bool
	}{
		{"entries bound", 10, 0, 50, 100, 10, true, true},
		{"cost bound", 1000, 16000, 200, 100, 16000 / (3 + 64 + 100), true, true},
		{"too costly to keep", 1000, 16000, 5, 2000, 0, false, false},
		{"nothing kept", 0, 0, 5, 0, 0, false, false},
		{"under both bounds", 1000, 1 << 20, 50, 100, 50, true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := newCostLRU[int](tc.size, tc.maxCost)
			for i := range tc.puts {
				c.putCost(fmt.Sprintf("%03d", i), i, tc.extra)
			}
			if c.len() != tc.wantLen {
				t.Errorf("len %d, want %d", c.len(), tc.wantLen)
			}
			if tc.maxCost > 0 && c.cost > tc.maxCost {
				t.Errorf("cost %d over %d", c.cost, tc.maxCost)
			}
			if _, ok := c.get(fmt.Sprintf("%03d", tc.puts-1)); ok != tc.wantNewestIn {
				t.Errorf("newest kept: %v", ok)
			}
			if _, ok := c.get("000"); ok == tc.wantOldestOut && tc.puts > 0 && tc.wantLen > 0 {
				t.Errorf("oldest kept: %v", ok)
			}
		})
	}
}
