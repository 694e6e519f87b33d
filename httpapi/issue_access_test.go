package httpapi_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestIssuesOfArchivedRepository checks which issue writes an archived
// repository refuses (423, as Forgejo's mustNotBeArchived) and which it
// allows: the issue PATCH, label changes and the deprecated comment edit
// have no archived check in Forgejo.
func TestIssuesOfArchivedRepository(t *testing.T) {
	t.Parallel()
	e := newIssueEnv(t)
	n := e.newIssue(e.alice, "before")
	bug := e.newLabel("bug", false)
	c := e.send(e.alice, "POST", e.issuePath(n, "/comments"), map[string]any{"body": "hi"}, 201).json(t)
	e.send(e.alice, "PATCH", e.proj, map[string]any{"archived": true}, 200)

	e.send(e.alice, "POST", e.proj+"/issues", map[string]any{"title": "after"}, 423)
	e.send(e.alice, "POST", e.issuePath(n, "/comments"), map[string]any{"body": "more"}, 423)
	e.send(e.alice, "PATCH", fmt.Sprintf("%s/issues/comments/%v", e.proj, c["id"]), map[string]any{"body": "edit"}, 423)
	e.expect(e.upload(e.alice, e.issuePath(n, "/assets"), "a.txt", "a", nil), 423, "")

	e.send(e.alice, "PATCH", e.issuePath(n, ""), map[string]any{"title": "still editable"}, 201)
	e.send(e.alice, "POST", e.issuePath(n, "/labels"), map[string]any{"labels": []int64{bug}}, 200)
	e.send(e.alice, "PATCH", fmt.Sprintf("%s/issues/%d/comments/%v", e.proj, n, c["id"]), map[string]any{"body": "old route"}, 200)
	assert.Equal(t, "still editable", e.send("", "GET", e.issuePath(n, ""), nil, 200).json(t)["title"])
}

// TestIssuesOfPrivateRepository checks that the issues, labels and
// milestones of a private repository are not found by those who may not
// see it, and that a read token suffices to read them for those who may.
func TestIssuesOfPrivateRepository(t *testing.T) {
	t.Parallel()
	e := newIssueEnv(t)
	e.send(e.bob, "POST", "/api/v1/user/repos", map[string]any{"name": "secret", "private": true}, 201)
	base := "/api/v1/repos/bob/secret"
	e.send(e.bob, "POST", base+"/issues", map[string]any{"title": "plan"}, 201)
	for _, path := range []string{"/issues", "/issues/1", "/issues/1/comments", "/issues/1/labels", "/labels", "/milestones", "/issues/comments"} {
		e.send("", "GET", base+path, nil, 404)
		e.send(e.eve, "GET", base+path, nil, 404)
		e.send(e.bob, "GET", base+path, nil, 200)
	}
	e.send(e.eve, "POST", base+"/issues", map[string]any{"title": "x"}, 404)
	e.send(e.eve, "POST", base+"/issues/1/comments", map[string]any{"body": "x"}, 404)
	e.send(e.eve, "PATCH", base+"/issues/1", map[string]any{"title": "x"}, 404)
	read := e.token("bob", "read:issue")
	e.send(read, "GET", base+"/issues/1", nil, 200)
	e.expect(e.do(req{method: "POST", path: base + "/issues", token: read, body: map[string]any{"title": "x"}}), 403,
		"token does not have at least one of required scope(s): [write:issue]")
	public := e.token("bob", "read:issue", "public-only")
	e.send(public, "GET", base+"/issues/1", nil, 404)
	assert.Equal(t, "plan", e.send(e.root, "GET", base+"/issues/1", nil, 200).json(t)["title"], "site administrators see everything")
}
