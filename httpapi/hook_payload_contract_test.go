package httpapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge/hooks"
	"github.com/hearthforge/hearth/forge/site"
	schemas "github.com/hearthforge/hearth/httpapi/internal/contract"
	"github.com/hearthforge/hearth/storage/gitstore"
)

// payloadObjects are the objects a webhook payload embeds, by key, with
// the schema of Forgejo's document each must validate against; lists
// (commits) validate each item.
var payloadObjects = map[string]string{
	"repository": "Repository", "forkee": "Repository",
	"sender": "User", "pusher": "User", "organization": "User", "requested_reviewer": "User",
	"issue": "Issue", "pull_request": "PullRequest", "comment": "Comment", "release": "Release",
	"commits": "PayloadCommit", "head_commit": "PayloadCommit",
}

// payloadEnvelopes are the keys of each payload (by X-Forgejo-Event-Type):
// Forgejo's hand-written envelopes, which its document does not describe
// (modules/structs/hook.go), each key either an object of payloadObjects
// or a plain field.
var payloadEnvelopes = map[string][]string{
	"push":          {"ref", "before", "after", "compare_url", "commits", "total_commits", "head_commit", "repository", "pusher", "sender"},
	"create":        {"sha", "ref", "ref_type", "repository", "sender"},
	"delete":        {"ref", "ref_type", "pusher_type", "repository", "sender"},
	"fork":          {"forkee", "repository", "sender"},
	"repository":    {"action", "repository", "organization", "sender"},
	"release":       {"action", "release", "repository", "sender"},
	"issues":        {"action", "number", "changes", "issue", "repository", "sender", "commit_id"},
	"issue_comment": {"action", "issue", "comment", "changes", "repository", "sender", "is_pull"},
	"pull_request": {"action", "number", "changes", "pull_request", "requested_reviewer", "repository", "sender", "commit_id",
		"review"},
}

// envelopeOf is the envelope of an event type.
func envelopeOf(typ string) []string {
	switch typ {
	case "issue_assign", "issue_label", "issue_milestone":
		return payloadEnvelopes["issues"]
	case "pull_request_comment":
		return payloadEnvelopes["issue_comment"]
	case "pull_request_sync", "pull_request_assign", "pull_request_label", "pull_request_milestone", "pull_request_review_request",
		hooks.ReviewApproved, hooks.ReviewRejected, hooks.ReviewComment:
		return payloadEnvelopes["pull_request"]
	}
	return payloadEnvelopes[typ]
}

// checkPayload validates one delivered payload: its keys are its
// envelope's, and each object it embeds validates against its schema
// (null allowed only where Forgejo sends null: organization of a user's
// repository, requested_reviewer and head_commit when there is none).
func checkPayload(t *testing.T, doc schemasDoc, typ string, body []byte) {
	t.Helper()
	var p map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(body, &p), "%s: %s", typ, body)
	envelope := envelopeOf(typ)
	require.NotNil(t, envelope, "no envelope for event type %s", typ)
	for key, raw := range p {
		if !slices.Contains(envelope, key) {
			t.Errorf("%s payload: key %q is not in Forgejo's envelope %v", typ, key, envelope)
			continue
		}
		schema := payloadObjects[key]
		if schema == "" || string(raw) == "null" {
			continue
		}
		items := []json.RawMessage{raw}
		if key == "commits" {
			require.NoError(t, json.Unmarshal(raw, &items))
		}
		for _, it := range items {
			if err := doc.check(schema, it); err != nil {
				t.Errorf("%s payload, %s: %v", typ, key, err)
			}
		}
	}
	for _, key := range []string{"repository", "sender"} {
		if v, ok := p[key]; !ok || string(v) == "null" {
			t.Errorf("%s payload without %s: %s", typ, key, body)
		}
	}
}

// schemasDoc checks bodies against the schemas of the contract's document.
type schemasDoc struct {
	check func(name string, body []byte) error
}

