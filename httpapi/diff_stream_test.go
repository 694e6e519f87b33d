package httpapi_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/storage/gitstore"
)

// F6: .diff and .patch of a 40 MB change stream git's output to the
// response: serving them allocates a few MB, not the size of the diff.
// Not parallel: it measures the process's allocations.
func TestDiffAndPatchStream(t *testing.T) {
	var store *gitstore.Store
	e := newEnvWith(t, func(c *repos.Config) { store = c.Git.(*gitstore.Store) })
	e.createUser("alice")
	tok := e.token("alice", "all")
	r := e.do(req{method: "POST", path: "/api/v1/user/repos", token: tok, body: map[string]any{"name": "proj", "auto_init": true}})
	e.expect(r, http.StatusCreated, "")
	repoID := int64(r.json(t)["id"].(float64))
	sig := repos.Signature{Name: "a", Email: "a@example.com", When: time.Unix(1700000000, 0)}
	const size = 40 << 20
	c, err := store.Apply(context.Background(), repoID, repos.ChangeSet{Branch: "main", Message: "big", Author: sig, Committer: sig,
		Files: []repos.FileOp{{Op: "create", Path: "big.txt", Content: []byte(strings.Repeat("0123456789abcde\n", size/16))}}})
	require.NoError(t, err)

	// The API itself, without the test server's contract checker (which
	// records whole responses).
	srv := httptest.NewServer(e.api)
	t.Cleanup(srv.Close)
	for _, kind := range []string{"diff", "patch"} {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		res, err := http.Get(srv.URL + "/api/v1/repos/alice/proj/git/commits/" + c.ID + "." + kind)
		require.NoError(t, err)
		n, err := io.Copy(io.Discard, res.Body)
		require.NoError(t, err)
		res.Body.Close()
		runtime.ReadMemStats(&after)
		assert.Equal(t, http.StatusOK, res.StatusCode)
		assert.Equal(t, "text/plain;charset=utf-8", res.Header.Get("Content-Type"))
		assert.Greater(t, n, int64(size), kind)
		assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(8<<20), kind)
	}
	// Errors before any output keep their status.
	e.expect(e.do(req{method: "GET", path: "/api/v1/repos/alice/proj/git/commits/" + strings.Repeat("0", 40) + ".diff"}), http.StatusNotFound, "")
}
