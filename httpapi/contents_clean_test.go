package httpapi_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestContentsPathsCleanedAsForgejo: a path of the contents API is cleaned
// as Forgejo's CleanUploadFileName does (`x/../docs/f` is `docs/f`, `./a`
// is `a`, `a//b` is `a/b`, a leading `/` or `../` goes nowhere), and the
// cleaned path is the one checked and written: a create through `..` onto
// an existing file or directory is refused as a create of the cleaned path,
// and a `.git` component left after cleaning is refused.
func TestContentsPathsCleanedAsForgejo(t *testing.T) {
	t.Parallel()
	e, tok := repoEnv(t, "sha1")
	api := "/api/v1/repos/alice/proj"
	e.expect(e.do(req{method: "POST", path: api + "/contents/docs/guide.md", token: tok, body: map[string]any{"content": b64("guide\n")}}),
		http.StatusCreated, "")
	readme := e.do(req{method: "GET", path: api + "/contents/README.md", token: tok}).json(t)
	head := func() any {
		return e.do(req{method: "GET", path: api + "/branches/main", token: tok}).json(t)["commit"].(map[string]any)["id"]
	}
	multi := func(op, path, from, sha string) resp {
		return e.do(req{method: "POST", path: api + "/contents", token: tok, body: map[string]any{
			"files": []map[string]any{{"operation": op, "path": path, "from_path": from, "sha": sha, "content": b64("evil\n")}}}})
	}
	before := head()
	for _, tt := range []struct {
		name string
		r    resp
		msg  string
	}{
		{"dot-dot create over a file", multi("create", "x/../README.md", "", ""), "repository file already exists [path: README.md]"},
		{"dot-dot create over a directory", multi("create", "x/../docs", "", ""), "a directory exists where you’re trying to create a file [path: docs]"},
		{"leading dot-dot over a file", multi("create", "../../README.md", "", ""), "repository file already exists [path: README.md]"},
		{".git after cleaning", multi("create", "x/../.git/config", "", ""), "path contains a malformed path component [path: x/../.git/config]"},
		{".GIT after cleaning", multi("create", "./a//.GIT/hooks/pre-receive", "", ""), "path contains a malformed path component [path: ./a//.GIT/hooks/pre-receive]"},
		{"nothing left", multi("create", "a/..", "", ""), "path contains a malformed path component [path: a/..]"},
		{"move onto a file through dot-dot", multi("update", "x/../docs/guide.md", "README.md", readme["sha"].(string)),
			"repository file already exists [path: docs/guide.md]"},
	} {
		t.Run(tt.name, func(t *testing.T) { e.expect(tt.r, http.StatusUnprocessableEntity, tt.msg) })
	}
	assert.Equal(t, before, head(), "nothing was committed")
	got := e.do(req{method: "GET", path: api + "/contents/README.md", token: tok}).json(t)
	assert.Equal(t, readme["sha"], got["sha"], "README.md unchanged")

	// Accepted, written at the cleaned path, and answered with it.
	for in, want := range map[string]string{
		"x/../docs/new.md": "docs/new.md",
		"./a//b.md":        "a/b.md",
		"/etc/passwd":      "etc/passwd",
		"../../outside.md": "outside.md",
	} {
		r := multi("create", in, "", "")
		e.expect(r, http.StatusCreated, "")
		files := r.json(t)["files"].([]any)
		assert.Equal(t, want, files[0].(map[string]any)["path"], in)
		r = e.do(req{method: "GET", path: api + "/contents/" + want, token: tok})
		e.expect(r, http.StatusOK, "")
		assert.Equal(t, b64("evil\n"), r.json(t)["content"], in)
	}
	// The single-file route cleans its path the same way.
	r := e.do(req{method: "POST", path: api + "/contents/c%2F..%2Fsingle.md", token: tok, body: map[string]any{"content": b64("one\n")}})
	e.expect(r, http.StatusCreated, "")
	assert.Equal(t, "single.md", r.json(t)["content"].(map[string]any)["path"])
}
