package site_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/forge/site"
)

// siteEnv is a running forge of the tests: built from a Config, with the
// administrator root (password rootPassword), its workers running and its
// handler served on loopback until the test ends.
type siteEnv struct {
	t    *testing.T
	site *site.Site
	srv  *httptest.Server
}

const rootPassword = "root-password-1"

// startSite builds the forge of cfg, adds root, runs the workers (Run
// must return nil once the test ends) and serves the handler.
func startSite(t *testing.T, cfg site.Config) *siteEnv {
	t.Helper()
	s, err := site.New(t.Context(), cfg)
	require.NoError(t, err)
	t.Cleanup(func() { s.Close() })
	ensureRoot(t, s)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		require.NoError(t, <-done, "Run returns nil once its context ends")
	})
	srv := httptest.NewServer(s.Handler())
	t.Cleanup(srv.Close)
	return &siteEnv{t: t, site: s, srv: srv}
}

// call sends method path (under /api/v1) as root with body as JSON,
// requires the status want and returns the JSON object answered, if any.
func (e *siteEnv) call(method, path string, body any, want int) map[string]any {
	e.t.Helper()
	data, _ := json.Marshal(body)
	req, _ := http.NewRequest(method, e.srv.URL+"/api/v1"+path, bytes.NewReader(data))
	req.Header.Set("Content-Type", "application/json")
	req.SetBasicAuth("root", rootPassword)
	res, err := http.DefaultClient.Do(req)
	require.NoError(e.t, err)
	raw, _ := io.ReadAll(res.Body)
	res.Body.Close()
	require.Equal(e.t, want, res.StatusCode, "%s %s: %s", method, path, raw)
	var out map[string]any
	if len(raw) > 0 && raw[0] == '{' {
		require.NoError(e.t, json.Unmarshal(raw, &out))
	}
	return out
}

// receiver is a webhook receiver on loopback whose bodies arrive on the
// channel, with the X-Forgejo-Event header.
func receiver(t *testing.T) (url string, deliveries <-chan delivery) {
	t.Helper()
	ch := make(chan delivery, 16)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw, _ := io.ReadAll(r.Body)
		ch <- delivery{event: r.Header.Get("X-Forgejo-Event"), body: raw}
	}))
	t.Cleanup(srv.Close)
	return srv.URL, ch
}

// delivery is one webhook request a receiver got.
type delivery struct {
	event string
	body  []byte
}

// ensureRoot adds the administrator root (password rootPassword) and
// returns it as a password-signed-in actor.
func ensureRoot(t *testing.T, s *site.Site) forge.Actor {
	t.Helper()
	no := false
	_, err := s.Auth().EnsureAdmin(t.Context(), auth.CreateUserOptions{Name: "root", Email: "root@example.com",
		Password: rootPassword, MustChangePassword: &no})
	require.NoError(t, err)
	root, err := s.Auth().Authenticate(t.Context(), auth.Credentials{Basic: true, Username: "root", Password: rootPassword})
	require.NoError(t, err)
	return root
}

// createRootRepo adds root and its initialised repository name through
// the Go API.
func createRootRepo(t *testing.T, s *site.Site, name string) {
	t.Helper()
	root := ensureRoot(t, s)
	_, err := s.Repos().Create(t.Context(), root, "root", repos.CreateOptions{Name: name, AutoInit: true})
	require.NoError(t, err)
}
