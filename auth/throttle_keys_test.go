package auth

import (
	"strings"
	"testing"
)

// TestThrottleKeysHaveFixedSize: a sign-in with a megabyte-long name keeps
// a counter key of a few dozen bytes, not the name (each failed attempt
// with a new long name would otherwise hold its bytes for Forget).
func TestThrottleKeysHaveFixedSize(t *testing.T) {
	t.Parallel()
	th := newThrottle(Throttle{})
	long := strings.Repeat("a", 1<<20)
	pair, addr := th.keysFor(long, "192.0.2.1")
	if len(pair.name) > 128 || len(addr.name) > 64 {
		t.Fatalf("keys of %d and %d bytes for a 1 MiB name", len(pair.name), len(addr.name))
	}
	other, _ := th.keysFor(long+"b", "192.0.2.1")
	if other.name == pair.name {
		t.Fatal("different accounts share a key")
	}
	if shortName(long) != long[:maxSignInName] {
		t.Fatal("messages echo at most maxSignInName bytes of a name")
	}
}
