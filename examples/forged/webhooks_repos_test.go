package main

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestWebhookRepoCreated: a default hook the administrator made is copied
// into a repository created afterwards, and a system hook receives the
// repository event "created" of it (and "deleted" when it goes); a fork
// reaches the parent's hooks as the fork event.
func TestWebhookRepoCreated(t *testing.T) {
	t.Parallel()
	type hit struct {
		path  string
		event string
		body  []byte
	}
	hits := make(chan hit, 8)
	rc := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		hits <- hit{r.URL.Path, r.Header.Get("X-Forgejo-Event"), b}
	}))
	t.Cleanup(rc.Close)
	s := start(t, filepath.Join(t.TempDir(), "data"), map[string]string{
		"FORGED_ADMIN_USER": "boss", "FORGED_ADMIN_PASSWORD": "boss-password"}, "-webhook-allowed-hosts", "loopback")
	boss := call{method: "POST", path: "/api/v1/admin/users", user: "boss", pass: "boss-password",
		body: map[string]any{"username": "alice", "email": "alice@example.com", "password": "alice-password", "must_change_password": false}}
	require.Equal(t, 201, s.do(t, boss).status)
	boss.path = "/api/v1/admin/hooks"
	boss.body = map[string]any{"type": "forgejo", "active": true, "events": []string{"push"},
		"config": map[string]string{"url": rc.URL + "/default", "content_type": "json"}}
	r := s.do(t, boss)
	require.Equal(t, 201, r.status, "%s", r.raw)
	boss.body = map[string]any{"type": "forgejo", "active": true, "events": []string{"repository"},
		"config": map[string]string{"url": rc.URL + "/system", "content_type": "json", "is_system_webhook": "true"}}
	r = s.do(t, boss)
	require.Equal(t, 201, r.status, "%s", r.raw)

	alice := call{user: "alice", pass: "alice-password"}
	alice.method, alice.path, alice.body = "POST", "/api/v1/user/repos", map[string]any{"name": "proj"}
	require.Equal(t, 201, s.do(t, alice).status)

	// The default hook is now a hook of the repository; the system hook
	// is not.
	alice.method, alice.path, alice.body = "GET", "/api/v1/repos/alice/proj/hooks", nil
	r = s.do(t, alice)
	require.Equal(t, 200, r.status, "%s", r.raw)
	var list []map[string]any
	require.NoError(t, json.Unmarshal(r.raw, &list))
	require.Len(t, list, 1, "%s", r.raw)
	assert.Equal(t, rc.URL+"/default", list[0]["config"].(map[string]any)["url"])
	assert.Equal(t, []any{"push"}, list[0]["events"])

	expect := func(action string) {
		t.Helper()
		select {
		case h := <-hits:
			assert.Equal(t, "/system", h.path)
			assert.Equal(t, "repository", h.event)
			var p map[string]any
			require.NoError(t, json.Unmarshal(h.body, &p))
			assert.Equal(t, action, p["action"])
			assert.Equal(t, "alice/proj", p["repository"].(map[string]any)["full_name"])
			assert.Equal(t, "alice", p["sender"].(map[string]any)["login"])
		case <-time.After(2 * time.Minute):
			t.Fatalf("no %s delivery within 2m", action)
		}
	}
	expect("created")

	// A fork is the fork event of the parent's hooks.
	boss.path = "/api/v1/admin/users"
	boss.body = map[string]any{"username": "bob", "email": "bob@example.com", "password": "bob-password", "must_change_password": false}
	require.Equal(t, 201, s.do(t, boss).status)
	alice.method, alice.path = "POST", "/api/v1/repos/alice/proj/hooks"
	alice.body = map[string]any{"type": "forgejo", "active": true, "events": []string{"fork"},
		"config": map[string]string{"url": rc.URL + "/fork", "content_type": "json"}}
	r = s.do(t, alice)
	require.Equal(t, 201, r.status, "%s", r.raw)
	bob := call{method: "POST", path: "/api/v1/repos/alice/proj/forks", user: "bob", pass: "bob-password", body: map[string]any{}}
	r = s.do(t, bob)
	require.Equal(t, 202, r.status, "%s", r.raw)
	select {
	case h := <-hits:
		assert.Equal(t, "/fork", h.path)
		assert.Equal(t, "fork", h.event)
		var p map[string]any
		require.NoError(t, json.Unmarshal(h.body, &p))
		assert.Equal(t, "alice/proj", p["forkee"].(map[string]any)["full_name"])
		assert.Equal(t, "bob/proj", p["repository"].(map[string]any)["full_name"])
	case <-time.After(2 * time.Minute):
		t.Fatal("no fork delivery within 2m")
	}
	alice.body = nil

	alice.method, alice.path = "DELETE", "/api/v1/repos/alice/proj"
	require.Equal(t, 204, s.do(t, alice).status)
	expect("deleted")
}
