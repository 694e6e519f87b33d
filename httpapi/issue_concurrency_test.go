package httpapi_test

import (
	"fmt"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestIssueConcurrencyOverHTTP runs the two races of issue 11 through the
// API on SQLite: 200 parallel creations in one repository get 200
// distinct numbers, and 50 parallel additions of labels of one exclusive
// scope leave exactly one of them on the issue.
func TestIssueConcurrencyOverHTTP(t *testing.T) {
	t.Parallel()
	e := newIssueEnv(t)

	const creations = 200
	numbers := make(chan float64, creations)
	var wg sync.WaitGroup
	for i := range creations {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := e.do(req{method: "POST", path: e.proj + "/issues", token: e.bob, body: map[string]any{"title": fmt.Sprintf("race %d", i)}})
			if assert.Equal(t, 201, r.StatusCode, "%s", r.body) {
				numbers <- r.json(t)["number"].(float64)
			}
		}()
	}
	wg.Wait()
	close(numbers)
	seen := map[float64]bool{}
	for n := range numbers {
		assert.False(t, seen[n], "number %v given twice", n)
		seen[n] = true
	}
	assert.Len(t, seen, creations)
	for n := 1; n <= creations; n++ {
		assert.True(t, seen[float64(n)], "number %d missing", n)
	}

	const adds = 50
	ids := make([]int64, adds)
	for i := range ids {
		ids[i] = e.newLabel(fmt.Sprintf("size/%02d", i), true)
	}
	for i := range adds {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := e.do(req{method: "POST", path: e.issuePath(1, "/labels"), token: e.alice, body: map[string]any{"labels": []int64{ids[i]}}})
			assert.Equal(t, 200, r.StatusCode, "%s", r.body)
		}()
	}
	wg.Wait()
	got := e.labelNames(1)
	require.Len(t, got, 1, "one label of the scope stays: %v", got)
}
