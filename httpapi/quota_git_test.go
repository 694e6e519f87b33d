package httpapi_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// reposUsed is owner's size:repos:all.
func (e *quotaEnv) reposUsed(owner string) int64 {
	e.t.Helper()
	r := e.used(owner)["size"].(map[string]any)["repos"].(map[string]any)
	return int64(r["public"].(float64) + r["private"].(float64))
}

// TestQuotaGitPush pushes with the real git client: a push whose pack
// would carry the owner past the size:repos:all limit is refused by the
// pre-receive step with Forgejo's "Quota exceeded" and moves no
// reference; a push while at the limit is refused before git runs;
// deleting references is always allowed.
func TestQuotaGitPush(t *testing.T) {
	t.Parallel()
	e := newQuotaEnv(t, quotaOn)
	url := e.gitURL("alice", "alice-password", "alice", "proj")
	g := newGitWork(t)
	g.run("init", "-q", ".")
	g.commit("README.md", "hello\n")
	g.run("push", "-q", url, "main")
	g.run("push", "-q", url, "main:side")

	used := e.reposUsed("alice")
	require.Greater(t, used, int64(0))
	e.limit("alice", used+64<<10, "size:repos:all") // 64 KiB of room

	// A small push fits.
	small := g.commit("small.txt", "a few bytes\n")
	g.run("push", "-q", url, "main")
	assert.Contains(t, g.run("ls-remote", url, "refs/heads/main"), small)
	assert.Greater(t, e.reposUsed("alice"), used, "the push is charged: the repository's size")

	// A 256 KiB incompressible file does not.
	g.write("big.bin", randomBytes(t, 256<<10))
	g.run("add", ".")
	g.run("commit", "-q", "-m", "big")
	before := e.reposUsed("alice")
	out := g.fail("push", url, "main")
	assert.Contains(t, out, "Quota exceeded")
	assert.Contains(t, g.run("ls-remote", url, "refs/heads/main"), small, "no reference moved")
	assert.Equal(t, before, e.reposUsed("alice"), "nothing charged")
	e.expect(e.do(req{method: "GET", path: "/api/v1/repos/alice/proj/contents/big.bin", token: e.alice}), 404, "")

	// At the limit every push that adds something is refused upfront...
	e.admin("PATCH", "/rules/r-alice", map[string]any{"limit": before}, 200)
	g.run("reset", "-q", "--hard", small)
	g.commit("tiny.txt", "x\n")
	out = g.fail("push", url, "main")
	assert.Contains(t, out, "Quota exceeded")
	out = g.fail("push", url, "main:refs/tags/t1")
	assert.Contains(t, out, "Quota exceeded", "tags too")
	assert.Contains(t, g.run("ls-remote", url, "refs/heads/main"), small)
	// ...but deleting references is always allowed.
	g.run("push", "-q", url, ":side")
	assert.NotContains(t, g.run("ls-remote", url), "refs/heads/side")
	assert.Equal(t, fmt.Sprintf("%s\trefs/heads/main", small), strings.TrimSpace(g.run("ls-remote", url, "refs/heads/main")))

	// The refusal names the owner in the API's own body for a client
	// that asks for no report.
	e.admin("PATCH", "/rules/r-alice", map[string]any{"limit": 1}, 200)
	e.expectQuota(e.do(req{method: "POST", path: "/alice/proj.git/git-receive-pack", user: "alice", pass: "alice-password",
		header: map[string]string{"Content-Type": "application/x-git-receive-pack-request"},
		body:   []byte(pktLineString(fmt.Sprintf("%s %s refs/heads/x\x00", strings.Repeat("0", 40), small)) + "0000")}), "alice")
}

func pktLineString(s string) string { return fmt.Sprintf("%04x%s", len(s)+4, s) }
