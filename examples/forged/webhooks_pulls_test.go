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

// TestWebhookPullRequest: a pull request opened and merged through the
// API reaches a pull_request_only hook's loopback receiver as Forgejo's
// PullRequestPayload ("opened", then "closed" with merged true and its
// merge commit), with its head and base.
func TestWebhookPullRequest(t *testing.T) {
	t.Parallel()
	type hit struct {
		event string
		body  map[string]any
	}
	hits := make(chan hit, 8)
	rc := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		var p map[string]any
		_ = json.Unmarshal(b, &p)
		hits <- hit{r.Header.Get("X-Forgejo-Event"), p}
	}))
	t.Cleanup(rc.Close)
	s := start(t, filepath.Join(t.TempDir(), "data"), map[string]string{
		"FORGED_ADMIN_USER": "boss", "FORGED_ADMIN_PASSWORD": "boss-password"}, "-webhook-allowed-hosts", "loopback")
	r := s.do(t, call{method: "POST", path: "/api/v1/admin/users", user: "boss", pass: "boss-password",
		body: map[string]any{"username": "alice", "email": "alice@example.com", "password": "alice-password", "must_change_password": false}})
	require.Equal(t, 201, r.status, "%s", r.raw)
	alice := call{user: "alice", pass: "alice-password"}
	do := func(method, path string, body map[string]any) reply {
		c := alice
		c.method, c.path, c.body = method, path, body
		return s.do(t, c)
	}
	r = do("POST", "/api/v1/user/repos", map[string]any{"name": "proj"})
	require.Equal(t, 201, r.status, "%s", r.raw)
	r = do("POST", "/api/v1/repos/alice/proj/hooks", map[string]any{"type": "forgejo", "active": true,
		"events": []string{"pull_request_only"}, "config": map[string]string{"url": rc.URL + "/in", "content_type": "json"}})
	require.Equal(t, 201, r.status, "%s", r.raw)

	remote := "http://alice:alice-password@" + strings.TrimPrefix(s.url, "http://") + "/alice/proj.git"
	work := t.TempDir()
	mustGit(t, work, "init", ".")
	require.NoError(t, os.WriteFile(filepath.Join(work, "a.txt"), []byte("a\n"), 0o644))
	mustGit(t, work, "add", ".")
	mustGit(t, work, "commit", "-m", "init")
	mustGit(t, work, "push", remote, "main")
	mustGit(t, work, "checkout", "-b", "b1")
	require.NoError(t, os.WriteFile(filepath.Join(work, "b.txt"), []byte("b\n"), 0o644))
	mustGit(t, work, "add", ".")
	mustGit(t, work, "commit", "-m", "b1")
	mustGit(t, work, "push", remote, "b1")
	head := strings.TrimSpace(mustGit(t, work, "rev-parse", "HEAD"))

	next := func() hit {
		t.Helper()
		select {
		case h := <-hits:
			return h
		case <-time.After(2 * time.Minute):
			t.Fatal("no webhook delivery within 2m")
			return hit{}
		}
	}
	r = do("POST", "/api/v1/repos/alice/proj/pulls", map[string]any{"head": "b1", "base": "main", "title": "b1 into main"})
	require.Equal(t, 201, r.status, "%s", r.raw)
	h := next()
	assert.Equal(t, "pull_request", h.event)
	assert.Equal(t, "opened", h.body["action"])
	assert.EqualValues(t, 1, h.body["number"])
	pr, ok := h.body["pull_request"].(map[string]any)
	require.True(t, ok, "%v", h.body)
	assert.Equal(t, "b1 into main", pr["title"])
	assert.Equal(t, false, pr["merged"])
	assert.Equal(t, "b1", pr["head"].(map[string]any)["ref"])
	assert.Equal(t, head, pr["head"].(map[string]any)["sha"])
	assert.Equal(t, "main", pr["base"].(map[string]any)["ref"])

	r = do("POST", "/api/v1/repos/alice/proj/pulls/1/merge", map[string]any{"Do": "merge"})
	require.Equal(t, 200, r.status, "%s", r.raw)
	h = next()
	assert.Equal(t, "pull_request", h.event)
	assert.Equal(t, "closed", h.body["action"])
	pr = h.body["pull_request"].(map[string]any)
	assert.Equal(t, true, pr["merged"])
	assert.Equal(t, "closed", pr["state"])
	sha, _ := pr["merge_commit_sha"].(string)
	assert.Len(t, sha, 40)
	assert.Equal(t, sha, h.body["commit_id"])
}
