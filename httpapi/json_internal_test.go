package httpapi

import (
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCallJSONBody checks call.json over a real server: the body is
// json.Marshal's bytes and a newline, sent with a Content-Length that
// matches (not chunked), for bodies under and over net/http's 2 KiB
// response buffer and the pool's 64 KiB; concurrent answers never share a
// buffer; a value that does not encode is a 500 with no partial body.
func TestCallJSONBody(t *testing.T) {
	t.Parallel()
	a := &API{log: slog.New(slog.DiscardHandler)}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c := a.newCall(w, r)
		if r.URL.Query().Has("bad") {
			c.json(http.StatusOK, map[string]any{"f": func() {}})
			return
		}
		n, _ := strconv.Atoi(r.URL.Query().Get("n"))
		c.json(http.StatusCreated, map[string]any{"text": strings.Repeat("<x>", n), "n": n})
	}))
	t.Cleanup(srv.Close)

	get := func(query string) (*http.Response, []byte) {
		res, err := srv.Client().Get(srv.URL + "/?" + query)
		require.NoError(t, err)
		defer res.Body.Close()
		body, err := io.ReadAll(res.Body)
		require.NoError(t, err)
		return res, body
	}
	var wg sync.WaitGroup
	for _, n := range []int{0, 10, 1000, 30000, 100000} {
		for range 4 {
			wg.Go(func() {
				res, body := get("n=" + strconv.Itoa(n))
				want, err := json.Marshal(map[string]any{"text": strings.Repeat("<x>", n), "n": n})
				require.NoError(t, err)
				assert.Equal(t, http.StatusCreated, res.StatusCode)
				assert.Equal(t, string(want)+"\n", string(body))
				assert.Equal(t, int64(len(body)), res.ContentLength)
				assert.Empty(t, res.TransferEncoding)
				assert.Equal(t, "application/json;charset=utf-8", res.Header.Get("Content-Type"))
			})
		}
	}
	wg.Wait()

	res, body := get("bad")
	assert.Equal(t, http.StatusInternalServerError, res.StatusCode)
	var e map[string]any
	require.NoError(t, json.Unmarshal(body, &e), "%s", body)
	assert.Equal(t, "", e["message"])
}
