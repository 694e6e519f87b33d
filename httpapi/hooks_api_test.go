package httpapi_test

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	hexenc "encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func hookBody(typ string, cfg map[string]string, extra map[string]any) map[string]any {
	b := map[string]any{"type": typ, "config": cfg}
	for k, v := range extra {
		b[k] = v
	}
	return b
}

// TestAdminHooks: spec §3's rules for /admin/hooks.
func TestAdminHooks(t *testing.T) {
	t.Parallel()
	e := newHookEnv(t)
	e.createUser("alice")
	ok := map[string]string{"url": "https://example.com/h", "content_type": "json"}

	e.expect(e.do(as("alice", "GET", "/admin/hooks", nil)), 403, "")
	e.expect(e.do(as("alice", "POST", "/admin/hooks", hookBody("forgejo", ok, nil))), 403, "")

	for _, c := range []struct {
		body   map[string]any
		status int
		msg    string
	}{
		{map[string]any{"config": ok}, 422, "[Type]: Required"},
		{map[string]any{"type": "forgejo"}, 422, "[Config]: Required"},
		{hookBody("github", ok, nil), 422, "Invalid hook type: github"},
		{hookBody("forgejo", map[string]string{"content_type": "json"}, nil), 422, "Missing config option: url"},
		{hookBody("forgejo", map[string]string{"url": "https://example.com"}, nil), 422, "Missing config option: content_type"},
		{hookBody("forgejo", map[string]string{"url": "https://example.com", "content_type": "xml"}, nil), 422, "Invalid content type"},
		{hookBody("forgejo", map[string]string{"url": "javascript:alert(1)", "content_type": "json"}, nil), 422, "Invalid url"},
		{hookBody("forgejo", map[string]string{"url": "https://example.com", "content_type": "json", "is_system_webhook": "maybe"}, nil), 422, "Invalid is_system_webhook value"},
		{hookBody("slack", ok, nil), 422, "Missing config option: channel"},
		{hookBody("slack", map[string]string{"url": "https://example.com", "content_type": "json", "channel": "#"}, nil), 400, "Invalid slack channel name"},
		{hookBody("forgejo", ok, map[string]any{"branch_filter": "[main"}), 422, "[BranchFilter]: GlobPattern"},
		{map[string]any{"type": 5}, 422, ""},
	} {
		e.expect(e.do(rootReq("POST", "/admin/hooks", c.body)), c.status, c.msg)
	}
	e.expect(e.do(rootReq("GET", "/admin/hooks", nil)), 200, "")
	assert.Empty(t, e.do(rootReq("GET", "/admin/hooks", nil)).list(t), "nothing refused was stored")

	sys := map[string]string{"url": "https://example.com/sys", "content_type": "form", "is_system_webhook": "true", "secret": "hush"}
	r := e.do(rootReq("POST", "/admin/hooks", hookBody("gitea", sys, map[string]any{"events": []string{"issues", "bogus"},
		"branch_filter": "main", "authorization_header": "Bearer x"})))
	e.expect(r, 201, "")
	h := r.json(t)
	assert.Equal(t, false, h["active"], "active defaults to false")
	assert.Equal(t, []any{"issues", "issue_assign", "issue_label", "issue_milestone", "issue_comment"}, h["events"],
		"unknown words are ignored; issues is the issue family (Forgejo's issuesHook)")
	assert.Equal(t, "form", h["content_type"])
	assert.Equal(t, map[string]any{"url": "https://example.com/sys", "content_type": "form"}, h["config"], "no secret, no is_system_webhook")
	assert.NotContains(t, string(r.body), "hush")
	sysID := strconv.Itoa(int(h["id"].(float64)))

	r = e.do(rootReq("POST", "/admin/hooks", hookBody("forgejo", ok, map[string]any{"active": true})))
	e.expect(r, 201, "")
	def := r.json(t)
	assert.Equal(t, []any{"push"}, def["events"], "no events is push")
	defID := strconv.Itoa(int(def["id"].(float64)))
	// A second system hook, for paging.
	e.expect(e.do(rootReq("POST", "/admin/hooks", hookBody("forgejo", map[string]string{"url": "https://example.com/2", "content_type": "json", "is_system_webhook": "1"}, nil))), 201, "")

	r = e.do(rootReq("GET", "/admin/hooks?limit=1", nil))
	e.expect(r, 200, "")
	assert.Len(t, r.list(t), 2, "without page, limit is ignored and default hooks are not listed")
	assert.Equal(t, "2", r.Header.Get("X-Total-Count"))
	r = e.do(rootReq("GET", "/admin/hooks?page=2&limit=1", nil))
	require.Len(t, r.list(t), 1)
	assert.NotEqual(t, h["id"], r.list(t)[0]["id"])
	e.expect(e.do(rootReq("GET", "/admin/hooks/"+defID, nil)), 200, "")
	e.expect(e.do(rootReq("GET", "/admin/hooks/999", nil)), 404, "The target couldn't be found.")
	e.expect(e.do(rootReq("GET", "/admin/hooks/abc", nil)), 404, "")

	// PATCH: events, branch_filter and authorization_header are replaced
	// (omitted: cleared, push); active only when given.
	r = e.do(rootReq("PATCH", "/admin/hooks/"+sysID, map[string]any{"config": map[string]string{"url": "https://example.com/new"}}))
	e.expect(r, 200, "")
	got := r.json(t)
	assert.Equal(t, "https://example.com/new", got["url"])
	assert.Equal(t, "form", got["content_type"], "content_type kept when not given")
	assert.Equal(t, []any{"push"}, got["events"])
	assert.Equal(t, "", got["branch_filter"])
	assert.Equal(t, "", got["authorization_header"], "omitting authorization_header clears it")
	assert.Equal(t, false, got["active"])
	r = e.do(rootReq("PATCH", "/admin/hooks/"+sysID, map[string]any{"active": true, "events": []string{"create"}}))
	assert.Equal(t, true, r.json(t)["active"])
	e.expect(e.do(rootReq("PATCH", "/admin/hooks/"+sysID, map[string]any{"config": map[string]string{"url": "nope"}})), 422, "Invalid url")
	e.expect(e.do(rootReq("PATCH", "/admin/hooks/"+sysID, map[string]any{"config": map[string]string{"content_type": "xml"}})), 422, "Invalid content type")
	e.expect(e.do(rootReq("PATCH", "/admin/hooks/999", map[string]any{"active": true})), 404, "")

	e.expect(e.do(rootReq("DELETE", "/admin/hooks/"+defID, nil)), 204, "")
	e.expect(e.do(rootReq("GET", "/admin/hooks/"+defID, nil)), 404, "")
	e.expect(e.do(rootReq("DELETE", "/admin/hooks/"+defID, nil)), 404, "")
}

