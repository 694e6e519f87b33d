package httpapi_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestIssueAttachmentDownload: /attachments/{uuid} serves the bytes of an
// issue attachment to those who may read the issue; a private
// repository's attachment is 404 for strangers and anonymous callers.
func TestIssueAttachmentDownload(t *testing.T) {
	t.Parallel()
	e := newIssueEnv(t)
	e.send(e.alice, "POST", "/api/v1/user/repos", map[string]any{"name": "secret", "private": true}, 201)
	e.send(e.alice, "POST", "/api/v1/repos/alice/secret/issues", map[string]any{"title": "hidden"}, 201)
	r := e.upload(e.alice, "/api/v1/repos/alice/secret/issues/1/assets", "a.txt", "private bytes", nil)
	e.expect(r, 201, "")
	uuid := r.json(t)["uuid"].(string)

	mux := http.NewServeMux()
	mux.Handle("GET /attachments/{uuid}", e.api.DownloadAttachments())
	srv := httptest.NewServer(checked(t, mux))
	t.Cleanup(srv.Close)
	get := func(tok string) (int, string) {
		t.Helper()
		rq, err := http.NewRequest("GET", srv.URL+"/attachments/"+uuid, nil)
		require.NoError(t, err)
		if tok != "" {
			rq.Header.Set("Authorization", "token "+tok)
		}
		res, err := http.DefaultClient.Do(rq)
		require.NoError(t, err)
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	code, body := get(e.alice)
	assert.Equal(t, 200, code)
	assert.Equal(t, "private bytes", body)
	for _, tok := range []string{e.eve, ""} {
		code, _ = get(tok)
		assert.Equal(t, 404, code, "a stranger")
	}
	code, _ = get(e.root)
	assert.Equal(t, 200, code, "the site administrator")
	assert.EqualValues(t, 2, e.send(e.alice, "GET", "/api/v1/repos/alice/secret/issues/1/assets", nil, 200).list(t)[0]["download_count"])
}
