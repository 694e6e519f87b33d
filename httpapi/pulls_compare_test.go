package httpapi_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPullCompareAndFiles: GET /compare/{basehead} with "..." and a fork's
// "owner:branch" head, files=false; GET /pulls/{index}/files paged, with
// X-Total-Count and Link.
func TestPullCompareAndFiles(t *testing.T) {
	t.Parallel()
	e, w := seededPulls(t)
	cmp := e.send(e.alice, "GET", e.proj+"/compare/main...b1", nil, 200).json(t)
	assert.EqualValues(t, 1, cmp["total_commits"])
	commits := cmp["commits"].([]any)
	require.Len(t, commits, 1)
	c := commits[0].(map[string]any)
	assert.Equal(t, w.git("rev-parse", "b1"), c["sha"])
	assert.NotNil(t, c["files"])
	assert.NotNil(t, c["stats"])
	var names []any
	for _, f := range cmp["files"].([]any) {
		names = append(names, f.(map[string]any)["filename"])
	}
	assert.ElementsMatch(t, []any{"a.txt", "new.txt"}, names)
	bare := e.send(e.alice, "GET", e.proj+"/compare/main...b1?files=false", nil, 200).json(t)
	assert.Nil(t, bare["commits"].([]any)[0].(map[string]any)["files"])

	// A fork's branch.
	e.send(e.bob, "POST", e.proj+"/forks", map[string]any{}, 202)
	fork := e.work("bob", e.bob, "bob", "proj", "")
	fork.git("fetch", "-q", w.dir, "main")
	fork.git("checkout", "-q", "-b", "f1", "FETCH_HEAD")
	head := fork.commit("in the fork", map[string]string{"f.txt": "f\n"})
	fork.push("f1")
	fc := e.send(e.alice, "GET", e.proj+"/compare/main...bob:f1", nil, 200).json(t)
	assert.EqualValues(t, 1, fc["total_commits"])
	assert.Equal(t, head, fc["commits"].([]any)[0].(map[string]any)["sha"])
	e.expect(e.do(req{method: "GET", path: e.proj + "/compare/main...bob:nope", token: e.alice}), 404, "")
	e.expect(e.do(req{method: "GET", path: e.proj + "/compare/main", token: e.alice}), 404, "")

	// Files of a pull request with 5 changed files, 2 a page.
	w.git("checkout", "-q", "-b", "five", "main")
	w.commit("five files", map[string]string{"f1": "1\n", "f2": "2\n", "f3": "3\n", "f4": "4\n", "f5": "5\n"})
	w.push("five")
	n := num(e.newPull(e.alice, "five", "main", "five")["number"])
	var all []any
	for page := 1; page <= 3; page++ {
		r := e.send(e.alice, "GET", e.pullPath(n, "/files?limit=2&page="+strconv.Itoa(page)), nil, 200)
		assert.Equal(t, "5", r.Header.Get("X-Total-Count"))
		assert.Equal(t, page < 3, strings.Contains(r.Header.Get("Link"), `rel="next"`))
		for _, f := range r.list(t) {
			all = append(all, f["filename"])
		}
	}
	assert.Equal(t, []any{"f1", "f2", "f3", "f4", "f5"}, all)
}
