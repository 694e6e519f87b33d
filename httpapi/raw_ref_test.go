package httpapi_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestRawRefInPath: GET /raw/{path} and /media/{path} without `ref` read a
// leading branch (the shortest run of components naming one, slashes
// included), else tag, else full commit id of the path as the revision, as
// Forgejo's RepoRefForAPI does; without one the path is read on the
// default branch; `ref` given, the whole path is the file's.
func TestRawRefInPath(t *testing.T) {
	t.Parallel()
	e, tok := repoEnv(t, "sha1")
	api := "/api/v1/repos/alice/proj"
	write := func(method, file, content string, extra map[string]any) map[string]any {
		body := map[string]any{"content": b64(content)}
		for k, v := range extra {
			body[k] = v
		}
		r := e.do(req{method: method, path: api + "/contents/" + file, token: tok, body: body})
		if method == "POST" {
			e.expect(r, http.StatusCreated, "")
		} else {
			e.expect(r, http.StatusOK, "")
		}
		return r.json(t)
	}
	first := write("POST", "notes.txt", "first\n", nil)
	commit := first["commit"].(map[string]any)["sha"].(string)
	e.expect(e.do(req{method: "POST", path: api + "/tags", token: tok, body: map[string]any{"tag_name": "v1"}}), http.StatusCreated, "")
	write("PUT", "notes.txt", "second\n", map[string]any{"sha": first["content"].(map[string]any)["sha"]})
	write("POST", "only.txt", "on the branch\n", map[string]any{"new_branch": "feature/x"})
	write("POST", "main/inner.txt", "a directory named main\n", nil)

	for _, kind := range []string{"raw", "media"} {
		for _, tt := range []struct {
			path   string
			status int
			body   string
		}{
			{"notes.txt", 200, "second\n"},
			{"main/notes.txt", 200, "second\n"},
			{"v1/notes.txt", 200, "first\n"},
			{commit + "/notes.txt", 200, "first\n"},
			{"feature/x/only.txt", 200, "on the branch\n"},
			{"feature/x/notes.txt", 200, "second\n"},
			// main is a branch: main/inner.txt is inner.txt on main.
			{"main/main/inner.txt", 200, "a directory named main\n"},
			{"main/inner.txt", 404, ""},
			{"nobranch/notes.txt", 404, ""},
			{"v1/only.txt", 404, ""},
			{"0123456789abcdef0123456789abcdef01234567/notes.txt", 404, ""},
			{"notes.txt?ref=v1", 200, "first\n"},
			{"main/notes.txt?ref=main", 404, ""},
			{"main/inner.txt?ref=main", 200, "a directory named main\n"},
		} {
			r := e.do(req{method: "GET", path: api + "/" + kind + "/" + tt.path, token: tok})
			if assert.Equal(t, tt.status, r.StatusCode, "%s %s: %s", kind, tt.path, r.body) && tt.status == 200 {
				assert.Equal(t, tt.body, string(r.body), "%s %s", kind, tt.path)
			}
		}
	}
}
