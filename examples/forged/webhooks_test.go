package main

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestWebhookOnPush: forged started with -webhook-allowed-hosts loopback
// delivers a git push to a repository hook's receiver on 127.0.0.1,
// signed, through its worker.
func TestWebhookOnPush(t *testing.T) {
	t.Parallel()
	type hit struct {
		event string
		sig   string
		body  []byte
	}
	hits := make(chan hit, 8)
	rc := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		hits <- hit{r.Header.Get("X-Forgejo-Event"), r.Header.Get("X-Forgejo-Signature"), b}
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
		"config": map[string]string{"url": rc.URL + "/in", "content_type": "json", "secret": "shh"}}
	r := s.do(t, alice)
	require.Equal(t, 201, r.status, "%s", r.raw)

	work := t.TempDir()
	mustGit(t, work, "init", ".")
	require.NoError(t, os.WriteFile(filepath.Join(work, "a.txt"), []byte("a\n"), 0o644))
	mustGit(t, work, "add", ".")
	mustGit(t, work, "commit", "-m", "first")
	head := strings.TrimSpace(mustGit(t, work, "rev-parse", "HEAD"))
	mustGit(t, work, "push", "http://alice:alice-password@"+strings.TrimPrefix(s.url, "http://")+"/alice/proj.git", "main")

	select {
	case h := <-hits:
		assert.Equal(t, "push", h.event)
		m := hmac.New(sha256.New, []byte("shh"))
		m.Write(h.body)
		assert.Equal(t, hex.EncodeToString(m.Sum(nil)), h.sig)
		var p map[string]any
		require.NoError(t, json.Unmarshal(h.body, &p))
		assert.Equal(t, "refs/heads/main", p["ref"])
		assert.Equal(t, head, p["after"])
		assert.Equal(t, "alice/proj", p["repository"].(map[string]any)["full_name"])
	case <-time.After(2 * time.Minute):
		t.Fatal("no webhook delivery within 2m")
	}
}

// TestWebhookAllowedHostsFlag: a bad -webhook-allowed-hosts is refused.
func TestWebhookAllowedHostsFlag(t *testing.T) {
	t.Parallel()
	_, err := parseFlags([]string{"-webhook-allowed-hosts", "[bad"}, func(string) string { return "" }, io.Discard)
	assert.ErrorContains(t, err, "-webhook-allowed-hosts")
	o, err := parseFlags([]string{"-webhook-allowed-hosts", "loopback"}, func(string) string { return "" }, io.Discard)
	require.NoError(t, err)
	assert.True(t, o.webhookPolicy.AllowsAddr(netip.MustParseAddr("127.0.0.1")))
	o, err = parseFlags(nil, func(string) string { return "" }, io.Discard)
	require.NoError(t, err)
	assert.False(t, o.webhookPolicy.AllowsAddr(netip.MustParseAddr("127.0.0.1")), "loopback is refused by default")
}
