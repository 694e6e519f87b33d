package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"path/filepath"
	"testing"
	"time"

	"github.com/hearthforge/hearth/forge/site"
	"github.com/hearthforge/hearth/httpapi"
	"github.com/hearthforge/hearth/storage/blob"
	"github.com/hearthforge/hearth/storage/gitstore"
	"github.com/hearthforge/hearth/storage/sqlite"
)

// stack is the server run() builds (SQLite and git repositories in a data
// directory, the forge of forge/site, an http.Server with forged's timeouts)
// on a loopback port, with its git store in reach of the test (run() keeps
// it to itself): the load benchmark and the process-count test use it.
type stack struct {
	url   string
	git   *gitstore.Store
	token string // a token of the administrator "root"
	other string // a token of a second user (load_bench_test.go)
	// client keeps up to 128 connections per host alive.
	client *http.Client
	// handler is what the server serves (BenchmarkHandler calls it
	// without the network).
	handler http.Handler
}

const stackAdmin, stackPassword = "root", "root-password"

// newStack wires the stack as run() does and stops it with the test.
func newStack(tb testing.TB) *stack {
	tb.Helper()
	ctx := context.Background()
	data := tb.TempDir()
	log := slog.New(slog.DiscardHandler)
	db, err := sqlite.Open(ctx, filepath.Join(data, "hearth.db"))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { db.Close() })
	secret, err := loadSecret(filepath.Join(data, "secret.key"))
	if err != nil {
		tb.Fatal(err)
	}
	git, err := gitstore.Open(filepath.Join(data, "git"))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { git.Close() })
	blobs, err := blob.OpenDir(filepath.Join(data, "blobs"))
	if err != nil {
		tb.Fatal(err)
	}
	// The rate limit is off: the load benchmark measures throughput from
	// one client, which the limiter exists to bound.
	forge, err := site.New(ctx, site.Config{Store: db, Git: git, Blobs: blobs, Logger: log, SecretKey: secret,
		RateLimit: httpapi.RateLimit{Disabled: true}})
	if err != nil {
		tb.Fatal(err)
	}
	o := options{adminUser: stackAdmin, adminEmail: "root@example.com", adminPassword: stackPassword}
	if err := bootstrapAdmin(ctx, forge.Auth(), o, io.Discard, log); err != nil {
		tb.Fatal(err)
	}
	runCtx, stop := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { defer close(done); forge.Run(runCtx) }()
	tb.Cleanup(func() { stop(); <-done })
	mux := http.NewServeMux()
	mux.Handle("/", forge.Handler())
	handler := bodyDeadlines(mux, 30*time.Second, 1024)
	url := serveLoopback(tb, handler)
	s := &stack{url: url, git: git, client: loopbackClient(), handler: handler}
	res := s.call(tb, "POST", "/api/v1/users/root/tokens", map[string]any{"name": "load",
		"scopes": []string{"write:repository", "write:user", "write:issue", "write:notification"}}, 201, func(r *http.Request) { r.SetBasicAuth(stackAdmin, stackPassword) })
	s.token = res["sha1"].(string)
	return s
}

// serveLoopback serves h as forged does (same timeouts) on 127.0.0.1:0
// until the test ends, and returns its base URL.
func serveLoopback(tb testing.TB, h http.Handler) string {
	tb.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute}
	go srv.Serve(ln)
	tb.Cleanup(func() { srv.Close() })
	return "http://" + ln.Addr().String()
}

// loopbackClient keeps enough idle connections for 64 concurrent clients.
func loopbackClient() *http.Client {
	return &http.Client{Transport: &http.Transport{MaxIdleConns: 256, MaxIdleConnsPerHost: 128, IdleConnTimeout: time.Minute}}
}

// call sends a JSON request with the token (or what edit sets) and fails
// the test unless the status is want; it returns the decoded object body.
func (s *stack) call(tb testing.TB, method, path string, body any, want int, edit ...func(*http.Request)) map[string]any {
	tb.Helper()
	var rd io.Reader
	if body != nil {
		data, err := json.Marshal(body)
		if err != nil {
			tb.Fatal(err)
		}
		rd = bytes.NewReader(data)
	}
	req, err := http.NewRequest(method, s.url+path, rd)
	if err != nil {
		tb.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	if s.token != "" {
		req.Header.Set("Authorization", "token "+s.token)
	}
	for _, e := range edit {
		e(req)
	}
	res, err := s.client.Do(req)
	if err != nil {
		tb.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	if res.StatusCode != want {
		tb.Fatalf("%s %s: %d, want %d: %s", method, path, res.StatusCode, want, raw)
	}
	var out map[string]any
	if len(raw) > 0 && raw[0] == '{' {
		if err := json.Unmarshal(raw, &out); err != nil {
			tb.Fatal(err)
		}
	}
	return out
}

// seedRepo creates root/name in format with a README.md (auto_init) and
// commits more files through the contents API, so that a commits page of
// 10 is full.
func (s *stack) seedRepo(tb testing.TB, name, format string, commits int) {
	tb.Helper()
	s.call(tb, "POST", "/api/v1/user/repos", map[string]any{"name": name, "auto_init": true,
		"readme": "Default", "object_format_name": format}, 201)
	for i := range commits {
		content := base64.StdEncoding.EncodeToString(fmt.Appendf(nil, "file %d\nof %s\n", i, name))
		s.call(tb, "POST", fmt.Sprintf("/api/v1/repos/root/%s/contents/dir%d/file%d.txt", name, i%3, i),
			map[string]any{"content": content, "message": fmt.Sprintf("add file %d", i)}, 201)
	}
}
