package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// server is forged running in-process through run(), the same code path as
// main, on a loopback port.
type server struct {
	url    string
	stdout *syncBuffer
	logs   *syncBuffer
	stop   func() error
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}
func (s *syncBuffer) String() string { s.mu.Lock(); defer s.mu.Unlock(); return s.b.String() }

func start(t *testing.T, data string, env map[string]string, args ...string) *server {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	out, logs := &syncBuffer{}, &syncBuffer{}
	ready := make(chan string, 1)
	done := make(chan error, 1)
	args = append([]string{"-addr", "127.0.0.1:0", "-data", data}, args...)
	go func() {
		done <- run(ctx, args, func(k string) string { return env[k] }, out, logs, func(addr string) { ready <- addr })
	}()
	select {
	case addr := <-ready:
		s := &server{url: "http://" + addr, stdout: out, logs: logs}
		var once sync.Once
		var stopErr error
		s.stop = func() error {
			once.Do(func() { cancel(); stopErr = <-done })
			return stopErr
		}
		t.Cleanup(func() { s.stop() })
		return s
	case err := <-done:
		cancel()
		t.Fatalf("forged did not start: %v", err)
	case <-time.After(2 * time.Minute):
		cancel()
		t.Fatal("forged did not start within 2m")
	}
	return nil
}

type call struct {
	method, path string
	body         any
	header       map[string]string
	user, pass   string
}

type reply struct {
	status int
	header http.Header
	body   map[string]any
	raw    []byte
}

