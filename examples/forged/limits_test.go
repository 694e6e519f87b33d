package main

import (
	"net/http"
	"strings"
	"testing"
)

// TestLimitsFlags runs forged with small limits and meets each over the
// wire: headers (431), a JSON body (413), an upload (413) and the rate of
// expensive requests (429).
func TestLimitsFlags(t *testing.T) {
	t.Parallel()
	s := start(t, t.TempDir(), map[string]string{"FORGED_ADMIN_PASSWORD": "rootpassword"},
		"-max-header-bytes", "4096", "-max-body-bytes", "200", "-max-upload-bytes", "5", "-rate-limit", "0.001", "-rate-burst", "1")
	root := func(c call) call { c.user, c.pass = "root", "rootpassword"; return c }
	if r := s.do(t, call{method: "GET", path: "/api/v1/version", header: map[string]string{"X-Big": strings.Repeat("x", 8192)}}); r.status != http.StatusRequestHeaderFieldsTooLarge {
		t.Errorf("8 KiB of headers: %d, want 431", r.status)
	}
	if r := s.do(t, root(call{method: "POST", path: "/api/v1/user/repos", body: map[string]any{"name": "p", "description": strings.Repeat("d", 300)}})); r.status != http.StatusRequestEntityTooLarge {
		t.Errorf("a 300-byte body: %d %s, want 413", r.status, r.raw)
	}
	if r := s.do(t, root(call{method: "POST", path: "/api/v1/user/repos", body: map[string]any{"name": "p", "auto_init": true}})); r.status != http.StatusCreated {
		t.Fatalf("create repository: %d %s", r.status, r.raw)
	}
	if r := s.do(t, root(call{method: "POST", path: "/api/v1/repos/root/p/issues", body: map[string]any{"title": "t"}})); r.status != http.StatusCreated {
		t.Fatalf("create issue: %d %s", r.status, r.raw)
	}
	up := "--b\r\nContent-Disposition: form-data; name=\"attachment\"; filename=\"a.txt\"\r\n\r\n0123456789\r\n--b--\r\n"
	if r := s.do(t, root(call{method: "POST", path: "/api/v1/repos/root/p/issues/1/assets", body: up,
		header: map[string]string{"Content-Type": "multipart/form-data; boundary=b"}})); r.status != http.StatusRequestEntityTooLarge {
		t.Errorf("a 10-byte upload: %d %s, want 413", r.status, r.raw)
	}
	if r := s.do(t, call{method: "GET", path: "/api/v1/repos/search"}); r.status != http.StatusOK {
		t.Fatalf("first search: %d", r.status)
	}
	if r := s.do(t, call{method: "GET", path: "/api/v1/repos/search"}); r.status != http.StatusTooManyRequests || r.header.Get("Retry-After") == "" {
		t.Errorf("second search: %d (Retry-After %q), want 429", r.status, r.header.Get("Retry-After"))
	}
}

// TestLimitsFlagsParse reads every limits flag into its setting, the
// defaults when absent, and a negative -rate-limit as no limit.
func TestLimitsFlagsParse(t *testing.T) {
	t.Parallel()
	o, err := parseFlags([]string{"-max-header-bytes", "1000", "-read-header-timeout", "3s", "-idle-timeout", "1m", "-max-body-bytes", "7",
		"-max-upload-bytes", "8", "-max-files-per-commit", "9", "-max-concurrent-hashes", "3", "-signin-failures", "4",
		"-signin-address-failures", "40", "-rate-limit", "-1", "-rate-burst", "6"}, func(string) string { return "" }, new(strings.Builder))
	if err != nil {
		t.Fatal(err)
	}
	l := o.limits
	if l.server.MaxHeaderBytes != 1000 || l.server.ReadHeaderTimeout.String() != "3s" || l.server.IdleTimeout.String() != "1m0s" ||
		l.maxBodyBytes != 7 || l.maxUpload != 8 || l.maxFilesPerCommit != 9 || l.maxConcurrentHashes != 3 ||
		l.signinFailures != 4 || l.addrFailure != 40 || !l.rate.Disabled || l.rate.Burst != 6 {
		t.Errorf("limits %+v", l)
	}
	o, err = parseFlags(nil, func(string) string { return "" }, new(strings.Builder))
	if err != nil || o.limits.rate.Disabled || o.limits.server.MaxHeaderBytes != 64<<10 || o.limits.maxFilesPerCommit != 1000 {
		t.Errorf("defaults %+v, %v", o.limits, err)
	}
}
