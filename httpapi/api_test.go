package httpapi_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge/forgetest"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/httpapi"
)

// env is an API server over real services on an in-memory SQLite database,
// with an administrator "root" (password "rootpassword").
type env struct {
	t     *testing.T
	srv   *httptest.Server
	auth  *auth.Service
	clock *forgetest.FakeClock
	repos *repos.Service
	api   *httpapi.API
}

func newEnv(t *testing.T, mutate ...func(*httpapi.Config)) *env {
	t.Helper()
	return newEnvWith(t, nil, mutate...)
}

// newEnvWith is newEnv with a change to the repository service's Config.
func newEnvWith(t *testing.T, repoCfg func(*repos.Config), mutate ...func(*httpapi.Config)) *env {
	t.Helper()
	b := newBase(t, ":memory:", testSecret)
	db, clock, svc, git, blobs := b.db, b.clock, b.auth, b.git, b.blobs
	rc := repos.Config{Store: db.Repos(), Git: git, Blobs: blobs, Clock: clock}
	if repoCfg != nil {
		repoCfg(&rc)
	}
	repoSvc, err := repos.New(rc)
	require.NoError(t, err)
	cfg := httpapi.Config{Auth: svc, Repos: repoSvc, Git: git}
	for _, m := range mutate {
		m(&cfg)
	}
	return b.serve(t, cfg)
}

// req is one request to the API.
type req struct {
	method, path string
	body         any // marshalled to JSON unless a string or []byte
	token        string
	user, pass   string // basic auth when user != ""
	header       map[string]string
}

// resp is a response with its body read.
type resp struct {
	*http.Response
	body []byte
}

func (r resp) json(t *testing.T) map[string]any {
	t.Helper()
	var m map[string]any
	require.NoError(t, json.Unmarshal(r.body, &m), "body: %s", r.body)
	return m
}

func (r resp) list(t *testing.T) []map[string]any {
	t.Helper()
	var l []map[string]any
	require.NoError(t, json.Unmarshal(r.body, &l), "body: %s", r.body)
	return l
}

func (e *env) do(r req) resp {
	e.t.Helper()
	var body io.Reader
	switch b := r.body.(type) {
	case nil:
	case string:
		body = strings.NewReader(b)
	case []byte:
		body = bytes.NewReader(b)
	default:
		data, err := json.Marshal(b)
		require.NoError(e.t, err)
		body = bytes.NewReader(data)
	}
	hr, err := http.NewRequest(r.method, e.srv.URL+r.path, body)
	require.NoError(e.t, err)
	if body != nil {
		hr.Header.Set("Content-Type", "application/json")
	}
	if r.token != "" {
		hr.Header.Set("Authorization", "token "+r.token)
	}
	if r.user != "" {
		hr.SetBasicAuth(r.user, r.pass)
	}
	for k, v := range r.header {
		hr.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(hr)
	require.NoError(e.t, err)
	defer res.Body.Close()
	data, err := io.ReadAll(res.Body)
	require.NoError(e.t, err)
	return resp{res, data}
}

// expect asserts the status and, if msg is not empty, Forgejo's error body.
func (e *env) expect(r resp, status int, msg string) {
	e.t.Helper()
	require.Equal(e.t, status, r.StatusCode, "body: %s", r.body)
	if msg != "" {
		assert.Equal(e.t, msg, r.json(e.t)["message"], "body: %s", r.body)
	}
}

// createUser creates a user through the admin API and clears
// must_change_password so the user can act.
func (e *env) createUser(name string) {
	e.t.Helper()
	r := e.do(req{method: "POST", path: "/api/v1/admin/users", user: "root", pass: "rootpassword",
		body: map[string]any{"username": name, "email": name + "@example.com", "password": name + "-password",
			"must_change_password": false}})
	e.expect(r, http.StatusCreated, "")
}

// token creates a token for name (whose password is name+"-password", or
// rootpassword for root) with the scopes.
func (e *env) token(name string, scopes ...string) string {
	e.t.Helper()
	pass := name + "-password"
	if name == "root" {
		pass = "rootpassword"
	}
	r := e.do(req{method: "POST", path: "/api/v1/users/" + name + "/tokens", user: name, pass: pass,
		body: map[string]any{"name": "t" + randSuffix(), "scopes": scopes}})
	e.expect(r, http.StatusCreated, "")
	return r.json(e.t)["sha1"].(string)
}

var tokenNames atomic.Int64

func randSuffix() string { return strconv.FormatInt(tokenNames.Add(1), 10) }