// TestOwnerHooks: who may manage repository, organisation and user hooks,
// and that one owner's hook is not reachable through another's path.
func TestOwnerHooks(t *testing.T) {
	t.Parallel()
	e := newHookEnv(t)
	for _, u := range []string{"alice", "bob"} {
		e.createUser(u)
	}
	e.expect(e.do(rootReq("POST", "/admin/users/alice/repos", map[string]any{"name": "proj"})), 201, "")
	e.expect(e.do(rootReq("POST", "/admin/users/alice/repos", map[string]any{"name": "secret", "private": true})), 201, "")
	e.createOrg("alice", "acme", "public")
	body := hookBody("forgejo", map[string]string{"url": "https://example.com/h", "content_type": "json", "secret": "s"}, nil)

	// Repository: administrators only; private repositories are 404 to others.
	e.expect(e.do(as("bob", "GET", "/repos/alice/proj/hooks", nil)), 403,
		"user should be an owner or a collaborator with admin write of a repository")
	e.expect(e.do(as("bob", "POST", "/repos/alice/secret/hooks", body)), 404, "")
	e.expect(e.do(as("alice", "GET", "/repos/alice/nope/hooks", nil)), 404, "")
	r := e.do(as("alice", "POST", "/repos/alice/proj/hooks", body))
	e.expect(r, 201, "")
	repoHook := strconv.Itoa(int(r.json(t)["id"].(float64)))
	r = e.do(as("alice", "GET", "/repos/alice/proj/hooks", nil))
	require.Len(t, r.list(t), 1)
	assert.Equal(t, "1", r.Header.Get("X-Total-Count"))

	// Organisation: owners only.
	e.expect(e.do(as("bob", "GET", "/orgs/acme/hooks", nil)), 403, "Must be an organization owner")
	r = e.do(as("alice", "POST", "/orgs/acme/hooks", body))
	e.expect(r, 201, "")
	orgHook := strconv.Itoa(int(r.json(t)["id"].(float64)))
	e.expect(e.do(as("alice", "GET", "/orgs/nope/hooks", nil)), 404, "")

	// User: each user's own.
	r = e.do(as("bob", "POST", "/user/hooks", body))
	e.expect(r, 201, "")
	bobHook := strconv.Itoa(int(r.json(t)["id"].(float64)))
	e.expect(e.do(as("alice", "GET", "/user/hooks/"+bobHook, nil)), 404, "")
	e.expect(e.do(as("alice", "DELETE", "/user/hooks/"+bobHook, nil)), 404, "")
	assert.Empty(t, e.do(as("alice", "GET", "/user/hooks", nil)).list(t))

	// Crossing owners: the id exists but belongs elsewhere.
	e.expect(e.do(as("alice", "GET", "/orgs/acme/hooks/"+repoHook, nil)), 404, "")
	e.expect(e.do(as("alice", "GET", "/repos/alice/proj/hooks/"+orgHook, nil)), 404, "")
	e.expect(e.do(rootReq("GET", "/admin/hooks/"+repoHook, nil)), 404, "")
	e.expect(e.do(as("bob", "GET", "/user/hooks/"+bobHook, nil)), 200, "")

	// Git hooks: repository administrators get Forgejo's disabled answer.
	e.expect(e.do(as("bob", "GET", "/repos/alice/proj/hooks/git", nil)), 403,
		"user should be an owner or a collaborator with admin write of a repository")
	e.expect(e.do(as("alice", "GET", "/repos/alice/proj/hooks/git", nil)), 403, "must be allowed to edit Git hooks")
	e.expect(e.do(as("alice", "GET", "/repos/alice/nope/hooks/git", nil)), 404, "")
}

