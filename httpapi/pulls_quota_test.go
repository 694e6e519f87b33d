package httpapi_test

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestQuotaPullUpdate: updating a pull request's head with its base checks
// size:git:all of the base repository's owner (quota.md §7.1): over quota
// it answers 413 naming the owner and moves no reference; once the limit
// allows, the update goes through.
func TestQuotaPullUpdate(t *testing.T) {
	t.Parallel()
	e := newQuotaEnv(t, quotaOn)
	g, url := e.pushMainAndSide(t)
	g.run("checkout", "-q", "main")
	g.commit("main.txt", "main moved\n")
	g.run("push", "-q", url, "main")
	sideTip := g.run("ls-remote", url, "refs/heads/side")

	pr := e.send(e.alice, "POST", e.proj+"/pulls", map[string]any{"head": "side", "base": "main", "title": "side"}, 201).json(t)
	update := e.proj + "/pulls/" + strconv.Itoa(int(pr["number"].(float64))) + "/update"

	used := e.reposUsed("alice")
	require.Greater(t, used, int64(0))
	e.limit("alice", used, "size:git:all")
	e.expectQuota(e.do(req{method: "POST", path: update, token: e.alice}), "alice")
	assert.Equal(t, sideTip, g.run("ls-remote", url, "refs/heads/side"), "no reference moved")

	e.admin("PATCH", "/rules/r-alice", map[string]any{"limit": used + 1<<20}, 200)
	e.send(e.alice, "POST", update, nil, 200)
	assert.NotEqual(t, sideTip, g.run("ls-remote", url, "refs/heads/side"))
}
