package httpapi_test

import (
	"net/http"
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestCommitsPathIsAPathNotAPathspec: the commits listing's `path` filter is
// a path in the tree: `..` and paths leaving the root never reach git as
// such (they answered 500 and logged the server's directory), and pathspec
// magic or globs match nothing rather than everything.
func TestCommitsPathIsAPathNotAPathspec(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.createUser("alice")
	tok := e.token("alice", "write:repository", "write:user")
	e.expect(e.do(req{method: "POST", path: "/api/v1/user/repos", token: tok, body: map[string]any{"name": "proj", "auto_init": true}}),
		http.StatusCreated, "")

	r := e.do(req{method: "GET", path: "/api/v1/repos/alice/proj/commits?path=README.md"})
	e.expect(r, http.StatusOK, "")
	assert.Len(t, r.list(t), 1, "a real path filters")
	for _, p := range []string{"..", "../x", "../../../../etc", ":(top)", ":!x", ":(glob)*", "*", "READ*"} {
		r := e.do(req{method: "GET", path: "/api/v1/repos/alice/proj/commits?path=" + url.QueryEscape(p)})
		e.expect(r, http.StatusOK, "")
		assert.Empty(t, r.list(t), "path %q matches no file", p)
	}
	r = e.do(req{method: "GET", path: "/api/v1/repos/alice/proj/commits?path=" + url.QueryEscape("x/../README.md")})
	e.expect(r, http.StatusOK, "")
	assert.Len(t, r.list(t), 1, "a path is cleaned as contents paths are")
}
