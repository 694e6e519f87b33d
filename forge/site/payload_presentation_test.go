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
)

// TestPayloadRepositoryPresented: the repository of a webhook payload is
// the API's repository answer, counters included: the issues event of a
// repository's first issue shows open_issues_count 1, as GET
// /repos/{owner}/{repo} does.
func TestPayloadRepositoryPresented(t *testing.T) {
	t.Parallel()
	policy, err := hooks.ParseAddressPolicy([]string{"loopback"})
	require.NoError(t, err)
	s, err := site.New(t.Context(), site.Config{WebhookPolicy: policy})
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
	bodies := make(chan []byte, 8)
	recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw, _ := io.ReadAll(r.Body)
		bodies <- raw
	}))
	t.Cleanup(recv.Close)
	call("POST", "/user/repos", map[string]any{"name": "r", "auto_init": true}, http.StatusCreated)
	call("POST", "/repos/root/r/hooks", map[string]any{"type": "forgejo", "active": true, "events": []string{"issues"},
		"config": map[string]string{"url": recv.URL, "content_type": "json"}}, http.StatusCreated)
	call("POST", "/repos/root/r/issues", map[string]any{"title": "one"}, http.StatusCreated)
	var payload struct {
		Repository map[string]any `json:"repository"`
	}
	select {
	case raw := <-bodies:
		require.NoError(t, json.Unmarshal(raw, &payload))
	case <-time.After(time.Minute):
		t.Fatal("no webhook delivered")
	}
	answer := call("GET", "/repos/root/r", nil, http.StatusOK)
	assert.EqualValues(t, 1, answer["open_issues_count"])
	assert.EqualValues(t, 1, payload.Repository["open_issues_count"], "the payload's repository shows the counters")
}
