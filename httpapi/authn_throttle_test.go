package httpapi_test

import (
	"fmt"
	"net/http"
	"net/netip"
	"testing"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/httpapi"
)

func behindProxy(c *httpapi.Config) {
	c.TrustedProxies = []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8"), netip.MustParsePrefix("::1/128")}
}

func from(addr string) map[string]string { return map[string]string{"X-Forwarded-For": addr} }

// F8's reproduction: 12 bad passwords for root from one client, then root's
// right password from another client (behind a trusted proxy) signs in;
// the first client stays refused.
func TestThrottleDoesNotLockOwnerOutElsewhere(t *testing.T) {
	t.Parallel()
	e := newEnv(t, behindProxy)
	for i := range 12 {
		r := e.do(req{method: "GET", path: "/api/v1/user", user: "root", pass: "wrong", header: from("192.0.2.9")})
		if i < auth.DefaultThrottle.Free {
			e.expect(r, http.StatusUnauthorized, "")
		} else {
			e.expect(r, http.StatusTooManyRequests, "")
		}
	}
	e.expect(e.do(req{method: "GET", path: "/api/v1/user", user: "root", pass: "rootpassword", header: from("192.0.2.10")}),
		http.StatusOK, "")
	e.expect(e.do(req{method: "GET", path: "/api/v1/user", user: "root", pass: "rootpassword", header: from("192.0.2.9")}),
		http.StatusTooManyRequests, "")
}

// A flood from one address across accounts is refused, for every account,
// from that address only.
func TestThrottleRefusesAddressFlood(t *testing.T) {
	t.Parallel()
	e := newEnv(t, behindProxy)
	for i := range auth.DefaultThrottle.AddressFree {
		e.expect(e.do(req{method: "GET", path: "/api/v1/user", user: fmt.Sprintf("u%d", i), pass: "guess",
			header: from("203.0.113.5")}), http.StatusUnauthorized, "")
	}
	e.expect(e.do(req{method: "GET", path: "/api/v1/user", user: "root", pass: "rootpassword", header: from("203.0.113.5")}),
		http.StatusTooManyRequests, "too many failed sign-in attempts, retry in 1 seconds")
	e.expect(e.do(req{method: "GET", path: "/api/v1/user", user: "root", pass: "rootpassword", header: from("203.0.113.6")}),
		http.StatusOK, "")
}

// X-Forwarded-For counts only from trusted proxies: without them, a client
// cannot escape its lock by claiming another address.
func TestThrottleIgnoresUntrustedForwardedFor(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for range auth.DefaultThrottle.Free {
		e.expect(e.do(req{method: "GET", path: "/api/v1/user", user: "root", pass: "wrong", header: from("192.0.2.9")}),
			http.StatusUnauthorized, "")
	}
	e.expect(e.do(req{method: "GET", path: "/api/v1/user", user: "root", pass: "rootpassword", header: from("192.0.2.10")}),
		http.StatusTooManyRequests, "")
}
