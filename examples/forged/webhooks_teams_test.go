package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestWebhookTeamReviewRequest: a team asked to review a pull request of
// an organisation's repository is told to the hooks as review_requested
// for each member of the team but the poster, each with its member as
// requested_reviewer (Forgejo's teamReviewRequestNotify); removing the
// team's request sends nothing.
func TestWebhookTeamReviewRequest(t *testing.T) {
	t.Parallel()
	type hit struct {
		action, reviewer string
	}
	hits := make(chan hit, 8)
	rc := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		var p struct {
			Action   string `json:"action"`
			Reviewer *struct {
				Login string `json:"login"`
			} `json:"requested_reviewer"`
		}
		_ = json.Unmarshal(b, &p)
		h := hit{action: p.Action}
		if p.Reviewer != nil {
			h.reviewer = p.Reviewer.Login
		}
		hits <- h
	}))
	t.Cleanup(rc.Close)
	s := start(t, filepath.Join(t.TempDir(), "data"), map[string]string{
		"FORGED_ADMIN_USER": "boss", "FORGED_ADMIN_PASSWORD": "boss-password"}, "-webhook-allowed-hosts", "loopback")
	for _, u := range []string{"alice", "bob", "carol"} {
		r := s.do(t, call{method: "POST", path: "/api/v1/admin/users", user: "boss", pass: "boss-password",
			body: map[string]any{"username": u, "email": u + "@example.com", "password": u + "-password", "must_change_password": false}})
		require.Equal(t, 201, r.status, "%s", r.raw)
	}
	as := func(method, path string, body any) reply {
		t.Helper()
		return s.do(t, call{method: method, path: path, body: body, user: "alice", pass: "alice-password"})
	}
	r := as("POST", "/api/v1/orgs", map[string]any{"username": "acme"})
	require.Equal(t, 201, r.status, "%s", r.raw)
	r = as("POST", "/api/v1/orgs/acme/repos", map[string]any{"name": "p"})
	require.Equal(t, 201, r.status, "%s", r.raw)
	r = as("POST", "/api/v1/orgs/acme/teams", map[string]any{"name": "rev", "permission": "write",
		"units": []string{"repo.code", "repo.pulls"}, "includes_all_repositories": true})
	require.Equal(t, 201, r.status, "%s", r.raw)
	team := fmt.Sprint(r.body["id"])
	for _, u := range []string{"bob", "carol"} {
		r = as("PUT", "/api/v1/teams/"+team+"/members/"+u, nil)
		require.Equal(t, 204, r.status, "%s", r.raw)
	}
	remote := "http://alice:alice-password@" + strings.TrimPrefix(s.url, "http://") + "/acme/p.git"
	work := t.TempDir()
	mustGit(t, work, "init", "-b", "main", ".")
	require.NoError(t, os.WriteFile(filepath.Join(work, "a.txt"), []byte("a\n"), 0o644))
	mustGit(t, work, "add", ".")
	mustGit(t, work, "commit", "-m", "init")
	mustGit(t, work, "push", remote, "main")
	mustGit(t, work, "checkout", "-b", "b1")
	require.NoError(t, os.WriteFile(filepath.Join(work, "b.txt"), []byte("b\n"), 0o644))
	mustGit(t, work, "add", ".")
	mustGit(t, work, "commit", "-m", "b1")
	mustGit(t, work, "push", remote, "b1")
	r = as("POST", "/api/v1/repos/acme/p/pulls", map[string]any{"head": "b1", "base": "main", "title": "b1"})
	require.Equal(t, 201, r.status, "%s", r.raw)
	r = as("POST", "/api/v1/repos/acme/p/hooks", map[string]any{"type": "forgejo", "active": true,
		"events": []string{"pull_request_review_request"}, "config": map[string]string{"url": rc.URL, "content_type": "json"}})
	require.Equal(t, 201, r.status, "%s", r.raw)

	r = as("POST", "/api/v1/repos/acme/p/pulls/1/requested_reviewers", map[string]any{"team_reviewers": []string{"rev"}})
	require.Equal(t, 201, r.status, "%s", r.raw)
	got := map[string]string{}
	for range 2 {
		select {
		case h := <-hits:
			got[h.reviewer] = h.action
		case <-time.After(2 * time.Minute):
			t.Fatalf("%d of 2 deliveries within 2m: %v", len(got), got)
		}
	}
	assert.Equal(t, map[string]string{"bob": "review_requested", "carol": "review_requested"}, got)
	// A user request after the team's removal: the next delivery is it.
	r = as("DELETE", "/api/v1/repos/acme/p/pulls/1/requested_reviewers", map[string]any{"team_reviewers": []string{"rev"}})
	require.Equal(t, 204, r.status, "%s", r.raw)
	r = as("POST", "/api/v1/repos/acme/p/pulls/1/requested_reviewers", map[string]any{"reviewers": []string{"bob"}})
	require.Equal(t, 201, r.status, "%s", r.raw)
	select {
	case h := <-hits:
		assert.Equal(t, hit{"review_requested", "bob"}, h)
	case <-time.After(2 * time.Minute):
		t.Fatal("no delivery within 2m")
	}
}
