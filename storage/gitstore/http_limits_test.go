package gitstore

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
)

// TestMalformedFetchIsTheClientsError: a body git refuses as a protocol
// error is a 400, not a 500.
func TestMalformedFetchIsTheClientsError(t *testing.T) {
	t.Parallel()
	s := newHTTPStore(t)
	r := httptest.NewRequest("POST", "/x/git-upload-pack", bytes.NewReader([]byte("zzzz")))
	r.Header.Set("Content-Type", "application/x-git-upload-pack-request")
	w := httptest.NewRecorder()
	s.ServeGitRPC(w, r, 1, "git-upload-pack", false, "", nil)
	assert.Equal(t, http.StatusBadRequest, w.Code, w.Body.String())
}

// TestGitRequestsAreBounded: with every turn held by a client that sends
// its body slowly, another request is refused with 503 and Retry-After
// once it has waited Options.GitRequestWait, instead of starting one more
// git process; when the turn is given back, requests are served again.
func TestGitRequestsAreBounded(t *testing.T) {
	t.Parallel()
	s, err := OpenWith(t.TempDir(), Options{MaxGitRequests: 1, GitRequestWait: 50 * time.Millisecond})
	require.NoError(t, err)
	require.NoError(t, s.Create(context.Background(), 1, forge.SHA1, "main"))

	// The first request holds the only turn: its body never ends.
	pr, pw := io.Pipe()
	held := httptest.NewRequest("POST", "/x/git-upload-pack", pr)
	held.Header.Set("Content-Type", "application/x-git-upload-pack-request")
	done := make(chan struct{})
	go func() {
		defer close(done)
		s.ServeGitRPC(httptest.NewRecorder(), held, 1, "git-upload-pack", false, "", nil)
	}()
	_, err = pw.Write([]byte("0000"[:2])) // started: half a packet
	require.NoError(t, err)

	refused := func() *httptest.ResponseRecorder {
		w := httptest.NewRecorder()
		s.ServeGitRPC(w, httptest.NewRequest("GET", "/x/info/refs", nil), 1, "git-upload-pack", true, "", nil)
		return w
	}
	w := refused()
	assert.Equal(t, http.StatusServiceUnavailable, w.Code)
	assert.NotEmpty(t, w.Header().Get("Retry-After"))

	pw.CloseWithError(io.ErrUnexpectedEOF)
	<-done
	w = refused()
	assert.Equal(t, http.StatusOK, w.Code, "the turn was given back")
}
