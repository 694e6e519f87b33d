package site_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge/hooks"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/forge/site"
	"github.com/hearthforge/hearth/storage/gitstore"
)

// TestZeroConfig: a zero Config is a working forge that keeps nothing,
// in the manner of tsnet.Server: its git repositories live in a temporary
// directory that Close removes.
func TestZeroConfig(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp) // not parallel: where os.MkdirTemp makes the directory
	s, err := site.New(t.Context(), site.Config{})
	require.NoError(t, err)
	no := false
	_, err = s.Auth().EnsureAdmin(t.Context(), auth.CreateUserOptions{Name: "root", Email: "root@example.com",
		Password: "root-password-1", MustChangePassword: &no})
	require.NoError(t, err)
	root, err := s.Auth().Authenticate(t.Context(), auth.Credentials{Basic: true, Username: "root", Password: "root-password-1"})
	require.NoError(t, err)
	_, err = s.Repos().Create(t.Context(), root, "root", repos.CreateOptions{Name: "r", AutoInit: true})
	require.NoError(t, err)
	dirs, _ := filepath.Glob(filepath.Join(tmp, "hearth-site-*"))
	require.Len(t, dirs, 1, "the git repositories are in one temporary directory")
	assert.Nil(t, s.LFS(), "no Dir and no Blobs: no LFS")
	require.NoError(t, s.Close())
	_, err = os.Stat(dirs[0])
	assert.ErrorIs(t, err, os.ErrNotExist, "Close removes the temporary directory")
	assert.NoError(t, s.Close(), "a second Close does nothing")
}

// TestDirConfig: a Config with only Dir keeps the forge there (SQLite,
// git, blobs): a repository made before Close is found by a Site opened
// on the same directory.
func TestDirConfig(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	s, err := site.New(t.Context(), site.Config{Dir: dir})
	require.NoError(t, err)
	no := false
	_, err = s.Auth().EnsureAdmin(t.Context(), auth.CreateUserOptions{Name: "root", Email: "root@example.com",
		Password: "root-password-1", MustChangePassword: &no})
	require.NoError(t, err)
	root, err := s.Auth().Authenticate(t.Context(), auth.Credentials{Basic: true, Username: "root", Password: "root-password-1"})
	require.NoError(t, err)
	_, err = s.Repos().Create(t.Context(), root, "root", repos.CreateOptions{Name: "r", AutoInit: true})
	require.NoError(t, err)
	require.NotNil(t, s.LFS(), "Dir gives blobs, so LFS is on")
	require.NoError(t, s.Close())
	for _, p := range []string{"hearth.db", "git", "blobs"} {
		_, err := os.Stat(filepath.Join(dir, p))
		assert.NoError(t, err, p)
	}

	again, err := site.New(t.Context(), site.Config{Dir: dir})
	require.NoError(t, err)
	t.Cleanup(func() { again.Close() })
	root, err = again.Auth().Authenticate(t.Context(), auth.Credentials{Basic: true, Username: "root", Password: "root-password-1"})
	require.NoError(t, err)
	r, err := again.Repos().Get(t.Context(), root, "root", "r")
	require.NoError(t, err)
	assert.Equal(t, "r", r.Repo.Name)
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