// TestHookTestDelivery: POST …/hooks/{id}/tests queues a push delivery
// that reaches a loopback receiver signed; the request does not wait for
// it. An inactive hook's test queues nothing (Forgejo answers 204 and
// sends nothing).
func TestHookTestDelivery(t *testing.T) {
	t.Parallel()
	e := newHookEnv(t)
	e.createUser("alice")
	e.expect(e.do(rootReq("POST", "/admin/users/alice/repos", map[string]any{"name": "proj", "auto_init": true})), 201, "")
	got := make(chan *http.Request, 1)
	bodies := make(chan []byte, 1)
	rc := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		got <- r
		bodies <- b
	}))
	t.Cleanup(rc.Close)
	r := e.do(as("alice", "POST", "/repos/alice/proj/hooks",
		hookBody("forgejo", map[string]string{"url": rc.URL + "/inactive", "content_type": "json"}, nil)))
	e.expect(r, 201, "")
	inactive := strconv.Itoa(int(r.json(t)["id"].(float64)))
	e.expect(e.do(as("alice", "POST", "/repos/alice/proj/hooks/"+inactive+"/tests", nil)), 204, "")
	n, err := e.hooks.DeliverDue(context.Background())
	require.NoError(t, err)
	require.Equal(t, 0, n, "an inactive hook's test queues nothing")
	r = e.do(as("alice", "POST", "/repos/alice/proj/hooks",
		hookBody("forgejo", map[string]string{"url": rc.URL + "/x", "content_type": "json", "secret": "k"}, map[string]any{"active": true})))
	e.expect(r, 201, "")
	id := strconv.Itoa(int(r.json(t)["id"].(float64)))
	e.expect(e.do(as("alice", "POST", "/repos/alice/proj/hooks/"+id+"/tests", nil)), 204, "")
	e.expect(e.do(as("alice", "POST", "/repos/alice/proj/hooks/999/tests", nil)), 404, "")
	select {
	case <-got:
		t.Fatal("the test request delivered before the worker ran")
	default:
	}
	n, err = e.hooks.DeliverDue(context.Background())
	require.NoError(t, err)
	require.Equal(t, 1, n)
	var req *http.Request
	select {
	case req = <-got:
	case <-time.After(10 * time.Second):
		t.Fatal("no delivery")
	}
	b := <-bodies
	m := hmac.New(sha256.New, []byte("k"))
	m.Write(b)
	assert.Equal(t, hexenc.EncodeToString(m.Sum(nil)), req.Header.Get("X-Forgejo-Signature"))
	assert.Equal(t, "push", req.Header.Get("X-Forgejo-Event"))
	var p map[string]any
	require.NoError(t, json.Unmarshal(b, &p))
	assert.Equal(t, "refs/heads/main", p["ref"])
	assert.Equal(t, "alice/proj", p["repository"].(map[string]any)["full_name"])
}

// TestHookRoutesRefuseBadBodies: every webhook operation with a body
// answers a body that is not JSON, or JSON of the wrong shape, with 422 in
// Forgejo's shape and changes nothing.
func TestHookRoutesRefuseBadBodies(t *testing.T) {
	t.Parallel()
	e := newHookEnv(t)
	hookWorld(e)
	paths := map[string]string{}
	for op, s := range hookSamples {
		if s.body != nil && op != "repoEditGitHook" {
			paths[op] = s.path
		}
	}
	before := e.do(rootReq("GET", "/admin/hooks/1", nil)).body
	n := 0
	for op, p := range paths {
		method := "POST"
		if strings.Contains(op, "Edit") {
			method = "PATCH"
		}
		for _, body := range []string{"{", `{"type": 5, "config": "x", "events": "push", "active": "yes"}`, "[]"} {
			n++
			got := e.do(rootReq(method, p, body))
			assert.Equal(t, http.StatusUnprocessableEntity, got.StatusCode, "%s with %s: %s", op, body, got.body)
		}
	}
	assert.Equal(t, 24, n)
	assert.JSONEq(t, string(before), string(e.do(rootReq("GET", "/admin/hooks/1", nil)).body), "nothing changed")
	assert.Len(t, e.do(rootReq("GET", "/user/hooks", nil)).list(t), 1, "nothing created")
}
