package httpapi_test

import (
	"encoding/base64"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// F5: every path git would silently drop (core.protectNTFS/protectHFS) is
// refused with 422 through both file endpoints, and nothing is committed;
// a NUL in a path reports the path, not the message.
func TestContentsRefusesPathsGitIgnores(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.createUser("alice")
	alice := e.token("alice", "all")
	e.expect(e.do(req{method: "POST", path: "/api/v1/user/repos", token: alice, body: map[string]any{"name": "pub", "auto_init": true}}),
		http.StatusCreated, "")
	R := "/api/v1/repos/alice/pub"
	head := func() string {
		return e.do(req{method: "GET", path: R + "/branches/main", token: alice}).json(t)["commit"].(map[string]any)["id"].(string)
	}
	before := head()
	content := base64.StdEncoding.EncodeToString([]byte("x"))
	for _, p := range []string{"git~1/config", "GIT~1/x", "d/git~1/x", ".git.", ".git ", ".git...",
		".git::$INDEX_ALLOCATION/x", ".g\u200cit/x", "a\x00b"} {
		msg := "path contains a malformed path component [path: " + p + "]"
		e.expect(e.do(req{method: "POST", path: R + "/contents", token: alice, body: map[string]any{
			"files": []map[string]any{{"operation": "create", "path": p, "content": content}}}}), http.StatusUnprocessableEntity, msg)
		if !strings.ContainsRune(p, 0) {
			esc := strings.ReplaceAll(url.PathEscape(p), "%2F", "/")
			e.expect(e.do(req{method: "POST", path: R + "/contents/" + esc, token: alice, body: map[string]any{"content": content}}),
				http.StatusUnprocessableEntity, msg)
		}
		assert.Equal(t, before, head(), "%q committed something", p)
	}
}
