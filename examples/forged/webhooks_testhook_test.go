package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestHookTestEndpointSendsHeadCommit: POST …/hooks/{id}/tests sends, as
// Forgejo's TestHook, a push of the default branch's head commit (before =
// after = head, one commit, the caller as pusher), to a hook whatever its
// events; ?ref= picks another commit; an inactive hook receives nothing.
func TestHookTestEndpointSendsHeadCommit(t *testing.T) {
	t.Parallel()
	type hit struct {
		path, event string
		body        map[string]any
	}
	hits := make(chan hit, 8)
	rc := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		var p map[string]any
		_ = json.Unmarshal(b, &p)
		hits <- hit{r.URL.Path, r.Header.Get("X-Forgejo-Event"), p}
	}))
	t.Cleanup(rc.Close)
	s := start(t, filepath.Join(t.TempDir(), "data"), map[string]string{
		"FORGED_ADMIN_USER": "boss", "FORGED_ADMIN_PASSWORD": "boss-password"}, "-webhook-allowed-hosts", "loopback")
	admin := call{method: "POST", path: "/api/v1/admin/users", user: "boss", pass: "boss-password",
		body: map[string]any{"username": "alice", "email": "alice@example.com", "password": "alice-password", "must_change_password": false}}
	require.Equal(t, 201, s.do(t, admin).status)
	as := func(method, path string, body any) reply {
		return s.do(t, call{method: method, path: "/api/v1" + path, body: body, user: "alice", pass: "alice-password"})
	}
	require.Equal(t, 201, as("POST", "/user/repos", map[string]any{"name": "proj", "auto_init": true}).status)
	// A second commit on another branch, for ?ref=.
	r := as("POST", "/repos/alice/proj/contents/b.txt", map[string]any{"content": "Yg==", "message": "on side", "new_branch": "side"})
	require.Equal(t, 201, r.status, "%s", r.raw)
	var created struct {
		Commit struct {
			SHA string `json:"sha"`
		} `json:"commit"`
	}
	require.NoError(t, json.Unmarshal(r.raw, &created))
	br := as("GET", "/repos/alice/proj/branches/main", nil)
	require.Equal(t, 200, br.status)
	var branch struct {
		Commit struct {
			ID string `json:"id"`
		} `json:"commit"`
	}
	require.NoError(t, json.Unmarshal(br.raw, &branch))
	head := branch.Commit.ID
	require.NotEmpty(t, head)

	hook := func(path string, active bool) string {
		r := as("POST", "/repos/alice/proj/hooks", map[string]any{"type": "forgejo", "active": active, "events": []string{"issues"},
			"config": map[string]string{"url": rc.URL + path, "content_type": "json"}})
		require.Equal(t, 201, r.status, "%s", r.raw)
		var h struct{ ID int64 }
		require.NoError(t, json.Unmarshal(r.raw, &h))
		return fmt.Sprint(h.ID)
	}
	inactive, active := hook("/inactive", false), hook("/active", true)
	next := func() hit {
		t.Helper()
		select {
		case h := <-hits:
			return h
		case <-time.After(time.Minute):
			t.Fatal("no delivery within a minute")
		}
		return hit{}
	}

	require.Equal(t, 204, as("POST", "/repos/alice/proj/hooks/"+inactive+"/tests", nil).status)
	require.Equal(t, 204, as("POST", "/repos/alice/proj/hooks/"+active+"/tests", nil).status)
	h := next()
	assert.Equal(t, "/active", h.path, "an inactive hook receives nothing")
	assert.Equal(t, "push", h.event, "a push, whatever the hook's events")
	assert.Equal(t, "refs/heads/main", h.body["ref"])
	assert.Equal(t, head, h.body["before"])
	assert.Equal(t, head, h.body["after"])
	assert.Equal(t, float64(1), h.body["total_commits"])
	commits, _ := h.body["commits"].([]any)
	require.Len(t, commits, 1)
	assert.Equal(t, head, commits[0].(map[string]any)["id"])
	assert.Equal(t, head, h.body["head_commit"].(map[string]any)["id"])
	assert.Equal(t, "alice", h.body["pusher"].(map[string]any)["login"])
	assert.Equal(t, "alice", h.body["sender"].(map[string]any)["login"])
	assert.Contains(t, h.body["compare_url"], "alice/proj/compare/"+head+"..."+head)

	// ?ref= names the commit sent (and the ref, as given). The inactive
	// hook's test, had it been queued, was delivered in an earlier pass of
	// the worker than this one: nothing came from it.
	require.Equal(t, 204, as("POST", "/repos/alice/proj/hooks/"+active+"/tests?ref=side", nil).status)
	h = next()
	assert.Equal(t, "/active", h.path, "an inactive hook receives nothing")
	assert.Equal(t, "side", h.body["ref"])
	assert.Equal(t, created.Commit.SHA, h.body["after"])
	select {
	case h := <-hits:
		t.Fatalf("unexpected delivery to %s", h.path)
	default:
	}
	assert.Equal(t, 404, as("POST", "/repos/alice/proj/hooks/"+active+"/tests?ref=nope", nil).status)
}
