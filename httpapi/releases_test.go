package httpapi_test

import (
	"bytes"
	"io"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestReleasesAndAssets(t *testing.T) {
	t.Parallel()
	e, tok := repoEnv(t, "")
	e.createUser("gil")
	gil := e.token("gil", "all")
	base := "/api/v1/repos/alice/proj/releases"

	r := e.do(req{method: "POST", path: base, token: tok, body: map[string]any{"tag_name": "v1.0", "name": "One", "body": "notes"}})
	e.expect(r, http.StatusCreated, "")
	rel := r.json(t)
	id := itoa(rel["id"])
	assert.Equal(t, "v1.0", rel["tag_name"])
	assert.Equal(t, "main", rel["target_commitish"])
	assert.Equal(t, "alice", rel["author"].(map[string]any)["login"])
	e.expect(e.do(req{method: "GET", path: "/api/v1/repos/alice/proj/tags/v1.0"}), http.StatusOK, "")
	e.expect(e.do(req{method: "POST", path: base, token: tok, body: map[string]any{"tag_name": "v1.0"}}), http.StatusConflict, "")
	e.expect(e.do(req{method: "POST", path: base, token: gil, body: map[string]any{"tag_name": "v9"}}), http.StatusForbidden,
		"user should have a permission to write to a repo")

	r = e.do(req{method: "POST", path: base, token: tok, body: map[string]any{"tag_name": "v2.0-rc", "draft": true}})
	e.expect(r, http.StatusCreated, "")
	draft := itoa(r.json(t)["id"])
	e.expect(e.do(req{method: "GET", path: "/api/v1/repos/alice/proj/tags/v2.0-rc"}), http.StatusNotFound, "") // drafts create no tag
	assert.Len(t, e.do(req{method: "GET", path: base}).list(t), 1, "others do not see drafts")
	assert.Len(t, e.do(req{method: "GET", path: base, token: tok}).list(t), 2)
	e.expect(e.do(req{method: "GET", path: base + "/" + draft}), http.StatusNotFound, "")
	r = e.do(req{method: "GET", path: base + "/latest"})
	e.expect(r, http.StatusOK, "")
	assert.Equal(t, "v1.0", r.json(t)["tag_name"])

	// Upload: multipart and raw bodies, then download.
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	fw, _ := mw.CreateFormFile("attachment", "tool-linux.tar.gz")
	fw.Write([]byte("binary bytes"))
	mw.Close()
	r = e.do(req{method: "POST", path: base + "/" + id + "/assets", token: tok, body: body.Bytes(),
		header: map[string]string{"Content-Type": mw.FormDataContentType()}})
	e.expect(r, http.StatusCreated, "")
	asset := r.json(t)
	assert.Equal(t, "tool-linux.tar.gz", asset["name"])
	assert.EqualValues(t, 12, asset["size"])
	assert.Equal(t, "attachment", asset["type"])
	r = e.do(req{method: "POST", path: base + "/" + id + "/assets?name=checksums.txt", token: tok, body: "abc  tool\n",
		header: map[string]string{"Content-Type": "application/octet-stream"}})
	e.expect(r, http.StatusCreated, "")
	sums := itoa(r.json(t)["id"])

	dl, err := http.Get(asset["browser_download_url"].(string))
	require.NoError(t, err)
	got, _ := io.ReadAll(dl.Body)
	dl.Body.Close()
	assert.Equal(t, http.StatusOK, dl.StatusCode)
	assert.Equal(t, "binary bytes", string(got))

	r = e.do(req{method: "GET", path: base + "/" + id})
	assets := r.json(t)["assets"].([]any)
	require.Len(t, assets, 2)
	assert.EqualValues(t, 1, assets[0].(map[string]any)["download_count"])

	r = e.do(req{method: "PATCH", path: base + "/" + id + "/assets/" + sums, token: tok, body: map[string]any{"name": "SHA256SUMS"}})
	e.expect(r, http.StatusCreated, "")
	assert.Equal(t, "SHA256SUMS", r.json(t)["name"])
	assert.Equal(t, sums, itoa(r.json(t)["id"]), "the asset named by {attachment_id} is edited")
	e.expect(e.do(req{method: "DELETE", path: base + "/" + id + "/assets/" + sums, token: tok}), http.StatusNoContent, "")
	left := e.do(req{method: "GET", path: base + "/" + id + "/assets"}).list(t)
	require.Len(t, left, 1)
	assert.NotEqual(t, sums, itoa(left[0]["id"]), "the asset named by {attachment_id} is deleted")

	r = e.do(req{method: "PATCH", path: base + "/" + draft, token: tok, body: map[string]any{"draft": false, "name": "Two RC"}})
	e.expect(r, http.StatusOK, "")
	assert.Equal(t, false, r.json(t)["draft"])
	e.expect(e.do(req{method: "GET", path: "/api/v1/repos/alice/proj/tags/v2.0-rc"}), http.StatusOK, "") // publishing creates the tag

	e.expect(e.do(req{method: "DELETE", path: base + "/tags/v2.0-rc", token: tok}), http.StatusNoContent, "")
	e.expect(e.do(req{method: "GET", path: "/api/v1/repos/alice/proj/tags/v2.0-rc"}), http.StatusOK, "") // the tag stays
	e.expect(e.do(req{method: "DELETE", path: base + "/" + id, token: tok}), http.StatusNoContent, "")
	dl, err = http.Get(asset["browser_download_url"].(string))
	require.NoError(t, err)
	dl.Body.Close()
	assert.Equal(t, http.StatusNotFound, dl.StatusCode, "assets go with their release")
	assert.True(t, strings.HasPrefix(asset["browser_download_url"].(string), e.srv.URL+"/attachments/"))
}
