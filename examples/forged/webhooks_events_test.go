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

// TestWebhookReleasesAndForkPulls: one server, one loopback receiver, a
// hook on release, pull_request_only and pull_request_review_request:
//   - a pull request from a fork carries head.repo (the fork) and base.sha
//     (the base branch's commit);
//   - closing and reopening it through PATCH /issues/{index} sends the
//     pull_request event (closed, reopened), not issues;
//   - requesting and removing a reviewer sends review_requested and
//     review_request_removed with requested_reviewer; requesting again a
//     reviewer already requested sends nothing;
//   - a release created sends "published", edited "updated", a draft
//     nothing until published ("published"), deleted "deleted", each
//     with Forgejo's release object;
//   - a push of a build manifest reaches a sourcehut_builds hook as
//     Forgejo's GraphQL submit, the manifest read from the pushed commit.
func TestWebhookReleasesAndForkPulls(t *testing.T) {
	t.Parallel()
	type hit struct {
		event, typ, path, auth string
		body                   map[string]any
	}
	hits := make(chan hit, 16)
	rc := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		var p map[string]any
		_ = json.Unmarshal(b, &p)
		hits <- hit{r.Header.Get("X-Forgejo-Event"), r.Header.Get("X-Forgejo-Event-Type"), r.URL.Path, r.Header.Get("Authorization"), p}
	}))
	t.Cleanup(rc.Close)
	s := start(t, filepath.Join(t.TempDir(), "data"), map[string]string{
		"FORGED_ADMIN_USER": "boss", "FORGED_ADMIN_PASSWORD": "boss-password"}, "-webhook-allowed-hosts", "loopback")
	for _, u := range []string{"alice", "bob", "carol"} {
		r := s.do(t, call{method: "POST", path: "/api/v1/admin/users", user: "boss", pass: "boss-password",
			body: map[string]any{"username": u, "email": u + "@example.com", "password": u + "-password", "must_change_password": false}})
		require.Equal(t, 201, r.status, "%s", r.raw)
	}
	as := func(user, method, path string, body any) reply {
		t.Helper()
		return s.do(t, call{method: method, path: path, body: body, user: user, pass: user + "-password"})
	}
	// A private repository: bob's fork of it is private too, and alice
	// may not see it; the payloads of her changes still show it.
	r := as("alice", "POST", "/api/v1/user/repos", map[string]any{"name": "proj", "private": true})
	require.Equal(t, 201, r.status, "%s", r.raw)
	for _, u := range []string{"bob", "carol"} {
		r = as("alice", "PUT", "/api/v1/repos/alice/proj/collaborators/"+u, map[string]any{"permission": "read"})
		require.Equal(t, 204, r.status, "%s", r.raw)
	}
	host := strings.TrimPrefix(s.url, "http://")
	work := t.TempDir()
	mustGit(t, work, "init", "-b", "main", ".")
	require.NoError(t, os.WriteFile(filepath.Join(work, "a.txt"), []byte("a\n"), 0o644))
	mustGit(t, work, "add", ".")
	mustGit(t, work, "commit", "-m", "init")
	mustGit(t, work, "push", "http://alice:alice-password@"+host+"/alice/proj.git", "main")
	base := strings.TrimSpace(mustGit(t, work, "rev-parse", "HEAD"))

	r = as("bob", "POST", "/api/v1/repos/alice/proj/forks", map[string]any{})
	require.Equal(t, 202, r.status, "%s", r.raw)
	mustGit(t, work, "checkout", "-b", "b1")
	require.NoError(t, os.WriteFile(filepath.Join(work, "b.txt"), []byte("b\n"), 0o644))
	mustGit(t, work, "add", ".")
	mustGit(t, work, "commit", "-m", "b1")
	mustGit(t, work, "push", "http://bob:bob-password@"+host+"/bob/proj.git", "b1")
	head := strings.TrimSpace(mustGit(t, work, "rev-parse", "HEAD"))

	// The hook comes last: nothing before is delivered.
	r = as("alice", "POST", "/api/v1/repos/alice/proj/hooks", map[string]any{"type": "forgejo", "active": true,
		"events": []string{"release", "pull_request_only", "pull_request_review_request"},
		"config": map[string]string{"url": rc.URL + "/in", "content_type": "json"}})
	require.Equal(t, 201, r.status, "%s", r.raw)

	next := func(event, typ, action string) map[string]any {
		t.Helper()
		select {
		case h := <-hits:
			require.Equal(t, event, h.event, "%v", h.body)
			require.Equal(t, typ, h.typ, "%v", h.body)
			require.Equal(t, action, h.body["action"], "%v", h.body)
			return h.body
		case <-time.After(2 * time.Minute):
			t.Fatalf("no %s %s delivery within 2m", event, action)
			return nil
		}
	}

	// A pull request from the fork.
	r = as("bob", "POST", "/api/v1/repos/alice/proj/pulls", map[string]any{"head": "bob:b1", "base": "main", "title": "from the fork"})
	require.Equal(t, 201, r.status, "%s", r.raw)
	p := next("pull_request", "pull_request", "opened")
	assert.Equal(t, "bob/proj", obj(t, p, "pull_request", "head", "repo")["full_name"])
	assert.Equal(t, head, obj(t, p, "pull_request", "head")["sha"])
	assert.Equal(t, "b1", obj(t, p, "pull_request", "head")["ref"])
	assert.Equal(t, base, obj(t, p, "pull_request", "base")["sha"])
	assert.Equal(t, "alice/proj", obj(t, p, "pull_request", "base", "repo")["full_name"])
	assert.Nil(t, p["requested_reviewer"])

	// Closed and reopened through the issues API.
	r = as("alice", "PATCH", "/api/v1/repos/alice/proj/issues/1", map[string]any{"state": "closed"})
	require.Equal(t, 201, r.status, "%s", r.raw)
	p = next("pull_request", "pull_request", "closed")
	assert.Equal(t, "closed", obj(t, p, "pull_request")["state"])
	assert.Equal(t, false, obj(t, p, "pull_request")["merged"])
	assert.Equal(t, "bob/proj", obj(t, p, "pull_request", "head", "repo")["full_name"])
	assert.Equal(t, "alice", obj(t, p, "sender")["login"])
	r = as("alice", "PATCH", "/api/v1/repos/alice/proj/issues/1", map[string]any{"state": "open"})
	require.Equal(t, 201, r.status, "%s", r.raw)
	p = next("pull_request", "pull_request", "reopened")
	assert.Equal(t, "open", obj(t, p, "pull_request")["state"])

	// Review requested and its request removed.
	r = as("alice", "POST", "/api/v1/repos/alice/proj/pulls/1/requested_reviewers", map[string]any{"reviewers": []string{"carol"}})
	require.Equal(t, 201, r.status, "%s", r.raw)
	p = next("pull_request", "pull_request_review_request", "review_requested")
	assert.Equal(t, "carol", obj(t, p, "requested_reviewer")["login"])
	assert.EqualValues(t, 1, p["number"])
	// Asking again for a reviewer already requested sends nothing (the
	// next delivery must be the removal).
	r = as("alice", "POST", "/api/v1/repos/alice/proj/pulls/1/requested_reviewers", map[string]any{"reviewers": []string{"carol"}})
	require.Equal(t, 201, r.status, "%s", r.raw)
	r = as("alice", "DELETE", "/api/v1/repos/alice/proj/pulls/1/requested_reviewers", map[string]any{"reviewers": []string{"carol"}})
	require.Equal(t, 204, r.status, "%s", r.raw)
	p = next("pull_request", "pull_request_review_request", "review_request_removed")
	assert.Equal(t, "carol", obj(t, p, "requested_reviewer")["login"])

	// Releases.
	r = as("alice", "POST", "/api/v1/repos/alice/proj/releases", map[string]any{"tag_name": "v1", "name": "One", "body": "first"})
	require.Equal(t, 201, r.status, "%s", r.raw)
	id1 := fmt.Sprint(r.body["id"])
	p = next("release", "release", "published")
	rel := obj(t, p, "release")
	assert.Equal(t, "v1", rel["tag_name"])
	assert.Equal(t, "One", rel["name"])
	assert.Equal(t, "first", rel["body"])
	assert.Equal(t, "main", rel["target_commitish"])
	assert.Equal(t, false, rel["draft"])
	assert.Equal(t, "alice", obj(t, rel, "author")["login"])
	assert.Equal(t, []any{}, rel["assets"])
	assert.True(t, strings.HasSuffix(rel["url"].(string), "/api/v1/repos/alice/proj/releases/"+id1), rel["url"])
	assert.True(t, strings.HasSuffix(rel["html_url"].(string), "/alice/proj/releases/tag/v1"), rel["html_url"])
	assert.Equal(t, "alice/proj", obj(t, p, "repository")["full_name"])
	assert.Equal(t, "alice", obj(t, p, "sender")["login"])

	r = as("alice", "PATCH", "/api/v1/repos/alice/proj/releases/"+id1, map[string]any{"body": "edited"})
	require.Equal(t, 200, r.status, "%s", r.raw)
	p = next("release", "release", "updated")
	assert.Equal(t, "edited", obj(t, p, "release")["body"])

	// A draft sends nothing until it is published.
	r = as("alice", "POST", "/api/v1/repos/alice/proj/releases", map[string]any{"tag_name": "v2", "draft": true})
	require.Equal(t, 201, r.status, "%s", r.raw)
	id2 := fmt.Sprint(r.body["id"])
	r = as("alice", "PATCH", "/api/v1/repos/alice/proj/releases/"+id2, map[string]any{"body": "still a draft"})
	require.Equal(t, 200, r.status, "%s", r.raw)
	r = as("alice", "PATCH", "/api/v1/repos/alice/proj/releases/"+id2, map[string]any{"draft": false})
	require.Equal(t, 200, r.status, "%s", r.raw)
	p = next("release", "release", "published")
	assert.Equal(t, "v2", obj(t, p, "release")["tag_name"])
	assert.Equal(t, "still a draft", obj(t, p, "release")["body"])

	r = as("alice", "DELETE", "/api/v1/repos/alice/proj/releases/"+id1, nil)
	require.Equal(t, 204, r.status, "%s", r.raw)
	p = next("release", "release", "deleted")
	assert.Equal(t, "v1", obj(t, p, "release")["tag_name"])

	// A deleted draft sends nothing: the next delivery is the release
	// published after it (tasks are taken in the order queued).
	r = as("alice", "POST", "/api/v1/repos/alice/proj/releases", map[string]any{"tag_name": "v3", "draft": true})
	require.Equal(t, 201, r.status, "%s", r.raw)
	r = as("alice", "DELETE", "/api/v1/repos/alice/proj/releases/"+fmt.Sprint(r.body["id"]), nil)
	require.Equal(t, 204, r.status, "%s", r.raw)
	r = as("alice", "POST", "/api/v1/repos/alice/proj/releases", map[string]any{"tag_name": "v4"})
	require.Equal(t, 201, r.status, "%s", r.raw)
	p = next("release", "release", "published")
	assert.Equal(t, "v4", obj(t, p, "release")["tag_name"])

	// sourcehut_builds: the manifest of the pushed commit, submitted.
	r = as("alice", "POST", "/api/v1/repos/alice/proj/hooks", map[string]any{"type": "sourcehut_builds", "active": true,
		"events": []string{"push"}, "authorization_header": "Bearer srht-token",
		"config": map[string]string{"url": rc.URL + "/srht", "content_type": "json", "manifest_path": ".builds/ci.yml", "visibility": "UNLISTED"}})
	require.Equal(t, 201, r.status, "%s", r.raw)
	mustGit(t, work, "checkout", "main")
	require.NoError(t, os.MkdirAll(filepath.Join(work, ".builds"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(work, ".builds", "ci.yml"), []byte("image: alpine/edge\ntasks:\n  - test: go test ./...\n"), 0o644))
	mustGit(t, work, "add", ".")
	mustGit(t, work, "commit", "-m", "ci")
	mustGit(t, work, "push", "http://alice:alice-password@"+host+"/alice/proj.git", "main")
	tip := strings.TrimSpace(mustGit(t, work, "rev-parse", "HEAD"))
	select {
	case h := <-hits:
		require.Equal(t, "/srht", h.path, "%v", h.body)
		assert.Equal(t, "Bearer srht-token", h.auth)
		assert.Empty(t, h.event)
		assert.Nil(t, h.body["error"], "%v", h.body)
		v := obj(t, h.body, "variables")
		assert.Equal(t, []any{"alice/proj", "branch/main", ".builds/ci.yml"}, v["tags"])
		assert.Equal(t, "ci", strings.TrimSpace(fmt.Sprint(v["note"])))
		assert.Equal(t, "UNLISTED", v["visibility"])
		m := fmt.Sprint(v["manifest"])
		assert.Contains(t, m, "image: alpine/edge")
		assert.Contains(t, m, "/alice/proj.git#"+tip)
		assert.Contains(t, m, "GIT_REF: refs/heads/main")
	case <-time.After(2 * time.Minute):
		t.Fatal("no sourcehut_builds delivery within 2m")
	}
}

// obj is the JSON object at path inside a webhook payload m, failing t
// when a step is missing or not an object.
func obj(t *testing.T, m map[string]any, path ...string) map[string]any {
	t.Helper()
	for _, k := range path {
		v, ok := m[k].(map[string]any)
		require.True(t, ok, "%s in %v", k, m)
		m = v
	}
	return m
}
