package httpapi_test

import (
	"encoding/json"
	"net/http"
	"net/netip"
	"testing"
	"time"

	"github.com/hearthforge/hearth/forge/forgetest"
	"github.com/hearthforge/hearth/httpapi"
)

// TestRateLimit spends a client's budget of expensive requests: past the
// burst it gets 429 with Retry-After and Forgejo's error body, for every
// limited operation, while other operations and other clients go on; the
// budget refills with time.
func TestRateLimit(t *testing.T) {
	t.Parallel()
	clock := forgetest.NewClock()
	s := newFuzzServer(t, func(c *httpapi.Config) {
		c.RateLimit = httpapi.RateLimit{PerSecond: 0.5, Burst: 2, Clock: clock}
		c.TrustedProxies = []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}
	})
	get := func(path, client string) *http.Response {
		t.Helper()
		r, _ := http.NewRequest("GET", s.url+path, nil)
		r.Header.Set("X-Forwarded-For", client)
		res, err := http.DefaultClient.Do(r)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		if res.StatusCode == http.StatusTooManyRequests {
			var e struct{ Message, URL string }
			if err := json.NewDecoder(res.Body).Decode(&e); err != nil || e.Message == "" || e.URL == "" {
				t.Errorf("429 body: %+v, %v", e, err)
			}
		}
		return res
	}
	const search, issues, repo = "/api/v1/repos/search", "/api/v1/repos/issues/search", "/api/v1/repos/alice/proj"
	for i, path := range []string{search, issues} {
		if res := get(path, "192.0.2.1"); res.StatusCode != http.StatusOK {
			t.Fatalf("request %d: %d", i, res.StatusCode)
		}
	}
	res := get(search, "192.0.2.1")
	if res.StatusCode != http.StatusTooManyRequests || res.Header.Get("Retry-After") != "2" {
		t.Fatalf("third request: %d, Retry-After %q; want 429, 2", res.StatusCode, res.Header.Get("Retry-After"))
	}
	if res := get(issues, "192.0.2.1"); res.StatusCode != http.StatusTooManyRequests {
		t.Fatalf("issue search: %d, want 429 (one budget for all expensive operations)", res.StatusCode)
	}
	if res := get(repo, "192.0.2.1"); res.StatusCode != http.StatusOK {
		t.Fatalf("a cheap operation: %d", res.StatusCode)
	}
	if res := get(search, "192.0.2.2"); res.StatusCode != http.StatusOK {
		t.Fatalf("another client: %d", res.StatusCode)
	}
	if res := get(search, "2001:db8::1"); res.StatusCode != http.StatusOK {
		t.Fatalf("an IPv6 client: %d", res.StatusCode)
	}
	get(search, "2001:db8::2")
	if res := get(search, "2001:db8::3"); res.StatusCode != http.StatusTooManyRequests {
		t.Fatalf("a third address of one IPv6 /64: %d, want 429", res.StatusCode)
	}
	clock.Step(2 * time.Second)
	if res := get(search, "192.0.2.1"); res.StatusCode != http.StatusOK {
		t.Fatalf("after the refill: %d", res.StatusCode)
	}
	if res := get(search, "192.0.2.1"); res.StatusCode != http.StatusTooManyRequests {
		t.Fatalf("one token refilled, not more: %d", res.StatusCode)
	}
}

// TestRateLimitDisabled lets every request through.
func TestRateLimitDisabled(t *testing.T) {
	t.Parallel()
	s := newFuzzServer(t, func(c *httpapi.Config) { c.RateLimit = httpapi.RateLimit{Disabled: true, Burst: 1} })
	for i := range 5 {
		if status, body := s.do(t, "GET", "/api/v1/repos/search", "", nil); status != http.StatusOK {
			t.Fatalf("request %d: %d %s", i, status, body)
		}
	}
}
