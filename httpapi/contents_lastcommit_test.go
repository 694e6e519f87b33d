package httpapi_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestContentsLastCommitWhen: every ContentsResponse carries the committer
// time of the entry's last commit (Forgejo's last_commit_when), for a file,
// for each entry of a directory, and in the answer of a file change.
func TestContentsLastCommitWhen(t *testing.T) {
	t.Parallel()
	e, tok := repoEnv(t, "sha1")
	api := "/api/v1/repos/alice/proj"
	when := time.Date(2021, 3, 4, 5, 6, 7, 0, time.UTC)
	r := e.do(req{method: "POST", path: api + "/contents/docs/guide.md", token: tok, body: map[string]any{
		"content": b64("guide\n"), "dates": map[string]any{"author": when, "committer": when}}})
	e.expect(r, http.StatusCreated, "")
	created := r.json(t)
	assert.Equal(t, when.Format(time.RFC3339), created["content"].(map[string]any)["last_commit_when"])

	commitTime := func(sha string) string {
		cm := e.do(req{method: "GET", path: api + "/git/commits/" + sha, token: tok}).json(t)
		return cm["created"].(string)
	}
	file := e.do(req{method: "GET", path: api + "/contents/docs/guide.md", token: tok}).json(t)
	assert.Equal(t, when.Format(time.RFC3339), file["last_commit_when"])

	readme := e.do(req{method: "GET", path: api + "/contents/README.md", token: tok}).json(t)
	require.NotEmpty(t, readme["last_commit_sha"])
	assert.Equal(t, commitTime(readme["last_commit_sha"].(string)), readme["last_commit_when"])

	root := e.do(req{method: "GET", path: api + "/contents", token: tok}).list(t)
	require.NotEmpty(t, root)
	for _, entry := range root {
		assert.Equal(t, commitTime(entry["last_commit_sha"].(string)), entry["last_commit_when"], entry["path"])
	}
	for _, entry := range root {
		if entry["path"] == "docs" {
			assert.Equal(t, when.Format(time.RFC3339), entry["last_commit_when"])
		}
	}
}

// TestTagArchiveDownloadCount: tags (listed, read, created) and annotated
// tag objects carry archive_download_count, zeros as Hearth counts none.
func TestTagArchiveDownloadCount(t *testing.T) {
	t.Parallel()
	e, tok := repoEnv(t, "sha1")
	api := "/api/v1/repos/alice/proj"
	zero := map[string]any{"zip": float64(0), "tar_gz": float64(0)}
	r := e.do(req{method: "POST", path: api + "/tags", token: tok, body: map[string]any{"tag_name": "v1", "message": "one\n"}})
	e.expect(r, http.StatusCreated, "")
	created := r.json(t)
	assert.Equal(t, zero, created["archive_download_count"])
	assert.Equal(t, zero, e.do(req{method: "GET", path: api + "/tags/v1", token: tok}).json(t)["archive_download_count"])
	list := e.do(req{method: "GET", path: api + "/tags", token: tok}).list(t)
	require.Len(t, list, 1)
	assert.Equal(t, zero, list[0]["archive_download_count"])
	annotated := e.do(req{method: "GET", path: api + "/git/tags/" + created["id"].(string), token: tok}).json(t)
	assert.Equal(t, zero, annotated["archive_download_count"])
}
