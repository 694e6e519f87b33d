package httpapi_test

import (
	"fmt"
	"os"
	"path/filepath"
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

// dirSize is the bytes of the files below dir.
func dirSize(t *testing.T, dir string) int64 {
	t.Helper()
	var n int64
	require.NoError(t, filepath.Walk(dir, func(_ string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() {
			n += fi.Size()
		}
		return err
	}))
	return n
}

// TestQuotaUsedIsReal: after pushes, uploads and release assets, GET
// /user/quota (and an organisation's) shows the real sizes per subject:
// the repositories' directories, public and private apart, and the bytes
// uploaded; a transfer moves them to the new owner.
func TestQuotaUsedIsReal(t *testing.T) {
	t.Parallel()
	e := newQuotaEnv(t, quotaOn)
	e.createOrg("alice", "acme", "public")
	pub := e.send(e.alice, "GET", e.proj, nil, 200).json(t)
	priv := e.send(e.alice, "POST", "/api/v1/user/repos", map[string]any{"name": "secret", "private": true}, 201).json(t)
	lib := e.send(e.alice, "POST", "/api/v1/orgs/acme/repos", map[string]any{"name": "lib"}, 201).json(t)
	g := newGitWork(t)
	g.run("init", "-q", ".")
	g.commit("a.txt", "one\n")
	g.run("push", "-q", e.gitURL("alice", "alice-password", "alice", "proj"), "main")
	g.write("b.bin", randomBytes(t, 20<<10))
	g.run("add", ".")
	g.run("commit", "-q", "-m", "b")
	g.run("push", "-q", e.gitURL("alice", "alice-password", "alice", "secret"), "main")
	g.run("push", "-q", e.gitURL("alice", "alice-password", "acme", "lib"), "main")

	n := e.newIssue(e.bob, "files")
	e.expect(e.upload(e.bob, e.issuePath(n, "/assets"), "x.txt", strings.Repeat("x", 1234), nil), 201, "")
	rel := e.send(e.alice, "POST", "/api/v1/repos/acme/lib/releases", map[string]any{"tag_name": "v1"}, 201).json(t)
	e.expect(e.upload(e.alice, fmt.Sprintf("/api/v1/repos/acme/lib/releases/%v/assets", rel["id"]), "r.bin", strings.Repeat("r", 777), nil), 201, "")

	repoDir := func(r map[string]any) string { return filepath.Join(e.gitDir, fmt.Sprintf("%v.git", r["id"])) }
	size := func(tok, path string) map[string]any {
		return e.send(tok, "GET", path, nil, 200).json(t)["used"].(map[string]any)["size"].(map[string]any)
	}
	want := map[string]any{
		"repos":  map[string]any{"public": float64(dirSize(t, repoDir(pub))), "private": float64(dirSize(t, repoDir(priv)))},
		"git":    map[string]any{"LFS": float64(0)},
		"assets": map[string]any{"attachments": map[string]any{"issues": float64(1234), "releases": float64(0)}, "artifacts": float64(0), "packages": map[string]any{"all": float64(0)}},
	}
	assert.Equal(t, want, size(e.alice, "/api/v1/user/quota"))
	wantOrg := map[string]any{
		"repos":  map[string]any{"public": float64(dirSize(t, repoDir(lib))), "private": float64(0)},
		"git":    map[string]any{"LFS": float64(0)},
		"assets": map[string]any{"attachments": map[string]any{"issues": float64(0), "releases": float64(777)}, "artifacts": float64(0), "packages": map[string]any{"all": float64(0)}},
	}
	assert.Equal(t, wantOrg, size(e.alice, "/api/v1/orgs/acme/quota"))

	// A transfer moves the repository's usage; a visibility change moves
	// it between public and private.
	e.send(e.alice, "POST", "/api/v1/repos/acme/lib/transfer", map[string]any{"new_owner": "alice"}, 202)
	e.send(e.alice, "PATCH", "/api/v1/repos/alice/lib", map[string]any{"private": true}, 200)
	got := size(e.alice, "/api/v1/user/quota")
	assert.Equal(t, float64(dirSize(t, repoDir(priv))+dirSize(t, repoDir(lib))), got["repos"].(map[string]any)["private"])
	assert.Equal(t, float64(777), got["assets"].(map[string]any)["attachments"].(map[string]any)["releases"])
	org := size(e.alice, "/api/v1/orgs/acme/quota")
	assert.Equal(t, float64(0), org["repos"].(map[string]any)["public"])
	assert.Equal(t, float64(0), org["assets"].(map[string]any)["attachments"].(map[string]any)["releases"])
}
