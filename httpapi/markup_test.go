package httpapi_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/hearthforge/hearth/forge/markup"
	"github.com/hearthforge/hearth/forge/site"
	"github.com/hearthforge/hearth/httpapi"
	"github.com/stretchr/testify/assert"
)

// TestMarkupRoutes: /markdown, /markdown/raw and /markup render for a
// signed-in caller (text/html), mention existing users only, refuse an
// anonymous caller (401, Forgejo's reqToken) and answer an unknown mode
// or extension with Forgejo's message (422). Every answer is checked
// against the document.
func TestMarkupRoutes(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(c *httpapi.Config) { c.Markup = markup.New(markup.Config{Mentions: site.Mentions{Auth: c.Auth}}) })
	root := e.srv.URL + "/"

	r := e.do(rootReq("POST", "/markdown", map[string]any{"Mode": "comment", "Context": "root/proj", "Text": "**hi** @root @nobody #3 :tada:"}))
	e.expect(r, http.StatusOK, "")
	assert.Equal(t, "text/html; charset=utf-8", r.Header.Get("Content-Type"))
	assert.Equal(t, `<p><strong>hi</strong> <a href="`+root+`root" rel="nofollow">@root</a> @nobody `+
		`<a href="`+root+`root/proj/issues/3" class="ref-issue" rel="nofollow">#3</a> <span class="emoji" aria-label="party popper">🎉</span></p>`+"\n", string(r.body))

	// /markdown maps other modes to raw Markdown: no links made.
	r = e.do(rootReq("POST", "/markdown", map[string]any{"Mode": "whatever", "Text": "@root [[Page]]"}))
	e.expect(r, http.StatusOK, "")
	assert.Equal(t, "<p>@root [[Page]]</p>\n", string(r.body))

	r = e.do(req{method: "POST", path: "/api/v1/markdown/raw", body: "# Title\n<script>x()</script>", user: "root", pass: "rootpassword",
		header: map[string]string{"Content-Type": "text/plain"}})
	e.expect(r, http.StatusOK, "")
	assert.Equal(t, "<h1 id=\"user-content-title\">Title</h1>\n", string(r.body))

	r = e.do(rootReq("POST", "/markup", map[string]any{"Mode": "file", "FilePath": "docs/a.md", "Context": "root/proj", "Text": "[[Home]]"}))
	e.expect(r, http.StatusOK, "")
	assert.Equal(t, `<p><a href="`+root+`root/proj/wiki/Home" rel="nofollow">Home</a></p>`+"\n", string(r.body))

	r = e.do(rootReq("POST", "/markup", map[string]any{"Mode": "file", "FilePath": "path/test.unknown", "Text": "## Test"}))
	e.expect(r, http.StatusUnprocessableEntity, "Unsupported render extension: .unknown")
	r = e.do(rootReq("POST", "/markup", map[string]any{"Mode": "unknown", "Text": "## Test"}))
	e.expect(r, http.StatusUnprocessableEntity, "Unknown mode: unknown")

	// An empty text is an empty answer.
	r = e.do(rootReq("POST", "/markup", map[string]any{"Mode": "gfm"}))
	e.expect(r, http.StatusOK, "")
	assert.Empty(t, r.body)

	for _, path := range []string{"/markdown", "/markup", "/markdown/raw"} {
		r = e.do(req{method: "POST", path: "/api/v1" + path, body: map[string]any{"Text": "x"}})
		e.expect(r, http.StatusUnauthorized, "token is required")
	}
	r = e.do(rootReq("POST", "/markdown", strings.Repeat("x", 2<<20)))
	e.expect(r, http.StatusRequestEntityTooLarge, "")
}

// TestAttachmentSettings: GET /settings/attachment tells what the server
// applies: enabled with an issue service that stores attachments, the
// upload limit in MiB.
func TestAttachmentSettings(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(c *httpapi.Config) { c.MaxUploadBytes = 3<<20 + 1 })
	r := e.do(req{method: "GET", path: "/api/v1/settings/attachment"})
	e.expect(r, http.StatusOK, "")
	got := r.json(t)
	assert.Equal(t, false, got["enabled"], "no issue service")
	assert.Equal(t, float64(4), got["max_size"])
	assert.Equal(t, "*/*", got["allowed_types"])
	m := newMatrixEnv(t)
	r = m.do(req{method: "GET", path: "/api/v1/settings/attachment"})
	m.expect(r, http.StatusOK, "")
	assert.Equal(t, true, r.json(t)["enabled"])
	assert.Equal(t, float64(httpapi.DefaultMaxUploadBytes>>20), r.json(t)["max_size"])
}
