package httpapi_test

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestQuotaPullMerge: merging a pull request checks size:git:all of the
// base repository's owner (Forgejo's EnforceQuotaAPI on the merge route):
// over quota it answers 413 naming the owner and moves no reference; the
// pull request stays open. Once the limit allows, the merge goes through.
func TestQuotaPullMerge(t *testing.T) {
	t.Parallel()
	e := newQuotaEnv(t, quotaOn)
	g, url := e.pushMainAndSide(t)
	mainTip := g.run("ls-remote", url, "refs/heads/main")

	pr := e.send(e.alice, "POST", e.proj+"/pulls", map[string]any{"head": "side", "base": "main", "title": "side"}, 201).json(t)
	n := int(pr["number"].(float64))
	merge := e.proj + "/pulls/" + strconv.Itoa(n) + "/merge"

	used := e.reposUsed("alice")
	require.Greater(t, used, int64(0))
	e.limit("alice", used, "size:git:all") // at the limit: Forgejo refuses (used < limit fails)
	e.expectQuota(e.do(req{method: "POST", path: merge, token: e.bob, body: map[string]any{"Do": "merge"}}), "alice")
	assert.Equal(t, mainTip, g.run("ls-remote", url, "refs/heads/main"), "no reference moved")
	got := e.send(e.alice, "GET", e.proj+"/pulls/"+strconv.Itoa(n), nil, 200).json(t)
	assert.Equal(t, false, got["merged"])
	assert.Equal(t, "open", got["state"])

	// Below the limit the merge goes through.
	e.admin("PATCH", "/rules/r-alice", map[string]any{"limit": used + 1<<20}, 200)
	e.send(e.bob, "POST", merge, map[string]any{"Do": "merge"}, 200)
	assert.NotEqual(t, mainTip, g.run("ls-remote", url, "refs/heads/main"))
}
