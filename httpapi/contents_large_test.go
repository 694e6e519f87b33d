package httpapi_test

import (
	"bytes"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/httpapi"
)

// TestLargeFileContents: over DefaultMaxBlobSize the contents and blob
// APIs describe the file without its content (as Forgejo), raw streams it
// whole; an empty file has empty content.
func TestLargeFileContents(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(c *httpapi.Config) { c.MaxBodyBytes = 32 << 20 })
	e.createUser("alice")
	tok := e.token("alice", "all")
	r := e.do(req{method: "POST", path: "/api/v1/user/repos", token: tok, body: map[string]any{"name": "proj", "auto_init": true}})
	e.expect(r, http.StatusCreated, "")
	api := "/api/v1/repos/alice/proj"
	big := strings.Repeat("0123456789abcde\n", (repos.DefaultMaxBlobSize/16)+1)
	r = e.do(req{method: "POST", path: api + "/contents/big.txt", token: tok, body: map[string]any{"content": b64(big)}})
	e.expect(r, http.StatusCreated, "")
	r = e.do(req{method: "POST", path: api + "/contents/empty.txt", token: tok, body: map[string]any{"content": ""}})
	e.expect(r, http.StatusCreated, "")

	r = e.do(req{method: "GET", path: api + "/contents/big.txt", token: tok})
	e.expect(r, http.StatusOK, "")
	got := r.json(t)
	assert.Nil(t, got["content"])
	assert.Equal(t, float64(len(big)), got["size"])
	r = e.do(req{method: "GET", path: api + "/git/blobs/" + got["sha"].(string), token: tok})
	e.expect(r, http.StatusOK, "")
	assert.Nil(t, r.json(t)["content"])
	assert.Equal(t, float64(len(big)), r.json(t)["size"])
	r = e.do(req{method: "GET", path: api + "/raw/big.txt", token: tok})
	e.expect(r, http.StatusOK, "")
	assert.True(t, bytes.Equal([]byte(big), r.body))

	r = e.do(req{method: "GET", path: api + "/contents/empty.txt", token: tok})
	e.expect(r, http.StatusOK, "")
	assert.Equal(t, "", r.json(t)["content"])
	assert.Equal(t, "base64", r.json(t)["encoding"])
}
