package httpapi_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPullPinned: GET /pulls/pinned answers Forgejo's PullRequest JSON
// (head, base, merged), not the issue JSON of /issues/pinned.
func TestPullPinned(t *testing.T) {
	t.Parallel()
	e := newPullEnv(t, "")
	e.seed("")
	pr := e.newPull(e.alice, "b1", "main", "pinned one")
	n := num(pr["number"])
	assert.Empty(t, e.send(e.alice, "GET", e.proj+"/pulls/pinned", nil, 200).list(t))
	e.send(e.alice, "POST", e.issuePath(n, "/pin"), nil, 204)
	list := e.send("", "GET", e.proj+"/pulls/pinned", nil, 200).list(t)
	require.Len(t, list, 1)
	got := list[0]
	assert.Equal(t, float64(n), got["number"])
	head, _ := got["head"].(map[string]any)
	base, _ := got["base"].(map[string]any)
	require.NotNil(t, head, "a pull request's head: %v", got)
	require.NotNil(t, base)
	assert.Equal(t, "b1", head["ref"])
	assert.Equal(t, "main", base["ref"])
	assert.Equal(t, false, got["merged"])
}