func (s *server) do(t *testing.T, c call) reply {
	t.Helper()
	var body io.Reader
	switch b := c.body.(type) {
	case nil:
	case string: // sent as is
		body = strings.NewReader(b)
	case json.RawMessage:
		body = bytes.NewReader(b)
	default:
		data, err := json.Marshal(b)
		require.NoError(t, err)
		body = bytes.NewReader(data)
	}
	r, err := http.NewRequest(c.method, s.url+c.path, body)
	require.NoError(t, err)
	if body != nil {
		r.Header.Set("Content-Type", "application/json")
	}
	if c.user != "" {
		r.SetBasicAuth(c.user, c.pass)
	}
	for k, v := range c.header {
		r.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(r)
	require.NoError(t, err)
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	out := reply{status: res.StatusCode, header: res.Header, raw: raw}
	if len(raw) > 0 && raw[0] == '{' {
		require.NoError(t, json.Unmarshal(raw, &out.body), "%s", raw)
	}
	return out
}

const warning = "token and access_token API authentication is deprecated and will be removed in Forgejo v13.0.0. Please use AuthorizationHeaderToken instead. Existing queries will continue to work but without authorization."

// TestEndToEnd drives the real server over loopback: admin bootstrap, user
// creation, token creation with basic auth, header and query tokens, the
// errors of a missing and a bogus token, the last-admin rule, and a restart
// on the same data directory.
func TestEndToEnd(t *testing.T) {
	t.Parallel()
	data := filepath.Join(t.TempDir(), "data")
	s := start(t, data, map[string]string{"FORGED_ADMIN_USER": "boss", "FORGED_ADMIN_PASSWORD": "boss-password"})
	admin := call{user: "boss", pass: "boss-password"}

	r := s.do(t, call{method: "GET", path: "/api/v1/version"})
	require.Equal(t, 200, r.status)
	assert.True(t, strings.HasPrefix(r.body["version"].(string), "15.0.3+hearth-"))

	// The bootstrap administrator can act at once (must_change_password false).
	admin.method, admin.path = "GET", "/api/v1/user"
	r = s.do(t, admin)
	require.Equal(t, 200, r.status, "%s", r.raw)
	assert.Equal(t, "boss", r.body["login"])
	assert.Equal(t, true, r.body["is_admin"])
	assert.NotContains(t, s.stdout.String(), "password", "a given password is never printed")

	admin.method, admin.path = "POST", "/api/v1/admin/users"
	admin.body = map[string]any{"username": "alice", "email": "alice@example.com", "password": "alice-password", "must_change_password": false}
	r = s.do(t, admin)
	require.Equal(t, 201, r.status, "%s", r.raw)
	assert.Equal(t, "alice", r.body["login"])
	assert.Equal(t, "application/json;charset=utf-8", r.header.Get("Content-Type"))

	r = s.do(t, call{method: "POST", path: "/api/v1/users/alice/tokens", user: "alice", pass: "alice-password",
		body: map[string]any{"name": "e2e", "scopes": []string{"read:user"}}})
	require.Equal(t, 201, r.status, "%s", r.raw)
	tok := r.body["sha1"].(string)
	assert.Regexp(t, "^[0-9a-f]{40}$", tok)
	assert.Equal(t, tok[32:], r.body["token_last_eight"])

	r = s.do(t, call{method: "GET", path: "/api/v1/user", header: map[string]string{"Authorization": "token " + tok}})
	require.Equal(t, 200, r.status)
	assert.Equal(t, "alice", r.body["login"])
	assert.Empty(t, r.header.Values("Warning"))

	r = s.do(t, call{method: "GET", path: "/api/v1/user?token=" + tok})
	require.Equal(t, 200, r.status)
	assert.Equal(t, "alice", r.body["login"])
	assert.Equal(t, warning, r.header.Get("Warning"))

	r = s.do(t, call{method: "GET", path: "/api/v1/user"})
	require.Equal(t, 401, r.status)
	assert.Equal(t, "token is required", r.body["message"])
	assert.Equal(t, s.url+"/api/swagger", r.body["url"])

	r = s.do(t, call{method: "GET", path: "/api/v1/user", header: map[string]string{"Authorization": "token " + strings.Repeat("0", 40)}})
	require.Equal(t, 401, r.status)
	assert.Equal(t, "access token does not exist [sha: "+strings.Repeat("0", 40)+"]", r.body["message"])

	admin.method, admin.path, admin.body = "PATCH", "/api/v1/admin/users/boss", map[string]any{"admin": false}
	r = s.do(t, admin)
	require.Equal(t, 400, r.status)
	assert.Equal(t, "can not delete the last admin user [uid: 1]", r.body["message"])

	// Bad input: 4xx in Forgejo's shape, never a 500.
	for _, bad := range []struct {
		c      call
		status int
	}{
		{call{method: "POST", path: "/api/v1/admin/users", user: "boss", pass: "boss-password", body: json.RawMessage(`{"username":`)}, 422},
		{call{method: "POST", path: "/api/v1/admin/users", user: "boss", pass: "boss-password", body: json.RawMessage(`{"username":["x"]}`)}, 422},
		{call{method: "POST", path: "/api/v1/admin/users", user: "boss", pass: "boss-password", body: strings.Repeat("x", 10<<20)}, 413},
		{call{method: "GET", path: "/api/v1/users/nobody"}, 404},
		{call{method: "GET", path: "/api/v1/admin/users?page=-1", user: "boss", pass: "boss-password"}, 200},
	} {
		r := s.do(t, bad.c)
		assert.Equal(t, bad.status, r.status, "%s %s: %s", bad.c.method, bad.c.path, r.raw)
		if bad.status >= 400 {
			assert.NotEmpty(t, r.body["message"], "%s", r.raw)
		}
	}

	// Restart on the same data directory: users and tokens are kept, and no
	// second administrator is created.
	require.NoError(t, s.stop())
	s = start(t, data, nil)
	r = s.do(t, call{method: "GET", path: "/api/v1/user", header: map[string]string{"Authorization": "token " + tok}})
	require.Equal(t, 200, r.status, "%s", r.raw)
	assert.Equal(t, "alice", r.body["login"])
	assert.Empty(t, s.stdout.String(), "no administrator is created when one exists")
	r = s.do(t, call{method: "GET", path: "/api/v1/users/root"})
	assert.Equal(t, 404, r.status)
}

func TestGeneratedAdminPassword(t *testing.T) {
	t.Parallel()
	s := start(t, t.TempDir(), nil)
	out := s.stdout.String()
	require.Contains(t, out, `Administrator "root" created with password `)
	pw := strings.Fields(strings.SplitN(out, "with password ", 2)[1])[0]
	r := s.do(t, call{method: "GET", path: "/api/v1/user", user: "root", pass: pw})
	require.Equal(t, 200, r.status, "%s", r.raw)
	assert.Equal(t, "root", r.body["login"])
}

func TestBadFlagsAndBusyPort(t *testing.T) {
	t.Parallel()
	err := run(context.Background(), []string{"-nope"}, func(string) string { return "" }, io.Discard, io.Discard, nil)
	assert.Error(t, err)
	err = run(context.Background(), []string{"extra"}, func(string) string { return "" }, io.Discard, io.Discard, nil)
	assert.EqualError(t, err, `unexpected argument "extra"`)

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close()
	err = run(context.Background(), []string{"-addr", ln.Addr().String(), "-data", t.TempDir()},
		func(string) string { return "" }, io.Discard, io.Discard, nil)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "listen")
	var opErr *net.OpError
	assert.True(t, errors.As(err, &opErr))
}

