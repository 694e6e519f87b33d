package main

import (
	"bytes"
	"crypto/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLargePushAndDisabledAccount runs forged as shipped: a 50 MB push of
// incompressible data (sent chunked by git) succeeds and is cloned back
// identical; once the administrator prohibits the user from signing in,
// the same token can neither clone nor push.
func TestLargePushAndDisabledAccount(t *testing.T) {
	t.Parallel()
	s := start(t, filepath.Join(t.TempDir(), "data"), map[string]string{
		"FORGED_ADMIN_USER": "boss", "FORGED_ADMIN_PASSWORD": "boss-password"})
	admin := call{user: "boss", pass: "boss-password", method: "POST", path: "/api/v1/admin/users",
		body: map[string]any{"username": "alice", "email": "alice@example.com", "password": "alice-password", "must_change_password": false}}
	require.Equal(t, 201, s.do(t, admin).status)
	r := s.do(t, call{method: "POST", path: "/api/v1/users/alice/tokens", user: "alice", pass: "alice-password",
		body: map[string]any{"name": "git", "scopes": []string{"write:repository", "write:user"}}})
	require.Equal(t, 201, r.status, "%s", r.raw)
	tok := r.body["sha1"].(string)
	r = s.do(t, call{method: "POST", path: "/api/v1/user/repos", header: map[string]string{"Authorization": "token " + tok},
		body: map[string]any{"name": "big", "private": true}})
	require.Equal(t, 201, r.status, "%s", r.raw)
	remote := "http://alice:" + tok + "@" + strings.TrimPrefix(s.url, "http://") + "/alice/big.git"

	work := t.TempDir()
	data := make([]byte, bigPush)
	_, err := rand.Read(data)
	require.NoError(t, err)
	mustGit(t, work, "init", ".")
	require.NoError(t, os.WriteFile(filepath.Join(work, "blob.bin"), data, 0o644))
	mustGit(t, work, "add", ".")
	mustGit(t, work, "commit", "-q", "-m", "big")
	mustGit(t, work, "push", "-q", remote, "main")

	clone := t.TempDir()
	mustGit(t, clone, "clone", "-q", remote, "out")
	got, err := os.ReadFile(filepath.Join(clone, "out", "blob.bin"))
	require.NoError(t, err)
	assert.True(t, bytes.Equal(data, got), "the clone has the pushed bytes")

	r = s.do(t, call{method: "PATCH", path: "/api/v1/admin/users/alice", user: "boss", pass: "boss-password",
		body: map[string]any{"login_name": "alice", "source_id": 0, "prohibit_login": true}})
	require.Equal(t, 200, r.status, "%s", r.raw)
	out, err := gitCLI(t, t.TempDir(), "clone", "-q", remote, "again")
	assert.Error(t, err, "clone by a prohibited user: %s", out)
	require.NoError(t, os.WriteFile(filepath.Join(work, "more.txt"), []byte("more"), 0o644))
	mustGit(t, work, "add", ".")
	mustGit(t, work, "commit", "-q", "-m", "more")
	out, err = gitCLI(t, work, "push", remote, "main")
	assert.Error(t, err, "push by a prohibited user: %s", out)
}

// TestMaxPushBytesFlag: -max-push-bytes reaches the git transport: a push
// larger than it is refused and changes nothing.
func TestMaxPushBytesFlag(t *testing.T) {
	t.Parallel()
	s := start(t, filepath.Join(t.TempDir(), "data"), map[string]string{
		"FORGED_ADMIN_USER": "boss", "FORGED_ADMIN_PASSWORD": "boss-password"}, "-max-push-bytes", "200000")
	r := s.do(t, call{method: "POST", path: "/api/v1/user/repos", user: "boss", pass: "boss-password", body: map[string]any{"name": "small"}})
	require.Equal(t, 201, r.status, "%s", r.raw)
	remote := "http://boss:boss-password@" + strings.TrimPrefix(s.url, "http://") + "/boss/small.git"

	work := t.TempDir()
	mustGit(t, work, "init", ".")
	require.NoError(t, os.WriteFile(filepath.Join(work, "ok.txt"), []byte("small"), 0o644))
	mustGit(t, work, "add", ".")
	mustGit(t, work, "commit", "-q", "-m", "small")
	mustGit(t, work, "push", "-q", remote, "main")

	data := make([]byte, 1<<20)
	_, err := rand.Read(data)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(work, "big.bin"), data, 0o644))
	mustGit(t, work, "add", ".")
	mustGit(t, work, "commit", "-q", "-m", "big")
	out, err := gitCLI(t, work, "push", remote, "main")
	assert.Error(t, err, "a push over -max-push-bytes: %s", out)
	r = s.do(t, call{method: "GET", path: "/api/v1/repos/boss/small/contents/big.bin", user: "boss", pass: "boss-password"})
	assert.Equal(t, 404, r.status, "the refused push changed nothing")
}
