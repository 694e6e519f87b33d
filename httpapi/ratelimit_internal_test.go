package httpapi

import (
	"fmt"
	"testing"
	"time"

	"github.com/hearthforge/hearth/forge/forgetest"
)

// TestRateLimiterBounded keeps the clients tracked under maxRateKeys:
// full buckets are forgotten first, and all of them if none is full.
func TestRateLimiterBounded(t *testing.T) {
	t.Parallel()
	clock := forgetest.NewClock()
	l := newRateLimiter(RateLimit{PerSecond: 1, Burst: 1, Clock: clock})
	for i := range maxRateKeys + 10 {
		if ok, _ := l.allow(fmt.Sprint(i)); !ok {
			t.Fatalf("client %d refused on its first request", i)
		}
	}
	if n := len(l.keys); n > maxRateKeys {
		t.Fatalf("%d clients tracked", n)
	}
	clock.Step(time.Second)
	l.allow("late")
	l.sweep(clock.Now())
	if n := len(l.keys); n > 1 {
		t.Fatalf("%d clients tracked after their buckets refilled, want 1", n)
	}
	if ok, wait := l.allow("late"); ok || wait != time.Second {
		t.Fatalf("allow = %v, %v; want false, 1s", ok, wait)
	}
}

// TestRateKey groups an IPv6 client's /64 and keeps IPv4 addresses (and
// IPv4-mapped ones) whole.
func TestRateKey(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"192.0.2.1": "192.0.2.1", "2001:db8:1:2:3::4": "2001:db8:1:2::/64", "::ffff:192.0.2.1": "::ffff:192.0.2.1", "not-an-ip": "not-an-ip",
	} {
		if got := rateKey(in); got != want {
			t.Errorf("rateKey(%q) = %q, want %q", in, got, want)
		}
	}
}
