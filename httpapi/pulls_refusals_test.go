package httpapi_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPullRefusals: the bad requests of the pull-request routes and
// Forgejo's answers; a refused request changes nothing.
func TestPullRefusals(t *testing.T) {
	t.Parallel()
	e, w := seededPulls(t)
	post := func(tok string, body map[string]any) resp {
		return e.do(req{method: "POST", path: e.proj + "/pulls", token: tok, body: body})
	}

	e.expect(post(e.alice, map[string]any{"head": "b1", "base": "main"}), 422, "[Title]: Required")
	e.expect(post(e.alice, map[string]any{"base": "main", "title": "x"}), 422, "[Head]: Required")
	e.expect(post(e.alice, map[string]any{"head": "main", "base": "main", "title": "same"}), 422,
		"Invalid PullRequest: There are no changes between the head and the base")
	e.expect(post(e.alice, map[string]any{"head": "nope", "base": "main", "title": "x"}), 404, "")
	e.expect(post(e.alice, map[string]any{"head": "b1", "base": "nope", "title": "x"}), 404, "")
	e.expect(post(e.alice, map[string]any{"head": "ghost:b1", "base": "main", "title": "x"}), 404, "")
	e.expect(post("", map[string]any{"head": "b1", "base": "main", "title": "x"}), 401, "")
	assert.Empty(t, e.send(e.alice, "GET", e.proj+"/pulls?state=all", nil, 200).list(t), "nothing was created")

	pr := e.newPull(e.alice, "b1", "main", "first")
	e.expect(post(e.bob, map[string]any{"head": "b1", "base": "main", "title": "again"}), 409,
		fmt.Sprintf("pull request already exists for these targets [id: %d, issue_id: 1, head_repo_id: %d, base_repo_id: %d, head_branch: b1, base_branch: main]",
			num(pr["id"]), num(pr["head"].(map[string]any)["repo_id"]), num(pr["base"].(map[string]any)["repo_id"])))

	// Merge: Do is required and one of Forgejo's styles.
	merge := func(tok string, n int, body map[string]any) resp {
		return e.do(req{method: "POST", path: e.pullPath(n, "/merge"), token: tok, body: body})
	}
	e.expect(merge(e.alice, 1, map[string]any{}), 422, "[Do]: Required")
	e.expect(merge(e.alice, 1, map[string]any{"Do": "octopus"}), 422, "[Do]: In")
	// eve reads but may not merge: 405.
	e.expect(merge(e.eve, 1, map[string]any{"Do": "merge"}), 405, "User not allowed to merge PR")
	// A disallowed style: 405.
	e.send(e.alice, "PATCH", e.proj, map[string]any{"allow_squash_merge": false}, 200)
	e.expect(merge(e.alice, 1, map[string]any{"Do": "squash"}), 405, "squash is not allowed an allowed merge style for this repository")
	// A moved head: 409.
	e.expect(merge(e.alice, 1, map[string]any{"Do": "merge", "head_commit_id": w.git("rev-parse", "main")}), 409, "")
	// A closed pull request is not found for the merge.
	e.send(e.alice, "PATCH", e.pullPath(1, ""), map[string]any{"state": "closed"}, 201)
	e.expect(merge(e.alice, 1, map[string]any{"Do": "merge"}), 404, "")
	assert.Equal(t, false, e.getPull(1)["merged"])

	// A conflicting pull request: 405, nothing merged.
	w.git("checkout", "-q", "-b", "c1", "main")
	w.commit("conflict", map[string]string{"a.txt": "1\nc1 says\n3\n"})
	w.push("c1")
	w.git("checkout", "-q", "main")
	w.commit("main moves", map[string]string{"a.txt": "1\nmain says\n3\n"})
	w.push("main")
	c := e.newPull(e.alice, "c1", "main", "conflicting")
	n := num(c["number"])
	assert.Equal(t, false, e.getPull(n)["mergeable"])
	e.expect(merge(e.alice, n, map[string]any{"Do": "merge"}), 405, "Please try again later")
	w.fetch()
	assert.Equal(t, w.git("rev-parse", "main"), w.git("rev-parse", "o/main"), "main did not move")

	// Editing: an unknown base is 404 with Forgejo's message; a merged pull
	// request's state is 412.
	e.expect(e.do(req{method: "PATCH", path: e.pullPath(n, ""), token: e.alice, body: map[string]any{"base": "nope"}}), 404,
		"new base 'nope' not exist")
	w.git("checkout", "-q", "-b", "d1", "main")
	w.commit("clean", map[string]string{"d.txt": "d\n"})
	w.push("d1")
	d := e.newPull(e.alice, "d1", "main", "mergeable")
	m := num(d["number"])
	e.send(e.alice, "POST", e.pullPath(m, "/merge"), map[string]any{"Do": "merge"}, 200)
	e.expect(e.do(req{method: "PATCH", path: e.pullPath(m, ""), token: e.alice, body: map[string]any{"state": "closed"}}), 412,
		"cannot change state of this pull request, it was already merged")

	// A private repository's pull requests are not found for strangers.
	e.send(e.alice, "PATCH", e.proj, map[string]any{"private": true}, 200)
	for _, p := range []string{e.proj + "/pulls", e.pullPath(1, ""), e.pullPath(1, "/files"), e.pullPath(1, ".diff"), e.proj + "/compare/main...b1"} {
		e.expect(e.do(req{method: "GET", path: p, token: e.eve}), 404, "")
		e.expect(e.do(req{method: "GET", path: p}), 404, "")
	}
	r := e.do(req{method: "POST", path: e.pullPath(1, "/reviews"), token: e.eve, body: map[string]any{"event": "COMMENT", "body": "hi"}})
	require.Equal(t, 404, r.StatusCode, "%s", r.body)
}
