package main

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLFSAndGenericPackages runs forged as shipped: the real git-lfs client
// pushes LFS-tracked files and a clone gets them back; the generic
// registry stores and serves a file at /api/packages, which
// /api/v1/packages lists.
func TestLFSAndGenericPackages(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git-lfs"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("git-lfs is not installed; .ci/run installs it")
		}
		t.Skip("git-lfs is not installed (.ci/run installs it)")
	}
	s := start(t, filepath.Join(t.TempDir(), "data"), map[string]string{
		"FORGED_ADMIN_USER": "boss", "FORGED_ADMIN_PASSWORD": "boss-password"})
	r := s.do(t, call{method: "POST", path: "/api/v1/user/repos", user: "boss", pass: "boss-password", body: map[string]any{"name": "media"}})
	require.Equal(t, 201, r.status, "%s", r.raw)
	remote := "http://boss:boss-password@" + strings.TrimPrefix(s.url, "http://") + "/boss/media.git"

	home := t.TempDir()
	git := func(dir string, args ...string) string {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-c", "user.name=T", "-c", "user.email=t@example.com",
			"-c", "init.defaultBranch=main", "-c", "lfs.locksverify=false"}, args...)...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+filepath.Join(home, ".gitconfig"),
			"HOME="+home, "GIT_TERMINAL_PROMPT=0", "GIT_ASKPASS=/bin/false")
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "git %v: %s", args, out)
		return string(out)
	}
	git(home, "lfs", "install", "--skip-repo")
	work := t.TempDir()
	data := make([]byte, 2<<20)
	_, err := rand.Read(data)
	require.NoError(t, err)
	git(work, "init", ".")
	git(work, "lfs", "track", "*.bin")
	require.NoError(t, os.WriteFile(filepath.Join(work, "data.bin"), data, 0o644))
	git(work, "add", ".")
	git(work, "commit", "-q", "-m", "lfs")
	git(work, "push", "-q", remote, "main")
	clone := t.TempDir()
	git(clone, "clone", "-q", remote, "out")
	got, err := os.ReadFile(filepath.Join(clone, "out", "data.bin"))
	require.NoError(t, err)
	assert.True(t, bytes.Equal(data, got), "the clone has the LFS object's bytes")

	r = s.do(t, call{method: "PUT", path: "/api/packages/boss/generic/tool/1.0/tool.txt", user: "boss", pass: "boss-password", body: "tool bytes"})
	require.Equal(t, 201, r.status, "%s", r.raw)
	r = s.do(t, call{method: "GET", path: "/api/packages/boss/generic/tool/1.0/tool.txt"})
	require.Equal(t, 200, r.status)
	assert.Equal(t, "tool bytes", string(r.raw))
	r = s.do(t, call{method: "GET", path: "/api/v1/packages/boss/generic/tool/1.0", user: "boss", pass: "boss-password"})
	require.Equal(t, 200, r.status, "%s", r.raw)
	assert.Equal(t, "tool", r.body["name"])
}

// TestQuotaFlagsReachLFSAndPackages: with -quota and a default total of
// 1 MB, an LFS object or a package file that would cross it is refused with
// 413 and the owner's quota body; smaller ones are stored.
func TestQuotaFlagsReachLFSAndPackages(t *testing.T) {
	t.Parallel()
	s := start(t, filepath.Join(t.TempDir(), "data"), map[string]string{
		"FORGED_ADMIN_USER": "boss", "FORGED_ADMIN_PASSWORD": "boss-password"}, "-quota", "-quota-default-total", "1MB")
	r := s.do(t, call{method: "POST", path: "/api/v1/user/repos", user: "boss", pass: "boss-password", body: map[string]any{"name": "media"}})
	require.Equal(t, 201, r.status, "%s", r.raw)
	big := strings.Repeat("x", 1_000_001)
	r = s.do(t, call{method: "PUT", path: "/api/packages/boss/generic/tool/1.0/big.txt", user: "boss", pass: "boss-password", body: big})
	require.Equal(t, 413, r.status, "%s", r.raw)
	assert.Equal(t, "quota exceeded", r.body["message"])
	assert.Equal(t, "boss", r.body["username"])
	r = s.do(t, call{method: "PUT", path: "/api/packages/boss/generic/tool/1.0/small.txt", user: "boss", pass: "boss-password", body: "small"})
	require.Equal(t, 201, r.status, "%s", r.raw)

	oid := fmt.Sprintf("%x", sha256.Sum256([]byte(big)))
	r = s.do(t, call{method: "POST", path: "/boss/media.git/info/lfs/objects/batch", user: "boss", pass: "boss-password",
		header: map[string]string{"Accept": "application/vnd.git-lfs+json"},
		body:   map[string]any{"operation": "upload", "objects": []map[string]any{{"oid": oid, "size": len(big)}}}})
	require.Equal(t, 413, r.status, "%s", r.raw)
	assert.Equal(t, "quota exceeded", r.body["message"])
}