// -admin-email names the first administrator's address; later starts log
// that -admin-password was ignored; -reset-admin-password sets a new one
// (generated and printed when none is given) and exits.
func TestAdminEmailIgnoredPasswordAndReset(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	s := start(t, data, nil, "-admin-user", "boss", "-admin-email", "boss@example.org", "-admin-password", "boss-password")
	r := s.do(t, call{method: "GET", path: "/api/v1/user", user: "boss", pass: "boss-password"})
	require.Equal(t, 200, r.status, "%s", r.raw)
	assert.Equal(t, "boss@example.org", r.body["email"])
	require.NoError(t, s.stop())
	assert.NotContains(t, s.logs.String(), "ignored")

	s = start(t, data, map[string]string{"FORGED_ADMIN_PASSWORD": "new-password"}, "-admin-user", "boss")
	assert.Contains(t, s.logs.String(), "an administrator exists: -admin-password (FORGED_ADMIN_PASSWORD) was ignored")
	r = s.do(t, call{method: "GET", path: "/api/v1/user", user: "boss", pass: "new-password"})
	assert.Equal(t, 401, r.status, "the ignored password does not sign in")
	require.NoError(t, s.stop())

	out := &syncBuffer{}
	err := run(context.Background(), []string{"-data", data, "-admin-user", "boss", "-reset-admin-password"},
		func(string) string { return "" }, out, io.Discard, nil)
	require.NoError(t, err)
	require.Contains(t, out.String(), `Password of "boss" reset to `)
	pw := strings.Fields(strings.SplitN(out.String(), "reset to ", 2)[1])[0]

	err = run(context.Background(), []string{"-data", data, "-admin-user", "nobody", "-reset-admin-password"},
		func(string) string { return "" }, io.Discard, io.Discard, nil)
	assert.ErrorContains(t, err, "user redirect does not exist [name: nobody]")

	s = start(t, data, nil, "-admin-user", "boss")
	r = s.do(t, call{method: "GET", path: "/api/v1/user", user: "boss", pass: pw})
	require.Equal(t, 200, r.status, "%s", r.raw)
	r = s.do(t, call{method: "GET", path: "/api/v1/user", user: "boss", pass: "boss-password"})
	assert.Equal(t, 401, r.status, "the old password no longer signs in")
}

// A request body trickled slower than -body-min-rate after -body-grace is
// cut off, while a body at normal speed goes through.
func TestTrickledBodyIsCutOff(t *testing.T) {
	t.Parallel()
	s := start(t, t.TempDir(), nil, "-admin-user", "boss", "-admin-password", "boss-password",
		"-body-grace", "300ms", "-body-min-rate", "100")
	conn, err := net.Dial("tcp", strings.TrimPrefix(s.url, "http://"))
	require.NoError(t, err)
	defer conn.Close()
	const size = 10000 // 100 s at the minimum rate; the trickle would take 500 s
	_, err = io.WriteString(conn, "POST /api/v1/admin/users HTTP/1.1\r\nHost: x\r\n"+
		"Authorization: Basic Ym9zczpib3NzLXBhc3N3b3Jk\r\nContent-Type: application/json\r\n"+
		"Content-Length: 10000\r\n\r\n")
	require.NoError(t, err)
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		tick := time.NewTicker(50 * time.Millisecond)
		defer tick.Stop()
		for range size {
			select {
			case <-stop:
				return
			case <-tick.C:
			}
			if _, err := conn.Write([]byte(" ")); err != nil {
				return
			}
		}
	}()
	began := time.Now()
	require.NoError(t, conn.SetReadDeadline(time.Now().Add(20*time.Second)))
	reply, err := io.ReadAll(conn)
	elapsed := time.Since(began)
	var ne net.Error
	require.False(t, errors.As(err, &ne) && ne.Timeout(), "the server still waits for the body after %v", elapsed)
	assert.Less(t, elapsed, 10*time.Second)
	if len(reply) > 0 {
		assert.Regexp(t, `^HTTP/1\.1 4\d\d `, string(reply))
	}

	// The same size at normal speed is read.
	r := s.do(t, call{method: "POST", path: "/api/v1/admin/users", user: "boss", pass: "boss-password",
		body: json.RawMessage(`{"username":"tom","email":"tom@example.com","password":"tom-password"` + strings.Repeat(" ", size) + `}`)})
	assert.Equal(t, 201, r.status, "%s", r.raw)
}

// bodyDeadlines lets a body that arrives faster than the minimum rate take
// longer than the grace (a fixed deadline would cut it), and a handler still
// working after the body keeps its context.
func TestBodyDeadlinesSpareLegitimateBodies(t *testing.T) {
	t.Parallel()
	const size = 300
	got := make(chan string, 1)
	srv := &http.Server{Handler: bodyDeadlines(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, err := io.ReadAll(r.Body)
		if err != nil {
			got <- "read: " + err.Error()
			return
		}
		// Outlive the deadline the body had: the context must stay alive.
		select {
		case <-r.Context().Done():
			got <- "context ended after the body"
		case <-time.After(1500 * time.Millisecond):
			got <- strings.Repeat("x", len(b))
		}
	}), 100*time.Millisecond, 100)}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })

	pr, pw := io.Pipe()
	go func() {
		tick := time.NewTicker(10 * time.Millisecond) // 10 bytes per 10 ms: 1000 B/s, 0.3 s in all
		defer tick.Stop()
		for i := 0; i < size; i += 10 {
			<-tick.C
			pw.Write([]byte(strings.Repeat("y", 10)))
		}
		pw.Close()
	}()
	req, err := http.NewRequest("POST", "http://"+ln.Addr().String()+"/", pr)
	require.NoError(t, err)
	req.ContentLength = size
	go func() {
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
		}
	}()
	select {
	case s := <-got:
		assert.Equal(t, strings.Repeat("x", size), s)
	case <-time.After(20 * time.Second):
		t.Fatal("no answer from the handler")
	}
}
