package httpapi_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestComments drives the comment operations: create, list per issue and
// per repository, get, edit and delete by id, the deprecated routes under
// /issues/{index}/comments/{id}, and the refusals.
func TestComments(t *testing.T) {
	t.Parallel()
	e := newIssueEnv(t)
	n := e.newIssue(e.alice, "talk")
	m := e.newIssue(e.alice, "other")

	c1 := e.send(e.bob, "POST", e.issuePath(n, "/comments"), map[string]any{"body": "first!"}, 201).json(t)
	assert.Equal(t, "first!", c1["body"])
	assert.Equal(t, "bob", c1["user"].(map[string]any)["login"])
	assert.Equal(t, []any{}, c1["assets"])
	id := int64(c1["id"].(float64))
	assert.True(t, strings.HasSuffix(c1["html_url"].(string), fmt.Sprintf("/alice/proj/issues/%d#issuecomment-%d", n, id)), c1["html_url"])
	assert.True(t, strings.HasSuffix(c1["issue_url"].(string), fmt.Sprintf("/alice/proj/issues/%d", n)), c1["issue_url"])
	assert.Equal(t, "", c1["pull_request_url"])
	e.send(e.alice, "POST", e.issuePath(n, "/comments"), map[string]any{"body": "second"}, 201)
	e.send(e.alice, "POST", e.issuePath(m, "/comments"), map[string]any{"body": "elsewhere"}, 201)

	r := e.send("", "GET", e.issuePath(n, "/comments"), nil, 200)
	assert.Len(t, r.list(t), 2)
	assert.Equal(t, "2", r.Header.Get("X-Total-Count"))
	assert.EqualValues(t, 2, e.send("", "GET", e.issuePath(n, ""), nil, 200).json(t)["comments"])

	r = e.send("", "GET", e.proj+"/issues/comments?limit=2", nil, 200)
	assert.Len(t, r.list(t), 2)
	assert.Equal(t, "3", r.Header.Get("X-Total-Count"))

	cpath := fmt.Sprintf("%s/issues/comments/%d", e.proj, id)
	assert.Equal(t, "first!", e.send("", "GET", cpath, nil, 200).json(t)["body"])
	assert.Equal(t, "edited", e.send(e.bob, "PATCH", cpath, map[string]any{"body": "edited"}, 200).json(t)["body"])
	// A writer may edit others' comments; eve may not (a bare 403).
	e.send(e.alice, "PATCH", cpath, map[string]any{"body": "by owner"}, 200)
	r = e.send(e.eve, "PATCH", cpath, map[string]any{"body": "eve"}, 403)
	assert.Empty(t, r.body)
	// The deprecated route finds the comment by id alone, as Forgejo's
	// commentAssignment (the index is not compared).
	e.send(e.bob, "PATCH", fmt.Sprintf("%s/issues/%d/comments/%d", e.proj, n, id), map[string]any{"body": "old route"}, 200)
	assert.Equal(t, "old route", e.send("", "GET", cpath, nil, 200).json(t)["body"])

	// Refusals and unknowns.
	r = e.do(req{method: "POST", path: e.issuePath(99, "/comments"), token: e.bob, body: map[string]any{"body": "x"}})
	e.expect(r, 404, "IsErrIssueNotExist")
	assert.NotEmpty(t, r.json(t)["errors"])
	e.expect(e.do(req{method: "GET", path: e.issuePath(99, "/comments")}), 404, "IsErrIssueNotExist")
	e.expect(e.do(req{method: "POST", path: e.issuePath(n, "/comments"), token: e.bob, body: map[string]any{"body": ""}}), 422, "[Body]: Required")
	e.expect(e.do(req{method: "GET", path: e.proj + "/issues/comments/999"}), 404, "")
	e.expect(e.do(req{method: "GET", path: e.proj + "/issues/comments/abc"}), 404, "")
	e.expect(e.do(req{method: "GET", path: e.proj + "/issues/comments?before=never"}), 422,
		`parsing time "never" as "2006-01-02T15:04:05Z07:00": cannot parse "never" as "2006"`)

	// Delete: eve may not; the poster may; then it is gone.
	e.send(e.eve, "DELETE", cpath, nil, 403)
	e.send(e.bob, "DELETE", cpath, nil, 204)
	e.send("", "GET", cpath, nil, 404)
	e.send(e.bob, "DELETE", cpath, nil, 404)
	assert.EqualValues(t, 1, e.send("", "GET", e.issuePath(n, ""), nil, 200).json(t)["comments"])
	// The deprecated delete route.
	c2 := int64(e.send(e.bob, "POST", e.issuePath(m, "/comments"), map[string]any{"body": "bye"}, 201).json(t)["id"].(float64))
	e.send(e.bob, "DELETE", fmt.Sprintf("%s/issues/%d/comments/%d", e.proj, m, c2), nil, 204)
}
