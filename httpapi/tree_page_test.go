package httpapi_test

import (
	"encoding/base64"
	"fmt"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
)

// F7: a recursive tree is paged over one streamed listing: each page
// holds its entries in listing order, total_count counts them all, and
// truncated says whether more follow.
func TestRecursiveTreePages(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.createUser("alice")
	tok := e.token("alice", "all")
	e.expect(e.do(req{method: "POST", path: "/api/v1/user/repos", token: tok, body: map[string]any{"name": "proj", "auto_init": true}}),
		http.StatusCreated, "")
	R := "/api/v1/repos/alice/proj"
	var files []map[string]any
	for i := range 300 { // wider than go-git lists
		files = append(files, map[string]any{"operation": "create", "path": fmt.Sprintf("d/f%03d.go", i),
			"content": base64.StdEncoding.EncodeToString([]byte("package d\n"))})
	}
	e.expect(e.do(req{method: "POST", path: R + "/contents", token: tok, body: map[string]any{"files": files}}), http.StatusCreated, "")

	all := e.do(req{method: "GET", path: R + "/git/trees/main?recursive=true&per_page=1000"})
	e.expect(all, http.StatusOK, "")
	whole := all.json(t)
	entries := whole["tree"].([]any)
	total := len(entries)
	assert.Equal(t, float64(total), whole["total_count"])
	assert.Equal(t, false, whole["truncated"])
	assert.Greater(t, total, 300)

	for _, page := range []int{1, 2, total, total + 1} {
		r := e.do(req{method: "GET", path: R + fmt.Sprintf("/git/trees/main?recursive=true&per_page=1&page=%d", page)})
		e.expect(r, http.StatusOK, "")
		got := r.json(t)
		assert.Equal(t, float64(total), got["total_count"], "page %d", page)
		assert.Equal(t, page < total, got["truncated"], "page %d", page)
		if page <= total {
			assert.Equal(t, []any{entries[page-1]}, got["tree"], "page %d", page)
		} else {
			assert.Empty(t, got["tree"], "page %d", page)
		}
	}
	dir := e.do(req{method: "GET", path: R + "/contents/d"})
	e.expect(dir, http.StatusOK, "")
	assert.Len(t, dir.list(t), 300)
	assert.Equal(t, float64(len("package d\n")), dir.list(t)[0]["size"])
	langs := e.do(req{method: "GET", path: R + "/languages"})
	e.expect(langs, http.StatusOK, "")
	assert.Equal(t, float64(300*len("package d\n")), langs.json(t)["Go"])
}
