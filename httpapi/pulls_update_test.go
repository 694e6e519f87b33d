package httpapi_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestPullUpdateAndScopes: POST /pulls/{index}/update brings the head
// branch up to date by a merge and by a rebase (read back with git); an
// unknown style is 422; DELETE /merge with no scheduled merge is 404; a
// read-only token reads but may not write, an issue-only token may not
// read pull requests (repository scope).
func TestPullUpdateAndScopes(t *testing.T) {
	t.Parallel()
	e, w := seededPulls(t)
	e.newPull(e.alice, "b1", "main", "behind")
	w.git("checkout", "-q", "main")
	w.commit("main moves", map[string]string{"m.txt": "m\n"})
	w.push("main")
	w.fetch()
	mainTip := w.git("rev-parse", "o/main")

	e.expect(e.do(req{method: "POST", path: e.pullPath(1, "/update?style=squash"), token: e.alice}), 422, "")
	e.send(e.alice, "POST", e.pullPath(1, "/update"), nil, 200)
	w.fetch()
	b1 := w.git("rev-parse", "o/b1")
	assert.Equal(t, 2, len(strings.Fields(w.git("log", "-1", "--format=%P", b1))), "a merge commit")
	assert.Equal(t, b1, e.getPull(1)["head"].(map[string]any)["sha"])
	w.git("merge-base", "--is-ancestor", mainTip, b1) // exits 1 (failing the test) unless main is in b1

	// Rebase: main moves again, b1 is replayed on it (no merge commit).
	w.git("checkout", "-q", "-B", "main", "o/main")
	w.commit("main moves again", map[string]string{"m2.txt": "m2\n"})
	w.push("main")
	e.newPull(e.alice, "b2", "main", "rebase me")
	e.send(e.alice, "POST", e.pullPath(2, "/update?style=rebase"), nil, 200)
	w.fetch()
	b2 := w.git("rev-parse", "o/b2")
	assert.Equal(t, w.git("rev-parse", "o/main"), w.git("merge-base", "o/main", b2), "b2 now starts at main")
	assert.Empty(t, w.git("rev-list", "--merges", "o/main.."+b2), "no merge commit")

	e.expect(e.do(req{method: "DELETE", path: e.pullPath(1, "/merge"), token: e.alice}), 404, "")

	read := e.token("bob", "read:repository")
	e.send(read, "GET", e.proj+"/pulls", nil, 200)
	e.send(read, "GET", e.pullPath(1, ""), nil, 200)
	e.expect(e.do(req{method: "POST", path: e.proj + "/pulls", token: read, body: map[string]any{"head": "b2", "base": "b1", "title": "x"}}), 403, "")
	e.expect(e.do(req{method: "POST", path: e.pullPath(1, "/merge"), token: read, body: map[string]any{"Do": "merge"}}), 403, "")
	e.expect(e.do(req{method: "POST", path: e.pullPath(1, "/reviews"), token: read, body: map[string]any{"event": "COMMENT", "body": "x"}}), 403, "")
	issueOnly := e.token("bob", "write:issue")
	e.expect(e.do(req{method: "GET", path: e.proj + "/pulls", token: issueOnly}), 403, "")
	assert.Equal(t, false, e.getPull(1)["merged"])
}
