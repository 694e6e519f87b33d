package httpapi_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// TestIssueAttachmentCRUD lists, reads, renames (201, as Forgejo) and
// deletes the attachments of an issue and of a comment, and refuses those
// of another issue or comment and the callers who may not write.
func TestIssueAttachmentCRUD(t *testing.T) {
	t.Parallel()
	e := newIssueEnv(t)
	n, other := e.newIssue(e.bob, "with files"), e.newIssue(e.bob, "other")
	c := e.send(e.bob, "POST", e.issuePath(n, "/comments"), map[string]any{"body": "see log"}, 201).json(t)
	for _, target := range []struct{ name, base, elsewhere string }{
		{"issue", e.issuePath(n, "/assets"), e.issuePath(other, "/assets")},
		{"comment", fmt.Sprintf("%s/issues/comments/%v/assets", e.proj, c["id"]), e.issuePath(n, "/assets")},
	} {
		r := e.upload(e.bob, target.base, "a.txt", "hello", nil)
		e.expect(r, 201, "")
		at := r.json(t)
		one := fmt.Sprintf("%s/%v", target.base, at["id"])
		list := e.send("", "GET", target.base, nil, 200).list(t)
		if assert.Len(t, list, 1, target.name) {
			assert.Equal(t, "a.txt", list[0]["name"])
			assert.Equal(t, at["uuid"], list[0]["uuid"])
		}
		assert.Equal(t, "a.txt", e.send("", "GET", one, nil, 200).json(t)["name"])
		e.send("", "GET", fmt.Sprintf("%s/%v", target.elsewhere, at["id"]), nil, 404)
		e.send("", "GET", target.base+"/999", nil, 404)
		e.send("", "GET", target.base+"/abc", nil, 404)
		assert.Equal(t, "b.txt", e.send(e.bob, "PATCH", one, map[string]any{"name": "b.txt"}, 201).json(t)["name"])
		e.send(e.eve, "PATCH", one, map[string]any{"name": "eve.txt"}, 403)
		e.send(e.eve, "DELETE", one, nil, 403)
		e.expect(e.upload(e.eve, target.base, "e.txt", "e", nil), 403, "")
		e.send(e.bob, "DELETE", one, nil, 204)
		e.send("", "GET", one, nil, 404)
		assert.Empty(t, e.send("", "GET", target.base, nil, 200).list(t))
	}
}

// TestIssueAttachmentBadTargets answers attachment routes whose issue,
// comment or attachment parameter is not a number with 404.
func TestIssueAttachmentBadTargets(t *testing.T) {
	t.Parallel()
	e := newIssueEnv(t)
	for _, p := range []string{"/issues/abc/assets", "/issues/abc/assets/1", "/issues/comments/abc/assets", "/issues/comments/abc/assets/1", "/issues/comments/1/assets/x"} {
		e.send("", "GET", e.proj+p, nil, 404)
	}
	e.expect(e.upload(e.alice, e.proj+"/issues/abc/assets", "a.txt", "a", nil), 404, "")
	e.expect(e.upload(e.alice, e.proj+"/issues/9/assets", "a.txt", "a", nil), 404, "")
}

// TestIssueDeadline sets and clears a due date through POST
// /issues/{index}/deadline: the end of the given day, 201; writers only.
func TestIssueDeadline(t *testing.T) {
	t.Parallel()
	e := newIssueEnv(t)
	n := e.newIssue(e.eve, "due")
	day := time.Date(2031, 3, 4, 9, 0, 0, 0, time.UTC)
	r := e.send(e.bob, "POST", e.issuePath(n, "/deadline"), map[string]any{"due_date": day.Format(time.RFC3339)}, 201)
	assert.Equal(t, "2031-03-04T23:59:59Z", r.json(t)["due_date"])
	assert.Equal(t, "2031-03-04T23:59:59Z", e.send("", "GET", e.issuePath(n, ""), nil, 200).json(t)["due_date"])
	e.expect(e.do(req{method: "POST", path: e.issuePath(n, "/deadline"), token: e.eve, body: map[string]any{"due_date": nil}}), 403, "Not repo writer")
	r = e.send(e.bob, "POST", e.issuePath(n, "/deadline"), map[string]any{"due_date": nil}, 201)
	assert.Equal(t, "0001-01-01T00:00:00Z", r.json(t)["due_date"], "Forgejo answers the zero time when it clears")
	assert.Nil(t, e.send("", "GET", e.issuePath(n, ""), nil, 200).json(t)["due_date"])
}
