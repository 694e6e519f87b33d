package main

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestWebhookPushCommits: push payloads list the commits pushed (newest
// first, with their files), total_commits and head_commit: all the
// commits of a new branch, then only those an update brings.
func TestWebhookPushCommits(t *testing.T) {
	t.Parallel()
	hits := make(chan []byte, 8)
	rc := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("X-Forgejo-Event") == "push" {
			b, _ := io.ReadAll(r.Body)
			hits <- b
		}
	}))
	t.Cleanup(rc.Close)
	s := start(t, filepath.Join(t.TempDir(), "data"), map[string]string{
		"FORGED_ADMIN_USER": "boss", "FORGED_ADMIN_PASSWORD": "boss-password"}, "-webhook-allowed-hosts", "loopback")
	admin := call{method: "POST", path: "/api/v1/admin/users", user: "boss", pass: "boss-password",
		body: map[string]any{"username": "alice", "email": "alice@example.com", "password": "alice-password", "must_change_password": false}}
	require.Equal(t, 201, s.do(t, admin).status)
	alice := call{user: "alice", pass: "alice-password"}
	alice.method, alice.path, alice.body = "POST", "/api/v1/user/repos", map[string]any{"name": "proj"}
	require.Equal(t, 201, s.do(t, alice).status)
	alice.path = "/api/v1/repos/alice/proj/hooks"
	alice.body = map[string]any{"type": "gitea", "active": true, "events": []string{"push"},
		"config": map[string]string{"url": rc.URL + "/in", "content_type": "json"}}
	r := s.do(t, alice)
	require.Equal(t, 201, r.status, "%s", r.raw)

	next := func() map[string]any {
		t.Helper()
		select {
		case b := <-hits:
			var p map[string]any
			require.NoError(t, json.Unmarshal(b, &p))
			return p
		case <-time.After(2 * time.Minute):
			t.Fatal("no push delivery within 2m")
		}
		return nil
	}
	remote := "http://alice:alice-password@" + strings.TrimPrefix(s.url, "http://") + "/alice/proj.git"
	work := t.TempDir()
	write := func(name, body string) {
		require.NoError(t, os.WriteFile(filepath.Join(work, name), []byte(body), 0o644))
	}
	mustGit(t, work, "init", ".")
	write("a.txt", "a\n")
	mustGit(t, work, "add", ".")
	mustGit(t, work, "commit", "-m", "first")
	write("a.txt", "a2\n")
	write("b.txt", "b\n")
	mustGit(t, work, "add", ".")
	mustGit(t, work, "commit", "-m", "second")
	head := strings.TrimSpace(mustGit(t, work, "rev-parse", "HEAD"))
	mustGit(t, work, "push", remote, "main")

	p := next()
	assert.Equal(t, float64(2), p["total_commits"])
	commits := p["commits"].([]any)
	require.Len(t, commits, 2)
	c := commits[0].(map[string]any)
	assert.Equal(t, head, c["id"])
	assert.Equal(t, "second\n", c["message"])
	assert.Equal(t, s.url+"/alice/proj/commit/"+head, c["url"])
	assert.Equal(t, []any{"b.txt"}, c["added"])
	assert.Equal(t, []any{}, c["removed"])
	assert.Equal(t, []any{"a.txt"}, c["modified"])
	assert.NotEmpty(t, c["author"].(map[string]any)["email"])
	assert.Equal(t, []any{"a.txt"}, commits[1].(map[string]any)["added"])
	assert.Equal(t, head, p["head_commit"].(map[string]any)["id"])
	assert.Contains(t, c, "verification")

	require.NoError(t, os.Remove(filepath.Join(work, "a.txt")))
	mustGit(t, work, "add", "-A")
	mustGit(t, work, "commit", "-m", "third")
	third := strings.TrimSpace(mustGit(t, work, "rev-parse", "HEAD"))
	mustGit(t, work, "push", remote, "main")
	p = next()
	assert.Equal(t, float64(1), p["total_commits"])
	commits = p["commits"].([]any)
	require.Len(t, commits, 1)
	assert.Equal(t, third, commits[0].(map[string]any)["id"])
	assert.Equal(t, []any{"a.txt"}, commits[0].(map[string]any)["removed"])
	assert.Equal(t, third, p["head_commit"].(map[string]any)["id"])
}
