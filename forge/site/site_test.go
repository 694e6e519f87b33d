package site_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge/hooks"
	"github.com/hearthforge/hearth/forge/site"
	"github.com/hearthforge/hearth/storage/gitstore"
)

func TestNewRequiresGit(t *testing.T) {
	t.Parallel()
	_, err := site.New(t.Context(), site.Config{})
	assert.Error(t, err)
}

// TestSiteOnMemory: a Config with only Git (and a loopback webhook policy)
// is a working forge on the memory store: the API answers, a commit made
// through the contents API reaches a webhook receiver through the outbox
// and the delivery worker, and Run returns once ctx ends, every worker
// stopped.
func TestSiteOnMemory(t *testing.T) {
	t.Parallel()
	git, err := gitstore.Open(t.TempDir())
	require.NoError(t, err)
	t.Cleanup(func() { git.Close() })
	policy, err := hooks.ParseAddressPolicy([]string{"loopback"})
	require.NoError(t, err)
	s, err := site.New(t.Context(), site.Config{Git: git, WebhookPolicy: policy})
	require.NoError(t, err)
	no := false
	_, err = s.Auth().EnsureAdmin(t.Context(), auth.CreateUserOptions{Name: "root", Email: "root@example.com",
		Password: "root-password-1", MustChangePassword: &no})
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- s.Run(ctx) }()
	srv := httptest.NewServer(s.Handler())
	t.Cleanup(srv.Close)

	call := func(method, path string, body any, want int) {
		t.Helper()
		data, _ := json.Marshal(body)
		req, _ := http.NewRequest(method, srv.URL+path, bytes.NewReader(data))
		req.Header.Set("Content-Type", "application/json")
		req.SetBasicAuth("root", "root-password-1")
		res, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		raw, _ := io.ReadAll(res.Body)
		res.Body.Close()
		require.Equal(t, want, res.StatusCode, "%s %s: %s", method, path, raw)
	}
	call("GET", "/api/v1/version", nil, http.StatusOK)
	events := make(chan string, 8)
	recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		events <- r.Header.Get("X-Forgejo-Event")
	}))
	t.Cleanup(recv.Close)
	call("POST", "/api/v1/user/repos", map[string]any{"name": "r", "auto_init": true}, http.StatusCreated)
	call("POST", "/api/v1/repos/root/r/hooks", map[string]any{"type": "forgejo", "active": true, "events": []string{"push"},
		"config": map[string]string{"url": recv.URL, "content_type": "json"}}, http.StatusCreated)
	call("POST", "/api/v1/repos/root/r/contents/a.txt", map[string]any{"content": "YQo=", "message": "add a"}, http.StatusCreated)
	select {
	case e := <-events:
		assert.Equal(t, "push", e)
	case <-time.After(time.Minute):
		t.Fatal("no webhook delivered")
	}

	cancel()
	select {
	case err := <-done:
		assert.NoError(t, err)
	case <-time.After(time.Minute):
		t.Fatal("Run did not return after its context ended")
	}
}
