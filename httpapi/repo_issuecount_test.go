package httpapi_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRepoOpenIssuesCount: the repository JSON's open_issues_count is the
// repository's number of open issues (Forgejo's NumOpenIssues), in the
// single repository and in a listing, and follows closing and reopening.
func TestRepoOpenIssuesCount(t *testing.T) {
	t.Parallel()
	e := newIssueEnv(t)
	count := func(r resp) int64 {
		t.Helper()
		var got struct {
			OpenIssues *int64 `json:"open_issues_count"`
			OpenPulls  *int64 `json:"open_pr_counter"`
		}
		require.NoError(t, json.Unmarshal(r.body, &got), string(r.body))
		require.NotNil(t, got.OpenIssues)
		require.NotNil(t, got.OpenPulls)
		assert.EqualValues(t, 0, *got.OpenPulls)
		return *got.OpenIssues
	}
	listed := func() int64 {
		t.Helper()
		var list []json.RawMessage
		r := e.send(e.alice, "GET", "/api/v1/user/repos", nil, 200)
		require.NoError(t, json.Unmarshal(r.body, &list))
		require.Len(t, list, 1)
		return count(resp{body: list[0]})
	}
	assert.EqualValues(t, 0, count(e.send(e.alice, "GET", e.proj, nil, 200)))
	e.newIssue(e.alice, "one")
	n := e.newIssue(e.bob, "two")
	e.newIssue(e.bob, "three")
	assert.EqualValues(t, 3, count(e.send(e.bob, "GET", e.proj, nil, 200)))
	e.send(e.alice, "PATCH", e.issuePath(n, ""), map[string]any{"state": "closed"}, 201)
	assert.EqualValues(t, 2, count(e.send(e.alice, "GET", e.proj, nil, 200)))
	assert.EqualValues(t, 2, listed())
	e.send(e.alice, "PATCH", e.issuePath(n, ""), map[string]any{"state": "open"}, 201)
	assert.EqualValues(t, 3, listed())
}
