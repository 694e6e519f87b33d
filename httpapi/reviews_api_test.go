package httpapi_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPullReviewRoutes walks the review routes: a pending review with a
// code comment, its comments (list, get, add, delete), submit, the
// refusals Forgejo answers 422, review requests, dismissal by an admin,
// deletion.
func TestPullReviewRoutes(t *testing.T) {
	t.Parallel()
	e, w := seededPulls(t)
	head := w.git("rev-parse", "b1")
	e.newPull(e.alice, "b1", "main", "review me")
	rp := func(suffix string) string { return e.pullPath(1, "/reviews"+suffix) }

	// The poster may not approve their own pull request; a comment review
	// needs a body or comments.
	e.expect(e.do(req{method: "POST", path: rp(""), token: e.alice, body: map[string]any{"event": "APPROVED"}}), 422,
		"approve your own pull is not allowed")
	e.expect(e.do(req{method: "POST", path: rp(""), token: e.bob, body: map[string]any{"event": "COMMENT"}}), 422,
		"review event COMMENT requires a body or a comment")

	pending := e.send(e.bob, "POST", rp(""), map[string]any{"body": "draft", "comments": []map[string]any{
		{"path": "a.txt", "body": "why 4?", "new_position": 4},
		{"path": "a.txt", "body": "old two", "old_position": 2},
	}}, 200).json(t)
	assert.Equal(t, "PENDING", pending["state"])
	assert.EqualValues(t, 2, pending["comments_count"])
	assert.Equal(t, head, pending["commit_id"])
	id := num(pending["id"])
	// A pending review is bob's own: alice does not see it.
	e.expect(e.do(req{method: "GET", path: rp(fmt.Sprintf("/%d", id)), token: e.alice}), 404, "")
	e.send(e.bob, "GET", rp(fmt.Sprintf("/%d", id)), nil, 200)

	comments := e.send(e.bob, "GET", rp(fmt.Sprintf("/%d/comments", id)), nil, 200).list(t)
	require.Len(t, comments, 2)
	assert.Equal(t, "a.txt", comments[0]["path"])
	assert.EqualValues(t, 4, comments[0]["position"])
	assert.EqualValues(t, 0, comments[0]["original_position"])
	assert.EqualValues(t, 2, comments[1]["original_position"])
	assert.EqualValues(t, id, comments[0]["pull_request_review_id"])
	assert.Equal(t, "bob", comments[0]["user"].(map[string]any)["login"])
	cid := num(comments[0]["id"])
	one := e.send(e.bob, "GET", rp(fmt.Sprintf("/%d/comments/%d", id, cid)), nil, 200).json(t)
	assert.Equal(t, "why 4?", one["body"])
	added := e.send(e.bob, "POST", rp(fmt.Sprintf("/%d/comments", id)), map[string]any{"path": "new.txt", "body": "new file", "new_position": 1}, 200).json(t)
	assert.Equal(t, "new.txt", added["path"])
	e.send(e.bob, "DELETE", rp(fmt.Sprintf("/%d/comments/%d", id, num(added["id"]))), nil, 204)
	assert.Len(t, e.send(e.bob, "GET", rp(fmt.Sprintf("/%d/comments", id)), nil, 200).list(t), 2)

	// Submit: a pending review only, and not as pending.
	e.expect(e.do(req{method: "POST", path: rp(fmt.Sprintf("/%d", id)), token: e.bob, body: map[string]any{"event": "PENDING"}}), 422, "review stay pending")
	sub := e.send(e.bob, "POST", rp(fmt.Sprintf("/%d", id)), map[string]any{"event": "REQUEST_CHANGES", "body": "please fix"}, 200).json(t)
	assert.Equal(t, "REQUEST_CHANGES", sub["state"])
	assert.Equal(t, "please fix", sub["body"])
	assert.Contains(t, sub["html_url"], fmt.Sprintf("/alice/proj/pulls/1#pullrequestreview-%d", id))
	e.expect(e.do(req{method: "POST", path: rp(fmt.Sprintf("/%d", id)), token: e.bob, body: map[string]any{"event": "APPROVED"}}), 422,
		"only a pending review can be submitted")
	assert.EqualValues(t, 2, e.getPull(1)["review_comments"])

	// Dismissal: repository admins only.
	e.expect(e.do(req{method: "POST", path: rp(fmt.Sprintf("/%d/dismissals", id)), token: e.bob, body: map[string]any{"message": "no"}}), 403, "Must be repo admin")
	d := e.send(e.alice, "POST", rp(fmt.Sprintf("/%d/dismissals", id)), map[string]any{"message": "outdated"}, 200).json(t)
	assert.Equal(t, true, d["dismissed"])
	u := e.send(e.alice, "POST", rp(fmt.Sprintf("/%d/undismissals", id)), nil, 200).json(t)
	assert.Equal(t, false, u["dismissed"])

	// Review requests: bob is asked; an unknown user is 404.
	reqs := e.send(e.alice, "POST", e.pullPath(1, "/requested_reviewers"), map[string]any{"reviewers": []string{"bob"}}, 201).list(t)
	require.Len(t, reqs, 1)
	assert.Equal(t, "REQUEST_REVIEW", reqs[0]["state"])
	assert.Equal(t, "bob", reqs[0]["user"].(map[string]any)["login"])
	pr := e.getPull(1)
	require.Len(t, pr["requested_reviewers"], 1)
	e.expect(e.do(req{method: "POST", path: e.pullPath(1, "/requested_reviewers"), token: e.alice, body: map[string]any{"reviewers": []string{"ghost"}}}), 404, "User 'ghost' not exist")
	// Forgejo's 422 ErrNotValidReviewRequest, naming the doer: eve only
	// reads; bob (a writer, not an admin) may not withdraw alice's request.
	eveID := num(e.send(e.eve, "GET", "/api/v1/user", nil, 200).json(t)["id"])
	bobID := num(e.send(e.bob, "GET", "/api/v1/user", nil, 200).json(t)["id"])
	repoID := num(e.send(e.alice, "GET", e.proj, nil, 200).json(t)["id"])
	e.expect(e.do(req{method: "POST", path: e.pullPath(1, "/requested_reviewers"), token: e.eve, body: map[string]any{"reviewers": []string{"bob"}}}), 422,
		fmt.Sprintf("Doer can't choose reviewer [user_id: %d, repo_id: %d]", eveID, repoID))
	e.expect(e.do(req{method: "DELETE", path: e.pullPath(1, "/requested_reviewers"), token: e.eve, body: map[string]any{"reviewers": []string{"bob"}}}), 422,
		fmt.Sprintf("Doer is not admin [user_id: %d, repo_id: %d]", eveID, repoID))
	e.expect(e.do(req{method: "POST", path: e.pullPath(1, "/requested_reviewers"), token: e.bob, body: map[string]any{"reviewers": []string{"alice"}}}), 422,
		fmt.Sprintf("poster of pr can't be reviewer [user_id: %d, repo_id: %d]", bobID, repoID))
	e.send(e.alice, "DELETE", e.pullPath(1, "/requested_reviewers"), map[string]any{"reviewers": []string{"bob"}}, 204)
	for _, r := range e.send(e.alice, "GET", rp(""), nil, 200).list(t) {
		assert.NotEqual(t, "REQUEST_REVIEW", r["state"], "the request is gone")
	}
	// bob stays in requested_reviewers: Forgejo lists every reviewer's
	// latest approval, rejection or request (LoadRequestedReviewers).
	assert.Len(t, e.getPull(1)["requested_reviewers"], 1)

	// Deletion: the reviewer (or an admin); eve may not.
	e.expect(e.do(req{method: "DELETE", path: rp(fmt.Sprintf("/%d", id)), token: e.eve}), 403, "")
	e.send(e.bob, "DELETE", rp(fmt.Sprintf("/%d", id)), nil, 204)
	e.expect(e.do(req{method: "GET", path: rp(fmt.Sprintf("/%d", id)), token: e.bob}), 404, "")
	e.expect(e.do(req{method: "GET", path: rp("/x"), token: e.bob}), 404, "")
}
