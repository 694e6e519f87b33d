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

	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge/site"
)

// TestScheduledMergeOnStatus: a pull request scheduled to merge when its
// checks succeed (merge_when_checks_succeed while the required "ci"
// status is pending) is merged by the running forge once a success status
// for its head arrives: the status reaches the scheduled merges through
// the outbox, as Forgejo's automerge does on a commit status.
func TestScheduledMergeOnStatus(t *testing.T) {
	t.Parallel()
	s, err := site.New(t.Context(), site.Config{})
	require.NoError(t, err)
	t.Cleanup(func() { s.Close() })
	no := false
	_, err = s.Auth().EnsureAdmin(t.Context(), auth.CreateUserOptions{Name: "root", Email: "root@example.com",
		Password: "root-password-1", MustChangePassword: &no})
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- s.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done })
	srv := httptest.NewServer(s.Handler())
	t.Cleanup(srv.Close)
	call := func(method, path string, body any, want int) map[string]any {
		t.Helper()
		data, _ := json.Marshal(body)
		req, _ := http.NewRequest(method, srv.URL+"/api/v1"+path, bytes.NewReader(data))
		req.Header.Set("Content-Type", "application/json")
		req.SetBasicAuth("root", "root-password-1")
		res, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		raw, _ := io.ReadAll(res.Body)
		res.Body.Close()
		require.Equal(t, want, res.StatusCode, "%s %s: %s", method, path, raw)
		var out map[string]any
		if len(raw) > 0 && raw[0] == '{' {
			require.NoError(t, json.Unmarshal(raw, &out))
		}
		return out
	}
	call("POST", "/user/repos", map[string]any{"name": "r", "auto_init": true}, http.StatusCreated)
	call("POST", "/repos/root/r/branch_protections", map[string]any{"rule_name": "main",
		"enable_status_check": true, "status_check_contexts": []string{"ci"}}, http.StatusCreated)
	call("POST", "/repos/root/r/contents/b.txt", map[string]any{"content": "Ygo=", "message": "add b",
		"new_branch": "b1"}, http.StatusCreated)
	pull := call("POST", "/repos/root/r/pulls", map[string]any{"head": "b1", "base": "main", "title": "wait for ci"},
		http.StatusCreated)
	head := pull["head"].(map[string]any)["sha"].(string)
	call("POST", "/repos/root/r/statuses/"+head, map[string]any{"state": "pending", "context": "ci"}, http.StatusCreated)
	call("POST", "/repos/root/r/pulls/1/merge", map[string]any{"Do": "merge", "merge_when_checks_succeed": true},
		http.StatusCreated)
	require.Equal(t, false, call("GET", "/repos/root/r/pulls/1", nil, http.StatusOK)["merged"])

	call("POST", "/repos/root/r/statuses/"+head, map[string]any{"state": "success", "context": "ci"}, http.StatusCreated)
	deadline := time.Now().Add(time.Minute)
	for call("GET", "/repos/root/r/pulls/1", nil, http.StatusOK)["merged"] != true {
		if time.Now().After(deadline) {
			t.Fatal("the scheduled merge did not happen after the success status")
		}
		time.Sleep(20 * time.Millisecond)
	}
}
