package hookhttp_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge/hooks"
	"github.com/hearthforge/hearth/forge/hooks/hookhttp"
)

// TestPolicyAtConnect: the address dialled is judged, however the URL
// names it: "localhost" resolves to loopback and is refused by the
// default policy; allowed by "loopback" or by a name glob. Redirects are
// not followed.
func TestPolicyAtConnect(t *testing.T) {
	t.Parallel()
	hits := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits++
		if r.URL.Path == "/redirect" {
			http.Redirect(w, r, "/elsewhere", http.StatusFound)
			return
		}
		_, _ = w.Write([]byte("fine"))
	}))
	t.Cleanup(srv.Close)
	u, err := url.Parse(srv.URL)
	require.NoError(t, err)
	byName := "http://localhost:" + u.Port()
	send := func(list []string, target string) (hooks.Response, error) {
		p, err := hooks.ParseAddressPolicy(list)
		require.NoError(t, err)
		return hookhttp.New(p).Send(context.Background(), hooks.Request{Method: "POST", URL: target, Header: map[string]string{"X-A": "b"}, Body: []byte("{}")})
	}
	for _, target := range []string{srv.URL, byName} {
		_, err := send(nil, target)
		require.Error(t, err, target)
		assert.Contains(t, err.Error(), "is not an allowed host")
		_, err = send([]string{"private", "10.0.0.0/8"}, target)
		require.Error(t, err, target)
	}
	assert.Zero(t, hits, "nothing reached the receiver")
	resp, err := send([]string{"loopback"}, byName)
	require.NoError(t, err)
	assert.Equal(t, 200, resp.Status)
	assert.Equal(t, "fine", resp.Body)
	resp, err = send([]string{"localhost"}, byName+"/redirect")
	require.NoError(t, err, "a name glob allows the host by name")
	assert.Equal(t, http.StatusFound, resp.Status, "redirects are not followed")
	assert.Equal(t, 2, hits)
}
