package gitstore

import (
	"bytes"
	"compress/gzip"
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
)

func newHTTPStore(t *testing.T) *Store {
	t.Helper()
	s, err := Open(t.TempDir())
	require.NoError(t, err)
	require.NoError(t, s.Create(context.Background(), 1, forge.SHA1, "main"))
	return s
}

func TestServeGitRPCRefusals(t *testing.T) {
	t.Parallel()
	s := newHTTPStore(t)
	h := HTTP{Store: s, MaxFetchBytes: 1024, MaxPushBytes: 1024}

	do := func(method, target, ctype string, body []byte, gz bool, fn func(w http.ResponseWriter, r *http.Request)) *httptest.ResponseRecorder {
		if gz {
			var b bytes.Buffer
			zw := gzip.NewWriter(&b)
			zw.Write(body)
			zw.Close()
			body = b.Bytes()
		}
		r := httptest.NewRequest(method, target, bytes.NewReader(body))
		if ctype != "" {
			r.Header.Set("Content-Type", ctype)
		}
		if gz {
			r.Header.Set("Content-Encoding", "gzip")
		}
		w := httptest.NewRecorder()
		fn(w, r)
		return w
	}
	rpc := func(service string, advertise bool) func(w http.ResponseWriter, r *http.Request) {
		return func(w http.ResponseWriter, r *http.Request) { h.ServeGitRPC(w, r, 1, service, advertise, "", nil) }
	}
	legacy := func(subpath string) func(w http.ResponseWriter, r *http.Request) {
		return func(w http.ResponseWriter, r *http.Request) { h.ServeGit(w, r, 1, subpath, "") }
	}

	// Only the two smart services run.
	for _, svc := range []string{"git-upload-archive", "", "../config", "upload-pack"} {
		assert.Equal(t, 403, do("GET", "/x/info/refs", "", nil, false, rpc(svc, true)).Code, svc)
	}
	// A gzip bomb of "have" lines to upload-pack is cut at the limit.
	bomb := bytes.Repeat([]byte("0032have "+strings.Repeat("a", 40)+"\n"), 10000)
	w := do("POST", "/x/git-upload-pack", "application/x-git-upload-pack-request", bomb, true, rpc("git-upload-pack", false))
	assert.Equal(t, 413, w.Code, w.Body.String())
	w = do("POST", "/x/git-upload-pack", "application/x-git-upload-pack-request", bomb, false, rpc("git-upload-pack", false))
	assert.Equal(t, 413, w.Code, "announced length over the limit")
	w = do("POST", "/x/git-receive-pack", "application/x-git-receive-pack-request", bomb, true, rpc("git-receive-pack", false))
	assert.Equal(t, 413, w.Code, w.Body.String())
	// The content type must name the service.
	w = do("POST", "/x/git-upload-pack", "application/x-git-receive-pack-request", []byte("0000"), false, rpc("git-upload-pack", false))
	assert.Equal(t, 415, w.Code)
	// The legacy entry point runs one service: disagreeing values, the dumb
	// protocol and other paths are refused.
	for _, tc := range []struct{ target, subpath string }{
		{"/x/info/refs?service=git-upload-pack&service=git-receive-pack", "/info/refs"},
		{"/x/info/refs", "/info/refs"},
		{"/x/git-upload-pack?service=git-receive-pack", "/git-upload-pack"},
		{"/x/HEAD", "/HEAD"},
		{"/x/objects/info/packs", "/objects/info/packs"},
	} {
		assert.Equal(t, 403, do("GET", tc.target, "", nil, false, legacy(tc.subpath)).Code, tc.target)
	}
	w = do("GET", "/x/info/refs?service=git-upload-pack&service=git-upload-pack", "", nil, false, legacy("/info/refs"))
	assert.Equal(t, 200, w.Code)
	assert.True(t, strings.HasPrefix(w.Body.String(), "001e# service=git-upload-pack\n0000"), w.Body.String())
	assert.Equal(t, "application/x-git-upload-pack-advertisement", w.Header().Get("Content-Type"))
	// A missing repository.
	w = httptest.NewRecorder()
	h.ServeGitRPC(w, httptest.NewRequest("GET", "/x/info/refs", nil), 2, "git-upload-pack", true, "", nil)
	assert.Equal(t, 404, w.Code)
}

func TestHooksWrittenOnce(t *testing.T) {
	t.Parallel()
	s := newHTTPStore(t)
	dir, err := s.hooksDir()
	require.NoError(t, err)
	pre := filepath.Join(dir, "pre-receive")
	fi, err := os.Stat(pre)
	require.NoError(t, err)
	assert.NotZero(t, fi.Mode().Perm()&0o100, "executable")
	_, err = s.hooksDir()
	require.NoError(t, err)
	fi2, err := os.Stat(pre)
	require.NoError(t, err)
	assert.True(t, os.SameFile(fi, fi2), "an unchanged hook is not rewritten")
	// A tampered hook is restored.
	require.NoError(t, os.WriteFile(pre, []byte("#!/bin/sh\nexit 0\n"), 0o755))
	_, err = s.hooksDir()
	require.NoError(t, err)
	b, err := os.ReadFile(pre)
	require.NoError(t, err)
	assert.Equal(t, preReceiveHook, string(b))
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Len(t, entries, 2, "no temporary files left")
}
