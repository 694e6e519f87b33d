package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPullRequestsWired: the server serves pull requests and hears pushes
// for them. alice pushes main and b1 with the git CLI, opens a pull
// request, pushes b1 again (the pull request's head follows: the push
// consumer of ref moves is wired), and merges it with delete_branch_after_merge.
func TestPullRequestsWired(t *testing.T) {
	t.Parallel()
	s := start(t, filepath.Join(t.TempDir(), "data"), map[string]string{
		"FORGED_ADMIN_USER": "boss", "FORGED_ADMIN_PASSWORD": "boss-password"})
	r := s.do(t, call{method: "POST", path: "/api/v1/admin/users", user: "boss", pass: "boss-password",
		body: map[string]any{"username": "alice", "email": "alice@example.com", "password": "alice-password", "must_change_password": false}})
	require.Equal(t, 201, r.status, "%s", r.raw)
	r = s.do(t, call{method: "POST", path: "/api/v1/users/alice/tokens", user: "alice", pass: "alice-password",
		body: map[string]any{"name": "pulls", "scopes": []string{"write:repository", "write:user", "write:issue"}}})
	require.Equal(t, 201, r.status, "%s", r.raw)
	tok := r.body["sha1"].(string)
	auth := map[string]string{"Authorization": "token " + tok}
	r = s.do(t, call{method: "POST", path: "/api/v1/user/repos", header: auth, body: map[string]any{"name": "proj"}})
	require.Equal(t, 201, r.status, "%s", r.raw)
	remote := "http://alice:" + tok + "@" + strings.TrimPrefix(s.url, "http://") + "/alice/proj.git"

	work := t.TempDir()
	write := func(name, content string) {
		require.NoError(t, os.WriteFile(filepath.Join(work, name), []byte(content), 0o644))
	}
	mustGit(t, work, "init", ".")
	write("a.txt", "a\n")
	mustGit(t, work, "add", ".")
	mustGit(t, work, "commit", "-m", "init")
	mustGit(t, work, "push", remote, "main")
	mustGit(t, work, "checkout", "-b", "b1")
	write("b.txt", "b\n")
	mustGit(t, work, "add", ".")
	mustGit(t, work, "commit", "-m", "b1")
	mustGit(t, work, "push", remote, "b1")

	r = s.do(t, call{method: "POST", path: "/api/v1/repos/alice/proj/pulls", header: auth,
		body: map[string]any{"head": "b1", "base": "main", "title": "b1 into main"}})
	require.Equal(t, 201, r.status, "%s", r.raw)
	assert.EqualValues(t, 1, r.body["number"])

	write("b.txt", "b\nmore\n")
	mustGit(t, work, "commit", "-am", "more")
	mustGit(t, work, "push", remote, "b1")
	head := strings.TrimSpace(mustGit(t, work, "rev-parse", "HEAD"))
	// The pull request follows once the outbox's consumer ran.
	waitFor(t, "the push moved the pull request", func() bool {
		r = s.do(t, call{method: "GET", path: "/api/v1/repos/alice/proj/pulls/1", header: auth})
		require.Equal(t, 200, r.status, "%s", r.raw)
		return r.body["head"].(map[string]any)["sha"] == head
	})

	r = s.do(t, call{method: "POST", path: "/api/v1/repos/alice/proj/pulls/1/merge", header: auth,
		body: map[string]any{"Do": "merge", "delete_branch_after_merge": true}})
	require.Equal(t, 200, r.status, "%s", r.raw)
	r = s.do(t, call{method: "GET", path: "/api/v1/repos/alice/proj/pulls/1", header: auth})
	assert.Equal(t, true, r.body["merged"])
	r = s.do(t, call{method: "GET", path: "/api/v1/repos/alice/proj/branches/b1", header: auth})
	assert.Equal(t, 404, r.status, "the head branch is deleted")
}
