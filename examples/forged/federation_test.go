package main

import (
	"io"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestFederationFlag: federation is off by default (Forgejo's [federation]
// ENABLED): /nodeinfo and the instance actor are unknown routes. With
// -federation they are served, and the instance key made on the first
// start is kept in the data directory: a restart publishes the same key.
func TestFederationFlag(t *testing.T) {
	t.Parallel()
	o, err := parseFlags(nil, func(string) string { return "" }, io.Discard)
	require.NoError(t, err)
	assert.False(t, o.federation, "off by default, as Forgejo")

	off := start(t, filepath.Join(t.TempDir(), "data"), nil)
	for _, p := range []string{"/api/v1/nodeinfo", "/api/v1/activitypub/actor"} {
		assert.Equal(t, 404, off.do(t, call{method: "GET", path: p}).status, p)
	}

	data := filepath.Join(t.TempDir(), "data")
	s := start(t, data, nil, "-federation")
	r := s.do(t, call{method: "GET", path: "/api/v1/nodeinfo"})
	require.Equal(t, 200, r.status, "%s", r.raw)
	assert.Equal(t, "2.1", r.body["version"])
	r = s.do(t, call{method: "GET", path: "/api/v1/activitypub/actor"})
	require.Equal(t, 200, r.status, "%s", r.raw)
	key := r.body["publicKey"].(map[string]any)["publicKeyPem"]
	require.NotEmpty(t, key)
	assert.FileExists(t, filepath.Join(data, "federation", "actor.pem"))
	require.NoError(t, s.stop())

	s = start(t, data, nil, "-federation")
	r = s.do(t, call{method: "GET", path: "/api/v1/activitypub/actor"})
	require.Equal(t, 200, r.status, "%s", r.raw)
	assert.Equal(t, key, r.body["publicKey"].(map[string]any)["publicKeyPem"], "the instance key is kept across restarts")
}
