package httpapi_test

import (
	"encoding/base64"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func b64(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }

// TestContentsPathsChecked: the path that is checked is the path that is
// written; what Forgejo refuses is refused with its message, and nothing
// is committed.
func TestContentsPathsChecked(t *testing.T) {
	t.Parallel()
	e, tok := repoEnv(t, "sha1")
	api := "/api/v1/repos/alice/proj"
	r := e.do(req{method: "POST", path: api + "/contents/docs/guide.md", token: tok, body: map[string]any{"content": b64("guide\n")}})
	e.expect(r, http.StatusCreated, "")
	readme := e.do(req{method: "GET", path: api + "/contents/README.md", token: tok}).json(t)
	head := e.do(req{method: "GET", path: api + "/branches/main", token: tok}).json(t)["commit"].(map[string]any)["id"]

	multi := func(op, path, from, sha string) resp {
		return e.do(req{method: "POST", path: api + "/contents", token: tok, body: map[string]any{
			"files": []map[string]any{{"operation": op, "path": path, "from_path": from, "sha": sha, "content": b64("evil\n")}}}})
	}
	for _, tt := range []struct {
		name string
		r    resp
		msg  string
	}{
		{"dot-dot create over a file", multi("create", "x/../README.md", "", ""), "repository file already exists [path: README.md]"},
		{"dot-dot over a directory", multi("create", "x/../docs", "", ""), "a directory exists where you’re trying to create a file [path: docs]"},
		{".git component", e.do(req{method: "POST", path: api + "/contents/.git/config", token: tok, body: map[string]any{"content": b64("x")}}),
			"path contains a malformed path component [path: .git/config]"},
		{".GIT component", multi("create", "a/.GIT/hooks", "", ""), "path contains a malformed path component [path: a/.GIT/hooks]"},
		{"newline", multi("create", "a\nb", "", ""), "path contains a malformed path component [path: a\nb]"},
		{"over-long", multi("create", strings.Repeat("a", 256), "", ""), "path contains a malformed path component [path: " + strings.Repeat("a", 256) + "]"},
		{"through a file", multi("create", "README.md/x", "", ""), "a file exists where you’re trying to create a subdirectory [path: README.md]"},
		{"file over a directory", multi("create", "docs", "", ""), "a directory exists where you’re trying to create a file [path: docs]"},
		{"update over a directory", multi("update", "docs", "", readme["sha"].(string)), "a directory exists where you’re trying to create a file [path: docs]"},
		{"from_path injecting an index entry", multi("update", "new.md", "README.md\n120000 "+readme["sha"].(string)+"\tlink", readme["sha"].(string)),
			"path contains a malformed path component [path: README.md\n120000 " + readme["sha"].(string) + "\tlink]"},
		{"move onto a file", multi("update", "docs/guide.md", "README.md", readme["sha"].(string)), "repository file already exists [path: docs/guide.md]"},
		{"author with a newline", e.do(req{method: "POST", path: api + "/contents/a.md", token: tok, body: map[string]any{"content": b64("x"),
			"author": map[string]any{"name": "-n\nx", "email": "a@example.com"}}}), `invalid author identity [name: "-n\nx", email: "a@example.com"]`},
		{"committer with <>", e.do(req{method: "POST", path: api + "/contents/a.md", token: tok, body: map[string]any{"content": b64("x"),
			"committer": map[string]any{"name": "x", "email": "<a@example.com>"}}}), `invalid committer identity [name: "x", email: "<a@example.com>"]`},
	} {
		e.expect(tt.r, http.StatusUnprocessableEntity, tt.msg)
	}
	after := e.do(req{method: "GET", path: api + "/branches/main", token: tok}).json(t)["commit"].(map[string]any)["id"]
	assert.Equal(t, head, after, "nothing was committed")

	// A trailing slash is the same path; the answer describes the commit.
	r = e.do(req{method: "POST", path: api + "/contents", token: tok, body: map[string]any{
		"files": []map[string]any{{"operation": "create", "path": "notes/today.md/", "content": b64("today\n")}}}})
	e.expect(r, http.StatusCreated, "")
	r = e.do(req{method: "POST", path: api + "/contents/odd/-n", token: tok, body: map[string]any{"content": b64("dash\n"),
		"author": map[string]any{"name": "-n", "email": "-o@example.com"}, "message": "-n\n"}})
	e.expect(r, http.StatusCreated, "")
	got := r.json(t)
	assert.Equal(t, "odd/-n", got["content"].(map[string]any)["path"])
	assert.Equal(t, "-n", got["commit"].(map[string]any)["author"].(map[string]any)["name"])
}

// TestRawIsSandboxedUserContent: markup from a repository never comes back
// as an active type on the API's origin.
func TestRawIsSandboxedUserContent(t *testing.T) {
	t.Parallel()
	e, tok := repoEnv(t, "sha1")
	api := "/api/v1/repos/alice/proj"
	files := map[string]string{
		"x.html": "<html><body><script>alert(document.cookie)</script></body></html>\n",
		"x.svg":  `<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(2)</script></svg>`,
		"x.xml":  `<?xml version="1.0"?><x xmlns:html="http://www.w3.org/1999/xhtml"><html:script>alert(3)</html:script></x>`,
	}
	for name, content := range files {
		r := e.do(req{method: "POST", path: api + "/contents/" + name, token: tok, body: map[string]any{"content": b64(content)}})
		e.expect(r, http.StatusCreated, "")
	}
	for name, content := range files {
		for _, kind := range []string{"raw", "media"} {
			r := e.do(req{method: "GET", path: api + "/" + kind + "/" + name, token: tok})
			e.expect(r, http.StatusOK, "")
			assert.Equal(t, "text/plain; charset=utf-8", r.Header.Get("Content-Type"), name)
			assert.Equal(t, "default-src 'none'; sandbox", r.Header.Get("Content-Security-Policy"), name)
			assert.Equal(t, "nosniff", r.Header.Get("X-Content-Type-Options"), name)
			assert.Equal(t, `inline; filename="`+name+`"; filename*=UTF-8''`+name, r.Header.Get("Content-Disposition"))
			assert.Equal(t, content, string(r.body))
		}
	}
	// A directory is not a file.
	r := e.do(req{method: "GET", path: api + "/raw/", token: tok})
	assert.Equal(t, http.StatusNotFound, r.StatusCode)
}

// TestHugePagesNeverOverflow: a huge page on any list answers, empty.
func TestHugePagesNeverOverflow(t *testing.T) {
	t.Parallel()
	e, tok := repoEnv(t, "sha1")
	api := "/api/v1/repos/alice/proj"
	const huge = "9223372036854775807"
	for _, p := range []string{
		"/branches?page=" + huge, "/branches?page=" + huge + "&limit=" + huge,
		"/tags?page=" + huge, "/commits?page=" + huge + "&limit=50",
		"/git/trees/main?page=" + huge + "&per_page=" + huge, "/git/trees/main?page=" + huge,
	} {
		r := e.do(req{method: "GET", path: api + p, token: tok})
		e.expect(r, http.StatusOK, "")
		if strings.HasPrefix(p, "/git/trees") {
			assert.Empty(t, r.json(t)["tree"], p)
		} else {
			assert.Empty(t, r.list(t), p)
		}
	}
}
