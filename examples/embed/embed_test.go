package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEmbeddedHost: the host's own route, the API and git's smart HTTP
// all answer on one mux, and the embedded forge's workers run: a git push
// (the real git client) delivers a webhook to a loopback receiver, a
// mention creates a notification, and a pull mirror of another repository
// of the same server syncs.
func TestEmbeddedHost(t *testing.T) {
	t.Parallel()
	h, forge, err := handler(context.Background(), t.TempDir(), true)
	require.NoError(t, err)
	t.Cleanup(func() { forge.Close() })
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- forge.Run(ctx) }()
	t.Cleanup(func() { stop(); assert.NoError(t, <-done) })
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	call := func(user, pass, method, path string, body any, want int) map[string]any {
		t.Helper()
		data, _ := json.Marshal(body)
		req, _ := http.NewRequest(method, srv.URL+path, bytes.NewReader(data))
		req.Header.Set("Content-Type", "application/json")
		req.SetBasicAuth(user, pass)
		res, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer res.Body.Close()
		raw, _ := io.ReadAll(res.Body)
		require.Equal(t, want, res.StatusCode, "%s %s: %s", method, path, raw)
		var out map[string]any
		if len(raw) > 0 && raw[0] == '{' {
			require.NoError(t, json.Unmarshal(raw, &out))
		}
		return out
	}
	host := func(method, path string, body any, want int) map[string]any {
		t.Helper()
		return call("host", "change-me-please", method, path, body, want)
	}
	waitFor := func(what string, ok func() bool) {
		t.Helper()
		deadline := time.Now().Add(time.Minute)
		for !ok() {
			require.True(t, time.Now().Before(deadline), "never: %s", what)
			time.Sleep(20 * time.Millisecond) // polling with a deadline
		}
	}

	res, err := http.Get(srv.URL + "/healthz")
	require.NoError(t, err)
	res.Body.Close()
	assert.Equal(t, http.StatusOK, res.StatusCode)

	// A loopback receiver of the repository's push webhook.
	pushes := make(chan string, 16)
	recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var p struct{ After string }
		json.NewDecoder(r.Body).Decode(&p)
		if r.Header.Get("X-Forgejo-Event") == "push" {
			pushes <- p.After
		}
	}))
	t.Cleanup(recv.Close)
	host("POST", "/api/v1/user/repos", map[string]any{"name": "site", "auto_init": true}, http.StatusCreated)
	host("POST", "/api/v1/repos/host/site/hooks", map[string]any{"type": "forgejo", "active": true, "events": []string{"push"},
		"config": map[string]string{"url": recv.URL, "content_type": "json"}}, http.StatusCreated)

	// A push with the real git client delivers the webhook.
	dir := t.TempDir()
	git := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_TERMINAL_PROMPT=0", "GIT_CONFIG_NOSYSTEM=1", "HOME="+dir,
			"GIT_AUTHOR_NAME=host", "GIT_AUTHOR_EMAIL=host@example.com", "GIT_COMMITTER_NAME=host", "GIT_COMMITTER_EMAIL=host@example.com")
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "git %v: %s", args, out)
		return strings.TrimSpace(string(out))
	}
	git("clone", "-q", strings.Replace(srv.URL, "http://", "http://host:change-me-please@", 1)+"/host/site.git", "site")
	_, err = os.Stat(filepath.Join(dir, "site", "README.md"))
	require.NoError(t, err, "the clone has the initial README")
	dir = filepath.Join(dir, "site")
	require.NoError(t, os.WriteFile(filepath.Join(dir, "page.txt"), []byte("hello\n"), 0o600))
	git("add", "page.txt")
	git("commit", "-q", "-m", "add a page")
	head := git("rev-parse", "HEAD")
	git("push", "-q", "origin", "HEAD")
	select {
	case after := <-pushes:
		assert.Equal(t, head, after, "the push webhook names the pushed commit")
	case <-time.After(time.Minute):
		t.Fatal("no push webhook delivered")
	}

	// A mention in an issue notifies the user mentioned.
	host("POST", "/api/v1/admin/users", map[string]any{"username": "bob", "email": "bob@example.com",
		"password": "bob-password-1", "must_change_password": false}, http.StatusCreated)
	host("POST", "/api/v1/repos/host/site/issues", map[string]any{"title": "review", "body": "@bob please look"}, http.StatusCreated)
	waitFor("bob notified", func() bool {
		req, _ := http.NewRequest("GET", srv.URL+"/api/v1/notifications", nil)
		req.SetBasicAuth("bob", "bob-password-1")
		res, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer res.Body.Close()
		var list []map[string]any
		json.NewDecoder(res.Body).Decode(&list)
		return res.StatusCode == http.StatusOK && len(list) == 1
	})

	// A pull mirror of host/site, from the same server (loopback, allowed
	// by local), syncs the commit pushed after it was made.
	host("POST", "/api/v1/repos/migrate", map[string]any{"clone_addr": srv.URL + "/host/site.git", "repo_name": "mirror",
		"mirror": true}, http.StatusCreated)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "page.txt"), []byte("hello again\n"), 0o600))
	git("commit", "-q", "-am", "edit the page")
	head = git("rev-parse", "HEAD")
	git("push", "-q", "origin", "HEAD")
	host("POST", "/api/v1/repos/host/mirror/mirror-sync", nil, http.StatusOK)
	waitFor("the mirror synced", func() bool {
		b := host("GET", "/api/v1/repos/host/mirror/branches/main", nil, http.StatusOK)
		c, _ := b["commit"].(map[string]any)
		return c["id"] == head
	})
}

// TestREADMEShowsThisProgram: the README's embedding section is this
// program's handler, word for word.
func TestREADMEShowsThisProgram(t *testing.T) {
	t.Parallel()
	src, err := os.ReadFile("serve.go")
	require.NoError(t, err)
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	require.NoError(t, err)
	start := bytes.Index(src, []byte("func handler("))
	end := bytes.Index(src[start:], []byte("\n}\n"))
	require.True(t, start >= 0 && end > 0)
	fn := string(src[start : start+end+2])
	assert.Contains(t, string(readme), "```go\n"+fn+"\n```\n", "README.md must show examples/embed/serve.go's handler as it is, in a closed Go block")
}
