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

// TestWebhookIssueEdits: one server, one loopback receiver, two hooks: one
// on issues_only, issue_comment and pull_request_only ("/main"), one on
// the issue_assign, issue_label, issue_milestone and pull_request_label
// families ("/fam"). A sequence of edits of an issue and a pull request
// sends each hook only its families, in order: edited with changes
// (title, body), assigned/unassigned, label_updated/label_cleared,
// milestoned/demilestoned, comment edited (changes.body.from) and deleted.
func TestWebhookIssueEdits(t *testing.T) {
	t.Parallel()
	type hit struct {
		event, typ string
		body       map[string]any
	}
	mainHits, famHits, slackHits := make(chan hit, 32), make(chan hit, 32), make(chan hit, 32)
	rc := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		var p map[string]any
		_ = json.Unmarshal(b, &p)
		h := hit{r.Header.Get("X-Forgejo-Event"), r.Header.Get("X-Forgejo-Event-Type"), p}
		switch r.URL.Path {
		case "/fam":
			famHits <- h
		case "/slack":
			slackHits <- h
		default:
			mainHits <- h
		}
	}))
	t.Cleanup(rc.Close)
	s := start(t, filepath.Join(t.TempDir(), "data"), map[string]string{
		"FORGED_ADMIN_USER": "boss", "FORGED_ADMIN_PASSWORD": "boss-password"}, "-webhook-allowed-hosts", "loopback")
	for _, u := range []string{"alice", "bob"} {
		r := s.do(t, call{method: "POST", path: "/api/v1/admin/users", user: "boss", pass: "boss-password",
			body: map[string]any{"username": u, "email": u + "@example.com", "password": u + "-password", "must_change_password": false}})
		require.Equal(t, 201, r.status, "%s", r.raw)
	}
	as := func(method, path string, body any) reply {
		t.Helper()
		return s.do(t, call{method: method, path: path, body: body, user: "alice", pass: "alice-password"})
	}
	const repo = "/api/v1/repos/alice/proj"
	r := as("POST", "/api/v1/user/repos", map[string]any{"name": "proj"})
	require.Equal(t, 201, r.status, "%s", r.raw)
	r = as("PUT", repo+"/collaborators/bob", map[string]any{"permission": "write"})
	require.Equal(t, 204, r.status, "%s", r.raw)
	r = as("POST", repo+"/labels", map[string]any{"name": "bug", "color": "#ee0701"})
	require.Equal(t, 201, r.status, "%s", r.raw)
	label := r.body["id"]
	r = as("POST", repo+"/milestones", map[string]any{"title": "v1"})
	require.Equal(t, 201, r.status, "%s", r.raw)
	milestone := r.body["id"]
	host := strings.TrimPrefix(s.url, "http://")
	work := t.TempDir()
	mustGit(t, work, "init", "-b", "main", ".")
	require.NoError(t, os.WriteFile(filepath.Join(work, "a.txt"), []byte("a\n"), 0o644))
	mustGit(t, work, "add", ".")
	mustGit(t, work, "commit", "-m", "init")
	mustGit(t, work, "checkout", "-b", "b1")
	require.NoError(t, os.WriteFile(filepath.Join(work, "b.txt"), []byte("b\n"), 0o644))
	mustGit(t, work, "add", ".")
	mustGit(t, work, "commit", "-m", "b1")
	mustGit(t, work, "push", "http://alice:alice-password@"+host+"/alice/proj.git", "main", "b1")

	for path, events := range map[string][]string{
		"/main": {"issues_only", "issue_comment", "pull_request_only"},
		"/fam":  {"issue_assign", "issue_label", "issue_milestone", "pull_request_label"},
	} {
		r = as("POST", repo+"/hooks", map[string]any{"type": "forgejo", "active": true, "events": events,
			"config": map[string]string{"url": rc.URL + path, "content_type": "json"}})
		require.Equal(t, 201, r.status, "%s", r.raw)
	}
	r = as("POST", repo+"/hooks", map[string]any{"type": "slack", "active": true, "events": []string{"issue_assign", "issue_comment"},
		"config": map[string]string{"url": rc.URL + "/slack", "content_type": "json", "channel": "#dev"}})
	require.Equal(t, 201, r.status, "%s", r.raw)
	slackText := func() string {
		t.Helper()
		select {
		case h := <-slackHits:
			return fmt.Sprint(h.body["text"])
		case <-time.After(2 * time.Minute):
			t.Fatal("no slack delivery within 2m")
			return ""
		}
	}
	next := func(ch chan hit, event, typ, action string) map[string]any {
		t.Helper()
		select {
		case h := <-ch:
			require.Equal(t, event, h.event, "%v", h.body)
			require.Equal(t, typ, h.typ, "%v", h.body)
			require.Equal(t, action, h.body["action"], "%v", h.body)
			return h.body
		case <-time.After(2 * time.Minute):
			t.Fatalf("no %s %s delivery within 2m", typ, action)
			return nil
		}
	}

	r = as("POST", repo+"/issues", map[string]any{"title": "t1", "body": "b1"})
	require.Equal(t, 201, r.status, "%s", r.raw)
	next(mainHits, "issues", "issues", "opened")

	// Title, then body: edited with what each was.
	r = as("PATCH", repo+"/issues/1", map[string]any{"title": "t2"})
	require.Equal(t, 201, r.status, "%s", r.raw)
	p := next(mainHits, "issues", "issues", "edited")
	assert.Equal(t, map[string]any{"title": map[string]any{"from": "t1"}}, p["changes"])
	assert.Equal(t, "t2", obj(t, p, "issue")["title"])
	assert.Equal(t, "alice", obj(t, p, "sender")["login"])
	r = as("PATCH", repo+"/issues/1", map[string]any{"body": "b2"})
	require.Equal(t, 201, r.status, "%s", r.raw)
	p = next(mainHits, "issues", "issues", "edited")
	assert.Equal(t, map[string]any{"body": map[string]any{"from": "b1"}}, p["changes"])
	assert.Equal(t, "b2", obj(t, p, "issue")["body"])

	// Assignees.
	r = as("PATCH", repo+"/issues/1", map[string]any{"assignees": []string{"bob"}})
	require.Equal(t, 201, r.status, "%s", r.raw)
	p = next(famHits, "issues", "issue_assign", "assigned")
	assert.Equal(t, "bob", obj(t, p, "issue", "assignee")["login"])
	assert.Len(t, obj(t, p, "issue")["assignees"], 1)
	assert.Nil(t, p["changes"])
	assert.Contains(t, slackText(), "Issue assigned to <"+s.url+"/bob|bob>: <")
	r = as("PATCH", repo+"/issues/1", map[string]any{"assignees": []string{}})
	require.Equal(t, 201, r.status, "%s", r.raw)
	p = next(famHits, "issues", "issue_assign", "unassigned")
	// The issue is Forgejo's full object (convert.ToAPIIssue, as the
	// API answers it): assignees null when there are none.
	assert.Nil(t, obj(t, p, "issue")["assignees"])
	assert.Contains(t, slackText(), "Issue unassigned: <")

	// Labels.
	r = as("POST", repo+"/issues/1/labels", map[string]any{"labels": []any{label}})
	require.Equal(t, 200, r.status, "%s", r.raw)
	p = next(famHits, "issues", "issue_label", "label_updated")
	labels := obj(t, p, "issue")["labels"].([]any)
	require.Len(t, labels, 1)
	assert.Equal(t, "bug", labels[0].(map[string]any)["name"])
	assert.Equal(t, "ee0701", labels[0].(map[string]any)["color"])
	r = as("DELETE", repo+"/issues/1/labels", nil)
	require.Equal(t, 204, r.status, "%s", r.raw)
	p = next(famHits, "issues", "issue_label", "label_cleared")
	assert.Equal(t, []any{}, obj(t, p, "issue")["labels"])

	// Milestone.
	r = as("PATCH", repo+"/issues/1", map[string]any{"milestone": milestone})
	require.Equal(t, 201, r.status, "%s", r.raw)
	p = next(famHits, "issues", "issue_milestone", "milestoned")
	assert.Equal(t, "v1", obj(t, p, "issue", "milestone")["title"])
	r = as("PATCH", repo+"/issues/1", map[string]any{"milestone": 0})
	require.Equal(t, 201, r.status, "%s", r.raw)
	p = next(famHits, "issues", "issue_milestone", "demilestoned")
	assert.Nil(t, obj(t, p, "issue")["milestone"])

	// A comment created, edited and deleted.
	r = as("POST", repo+"/issues/1/comments", map[string]any{"body": "c1"})
	require.Equal(t, 201, r.status, "%s", r.raw)
	cid := fmt.Sprint(r.body["id"])
	next(mainHits, "issue_comment", "issue_comment", "created")
	assert.Contains(t, slackText(), "New comment on issue <")
	r = as("PATCH", repo+"/issues/comments/"+cid, map[string]any{"body": "c2"})
	require.Equal(t, 200, r.status, "%s", r.raw)
	p = next(mainHits, "issue_comment", "issue_comment", "edited")
	assert.Equal(t, map[string]any{"body": map[string]any{"from": "c1"}}, p["changes"])
	assert.Equal(t, "c2", obj(t, p, "comment")["body"])
	assert.Equal(t, cid, fmt.Sprint(obj(t, p, "comment")["id"]))
	assert.Contains(t, slackText(), "Comment edited on issue <")
	r = as("DELETE", repo+"/issues/comments/"+cid, nil)
	require.Equal(t, 204, r.status, "%s", r.raw)
	p = next(mainHits, "issue_comment", "issue_comment", "deleted")
	assert.Equal(t, cid, fmt.Sprint(obj(t, p, "comment")["id"]))
	assert.Nil(t, p["changes"])
	assert.Contains(t, slackText(), "Comment deleted on issue <")

	// A pull request: its title edit is pull_request edited, its label
	// pull_request_label.
	r = as("POST", repo+"/pulls", map[string]any{"head": "b1", "base": "main", "title": "p1"})
	require.Equal(t, 201, r.status, "%s", r.raw)
	next(mainHits, "pull_request", "pull_request", "opened")
	r = as("PATCH", repo+"/pulls/2", map[string]any{"title": "p2"})
	require.Equal(t, 201, r.status, "%s", r.raw)
	p = next(mainHits, "pull_request", "pull_request", "edited")
	assert.Equal(t, map[string]any{"title": map[string]any{"from": "p1"}}, p["changes"])
	assert.Equal(t, "p2", obj(t, p, "pull_request")["title"])
	assert.Equal(t, "b1", obj(t, p, "pull_request", "head")["ref"])
	r = as("POST", repo+"/issues/2/labels", map[string]any{"labels": []any{label}})
	require.Equal(t, 200, r.status, "%s", r.raw)
	p = next(famHits, "pull_request", "pull_request_label", "label_updated")
	assert.Equal(t, "bug", obj(t, p, "pull_request")["labels"].([]any)[0].(map[string]any)["name"])

	// Markers: the next delivery of each hook is its marker, so neither
	// received another family's event above.
	r = as("POST", repo+"/issues/1/comments", map[string]any{"body": "end"})
	require.Equal(t, 201, r.status, "%s", r.raw)
	next(mainHits, "issue_comment", "issue_comment", "created")
	r = as("PATCH", repo+"/issues/1", map[string]any{"milestone": milestone})
	require.Equal(t, 201, r.status, "%s", r.raw)
	next(famHits, "issues", "issue_milestone", "milestoned")
}
