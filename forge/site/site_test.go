package site_test

import (
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge/hooks"
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
	createRootRepo(t, s, "r")
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
	createRootRepo(t, s, "r")
	require.NotNil(t, s.LFS(), "Dir gives blobs, so LFS is on")
	require.NoError(t, s.Close())
	for _, p := range []string{"hearth.db", "git", "blobs"} {
		_, err := os.Stat(filepath.Join(dir, p))
		assert.NoError(t, err, p)
	}

	again, err := site.New(t.Context(), site.Config{Dir: dir})
	require.NoError(t, err)
	t.Cleanup(func() { again.Close() })
	root, err := again.Auth().Authenticate(t.Context(), auth.Credentials{Basic: true, Username: "root", Password: rootPassword})
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
	e := startSite(t, site.Config{Git: git, WebhookPolicy: policy})
	e.call("GET", "/version", nil, http.StatusOK)
	url, deliveries := receiver(t)
	e.call("POST", "/user/repos", map[string]any{"name": "r", "auto_init": true}, http.StatusCreated)
	e.call("POST", "/repos/root/r/hooks", map[string]any{"type": "forgejo", "active": true, "events": []string{"push"},
		"config": map[string]string{"url": url, "content_type": "json"}}, http.StatusCreated)
	e.call("POST", "/repos/root/r/contents/a.txt", map[string]any{"content": "YQo=", "message": "add a"}, http.StatusCreated)
	select {
	case d := <-deliveries:
		assert.Equal(t, "push", d.event)
	case <-time.After(time.Minute):
		t.Fatal("no webhook delivered")
	}
	// startSite's clean-up requires Run to return nil once ctx ends.
}
