package httpapi_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestConcurrentContentsWrites: writers of different files to one branch
// through the contents API all succeed (201), and the branch holds them all.
func TestConcurrentContentsWrites(t *testing.T) {
	t.Parallel()
	e, tok := repoEnv(t, "sha1")
	api := e.srv.URL + "/api/v1/repos/alice/proj"
	const writers = 8
	var wg sync.WaitGroup
	status := make([]int, writers)
	bodies := make([]string, writers)
	for i := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			body, _ := json.Marshal(map[string]any{"content": b64(fmt.Sprintf("file %d\n", i))})
			hr, err := http.NewRequest("POST", fmt.Sprintf("%s/contents/w/f%d.txt", api, i), bytes.NewReader(body))
			if err != nil {
				bodies[i] = err.Error()
				return
			}
			hr.Header.Set("Content-Type", "application/json")
			hr.Header.Set("Authorization", "token "+tok)
			res, err := http.DefaultClient.Do(hr)
			if err != nil {
				bodies[i] = err.Error()
				return
			}
			defer res.Body.Close()
			b, _ := io.ReadAll(res.Body)
			status[i], bodies[i] = res.StatusCode, string(b)
		}()
	}
	wg.Wait()
	for i := range writers {
		assert.Equal(t, http.StatusCreated, status[i], "writer %d: %s", i, bodies[i])
	}
	r := e.do(req{method: "GET", path: "/api/v1/repos/alice/proj/contents/w", token: tok})
	e.expect(r, http.StatusOK, "")
	list := r.list(t)
	require.Len(t, list, writers)
	for _, c := range list {
		assert.Len(t, c["last_commit_sha"], 40, c["name"])
	}
}
