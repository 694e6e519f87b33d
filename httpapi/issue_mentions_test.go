package httpapi_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestIssueMentions: `@name` in issue bodies and comments (created or
// edited) records a mention of each existing user who may read the issue
// (never the writer, never inside code), read by `mentioned_by` of the
// repository list and `mentioned=true` of the search; an unknown user is
// the 404 of the other user filters.
func TestIssueMentions(t *testing.T) {
	t.Parallel()
	e := newIssueEnv(t)
	create := func(tok, title, body string) int {
		t.Helper()
		r := e.send(tok, "POST", e.proj+"/issues", map[string]any{"title": title, "body": body}, 201)
		return int(r.json(t)["number"].(float64))
	}
	create(e.alice, "ping", "hey @bob and @Eve, not `@root`, and @alice is me, @nosuch is nobody")
	quiet := create(e.alice, "quiet", "nothing")
	later := create(e.alice, "later", "nothing yet")
	e.send(e.bob, "POST", e.issuePath(quiet, "/comments"), map[string]any{"body": "cc @eve"}, 201)
	e.send(e.alice, "PATCH", e.issuePath(later, ""), map[string]any{"body": "now @root"}, 201)
	c := e.send(e.bob, "POST", e.issuePath(later, "/comments"), map[string]any{"body": "no one"}, 201).json(t)
	e.send(e.bob, "PATCH", fmt.Sprintf("%s/issues/comments/%v", e.proj, c["id"]), map[string]any{"body": "now @alice"}, 200)

	list := func(query string) []string {
		t.Helper()
		return titles(t, e.send("", "GET", e.proj+"/issues?"+query, nil, 200))
	}
	assert.Equal(t, []string{"ping"}, list("mentioned_by=bob"))
	assert.Equal(t, []string{"quiet", "ping"}, list("mentioned_by=eve"), "a comment mentions too")
	assert.Equal(t, []string{"quiet", "ping"}, list("mentioned_by=EVE"), "names ignore case")
	assert.Equal(t, []string{"later"}, list("mentioned_by=root"), "an edited body mentions too")
	assert.Equal(t, []string{"later"}, list("mentioned_by=alice"), "an edited comment mentions; the writer never mentions herself")
	assert.Equal(t, []string{"quiet"}, list("mentioned_by=eve&created_by=alice&q=quiet"), "with the other filters")
	r := e.send("", "GET", e.proj+"/issues?mentioned_by=eve&limit=1", nil, 200)
	assert.Equal(t, "2", r.Header.Get("X-Total-Count"))
	e.expect(e.do(req{method: "GET", path: e.proj + "/issues?mentioned_by=nosuch"}), 404, "The target couldn't be found.")

	// Only users who may read the issue are recorded: eve, no collaborator
	// of bob's private repository when mentioned, is not, even once she
	// may read it.
	e.send(e.bob, "POST", "/api/v1/user/repos", map[string]any{"name": "secret", "private": true}, 201)
	e.send(e.bob, "POST", "/api/v1/repos/bob/secret/issues", map[string]any{"title": "hidden", "body": "@eve"}, 201)
	e.expect(e.do(req{method: "PUT", path: "/api/v1/repos/bob/secret/collaborators/eve", token: e.bob, body: map[string]any{"permission": "read"}}), 204, "")
	e.send(e.bob, "POST", "/api/v1/repos/bob/secret/issues", map[string]any{"title": "shared", "body": "@eve"}, 201)

	search := func(tok, query string) []string {
		t.Helper()
		return titles(t, e.send(tok, "GET", "/api/v1/repos/issues/search?"+query, nil, 200))
	}
	assert.ElementsMatch(t, []string{"shared", "quiet", "ping"}, search(e.eve, "mentioned=true"))
	assert.Equal(t, []string{"ping"}, search(e.bob, "mentioned=true"))
	assert.Empty(t, search(e.root, "mentioned=true&owner=bob"))
	assert.ElementsMatch(t, []string{"shared", "hidden", "quiet", "ping", "later"}, search(e.eve, ""), "without mentioned: no filter")
	assert.Len(t, search("", "mentioned=true"), 3, "anonymous: mentioned is no filter")

	// An account that may not sign in is never recorded (Forgejo's
	// is_active and prohibit_login conditions).
	e.expect(e.do(req{method: "PATCH", path: "/api/v1/admin/users/bob", token: e.root,
		body: map[string]any{"prohibit_login": true}}), 200, "")
	create(e.alice, "banned", "@bob")
	assert.Equal(t, []string{"ping"}, list("mentioned_by=bob"), "bob may not sign in")
}
