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

// TestSpecialAddressesRefusedAtConnect: under the default policy the
// special-purpose addresses issue 24 reached — carrier-grade NAT (and the
// metadata address it holds), 0.0.0.0/8, the IPv4-compatible and NAT64
// forms of loopback — are refused at connect time, as is the loopback
// receiver behind them: nothing reaches it.
func TestSpecialAddressesRefusedAtConnect(t *testing.T) {
	t.Parallel()
	hits := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits++ }))
	t.Cleanup(srv.Close)
	u, err := url.Parse(srv.URL)
	require.NoError(t, err)
	p, err := hooks.ParseAddressPolicy(nil)
	require.NoError(t, err)
	s := hookhttp.New(p)
	for _, host := range []string{"100.64.0.1", "100.100.100.200", "0.0.0.0", "0.1.2.3", "[::127.0.0.1]", "[64:ff9b::7f00:1]",
		"[::ffff:127.0.0.1]", "[2002:7f00:1::1]", "[::]", "198.18.0.1", "240.0.0.1"} {
		_, err := s.Send(context.Background(), hooks.Request{Method: "POST", URL: "http://" + host + ":" + u.Port() + "/", Body: []byte("{}")})
		require.Error(t, err, host)
		assert.Contains(t, err.Error(), "is not an allowed host", host)
	}
	assert.Zero(t, hits)
}