// TestWebhookPayloadContract: every payload a forge delivers (forge/site
// with a real receiver on loopback, events from real operations through
// the API: pushes, branches and tags created and deleted, a repository
// created, forked into an organisation and deleted, an issue opened,
// labelled, milestoned, assigned, edited, commented and closed, a pull
// request opened, its review requested, reviewed and merged, a release
// published) embeds Forgejo's full objects: each validates against its
// schema of Forgejo's document, strictly (no property the document does
// not name), and the envelope holds only Forgejo's keys.
func TestWebhookPayloadContract(t *testing.T) {
	t.Parallel()
	doc, err := schemas.Doc()
	require.NoError(t, err)
	check := schemasDoc{check: func(name string, body []byte) error { return schemas.CheckSchema(doc, name, body) }}

	git, err := gitstore.Open(t.TempDir())
	require.NoError(t, err)
	t.Cleanup(func() { git.Close() })
	policy, err := hooks.ParseAddressPolicy([]string{"loopback"})
	require.NoError(t, err)
	s, err := site.New(t.Context(), site.Config{Git: git, WebhookPolicy: policy, RootURL: "http://forge.example/"})
	require.NoError(t, err)
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

	type delivery struct {
		typ  string
		body []byte
	}
	var (
		mu  sync.Mutex
		got []delivery
	)
	recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		got = append(got, delivery{r.Header.Get("X-Forgejo-Event-Type"), b})
		mu.Unlock()
	}))
	t.Cleanup(recv.Close)

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
	// A system hook receives the events of every repository.
	call("POST", "/admin/hooks", map[string]any{"type": "forgejo", "active": true,
		"events": []string{"create", "delete", "fork", "push", "issues", "issue_comment", "pull_request", "repository", "release"},
		"config": map[string]string{"url": recv.URL, "content_type": "json"}}, http.StatusCreated)
	call("POST", "/admin/users", map[string]any{"username": "bob", "email": "bob@example.com", "password": "bob-password-1",
		"must_change_password": false}, http.StatusCreated)
	call("POST", "/orgs", map[string]any{"username": "acme"}, http.StatusCreated)

	call("POST", "/user/repos", map[string]any{"name": "r", "auto_init": true}, http.StatusCreated)
	call("PUT", "/repos/root/r/collaborators/bob", map[string]any{"permission": "write"}, http.StatusNoContent)
	call("POST", "/repos/root/r/contents/a.txt", map[string]any{"content": "YQo=", "message": "add a"}, http.StatusCreated)
	call("POST", "/repos/root/r/contents/b.txt", map[string]any{"content": "Ygo=", "message": "add b", "new_branch": "feat"},
		http.StatusCreated)
	label := call("POST", "/repos/root/r/labels", map[string]any{"name": "bug", "color": "#ee0701"}, http.StatusCreated)
	milestone := call("POST", "/repos/root/r/milestones", map[string]any{"title": "v1"}, http.StatusCreated)
	call("POST", "/repos/root/r/issues", map[string]any{"title": "crash", "body": "it crashes"}, http.StatusCreated)
	call("POST", "/repos/root/r/issues/1/labels", map[string]any{"labels": []any{label["id"]}}, http.StatusOK)
	call("PATCH", "/repos/root/r/issues/1", map[string]any{"milestone": milestone["id"]}, http.StatusCreated)
	call("PATCH", "/repos/root/r/issues/1", map[string]any{"assignees": []string{"root"}}, http.StatusCreated)
	call("PATCH", "/repos/root/r/issues/1", map[string]any{"title": "crash on start"}, http.StatusCreated)
	comment := call("POST", "/repos/root/r/issues/1/comments", map[string]any{"body": "more info"}, http.StatusCreated)
	call("PATCH", fmt.Sprintf("/repos/root/r/issues/comments/%v", comment["id"]), map[string]any{"body": "more info, please"},
		http.StatusOK)
	call("PATCH", "/repos/root/r/issues/1", map[string]any{"state": "closed"}, http.StatusCreated)
	call("POST", "/repos/root/r/pulls", map[string]any{"head": "feat", "base": "main", "title": "add b"}, http.StatusCreated)
	call("POST", "/repos/root/r/pulls/2/requested_reviewers", map[string]any{"reviewers": []string{"bob"}}, http.StatusCreated)
	call("POST", "/repos/root/r/pulls/2/reviews", map[string]any{"event": "COMMENT", "body": "looks fine"}, http.StatusOK)
	call("POST", "/repos/root/r/issues/2/comments", map[string]any{"body": "merging"}, http.StatusCreated)
	call("POST", "/repos/root/r/pulls/2/merge", map[string]any{"Do": "merge"}, http.StatusOK)
	call("POST", "/repos/root/r/releases", map[string]any{"tag_name": "v1", "name": "first"}, http.StatusCreated)
	call("POST", "/repos/root/r/forks", map[string]any{"organization": "acme"}, http.StatusAccepted)
	call("DELETE", "/repos/root/r/branches/feat", nil, http.StatusNoContent)
	call("DELETE", "/repos/acme/r", nil, http.StatusNoContent)

	want := []string{"push", "create", "delete", "fork", "repository", "release", "issues", "issue_label", "issue_milestone",
		"issue_assign", "issue_comment", "pull_request", "pull_request_comment", "pull_request_review_request",
		hooks.ReviewComment}
	deadline := time.Now().Add(time.Minute)
	for {
		mu.Lock()
		seen := map[string]bool{}
		for _, d := range got {
			seen[d.typ] = true
		}
		mu.Unlock()
		missing := slices.DeleteFunc(slices.Clone(want), func(typ string) bool { return seen[typ] })
		if len(missing) == 0 {
			break
		}
		require.True(t, time.Now().Before(deadline), "no delivery of %v within a minute", missing)
		time.Sleep(20 * time.Millisecond) // polling with a deadline
	}
	mu.Lock()
	defer mu.Unlock()
	for _, d := range got {
		checkPayload(t, check, d.typ, d.body)
		if d.typ == "fork" {
			// The fork's repository is the full object: its parent too.
			var p struct {
				Repository struct {
					Fork   bool `json:"fork"`
					Parent *struct {
						FullName string `json:"full_name"`
					} `json:"parent"`
				} `json:"repository"`
			}
			require.NoError(t, json.Unmarshal(d.body, &p))
			require.True(t, p.Repository.Fork)
			require.NotNil(t, p.Repository.Parent, "the fork's parent: %s", d.body)
			require.Equal(t, "root/r", p.Repository.Parent.FullName)
		}
	}
}
