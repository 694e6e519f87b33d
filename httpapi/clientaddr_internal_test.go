package httpapi

import (
	"net/netip"
	"testing"
)

func TestClientAddr(t *testing.T) {
	t.Parallel()
	trusted := []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("fd00::/8")}
	for _, c := range []struct {
		name, remote string
		xff          []string
		trusted      []netip.Prefix
		want         string
	}{
		{"no proxies trusted: the peer", "10.1.2.3:5000", []string{"192.0.2.1"}, nil, "10.1.2.3"},
		{"untrusted peer: header ignored", "198.51.100.4:5000", []string{"192.0.2.1"}, trusted, "198.51.100.4"},
		{"trusted peer: the forwarded client", "10.1.2.3:5000", []string{"192.0.2.1"}, trusted, "192.0.2.1"},
		{"client-written entries are not reached", "10.1.2.3:5000", []string{"203.0.113.9, 192.0.2.1"}, trusted, "192.0.2.1"},
		{"trusted hops are skipped", "10.1.2.3:5000", []string{"192.0.2.1, 10.9.9.9", "10.8.8.8"}, trusted, "192.0.2.1"},
		{"all hops trusted: the leftmost", "10.1.2.3:5000", []string{"10.7.7.7, 10.9.9.9"}, trusted, "10.7.7.7"},
		{"garbage stops at the last trusted hop", "10.1.2.3:5000", []string{"192.0.2.1, junk"}, trusted, "10.1.2.3"},
		{"no header: the proxy", "10.1.2.3:5000", nil, trusted, "10.1.2.3"},
		{"IPv6 proxy", "[fd00::1]:443", []string{"2001:db8::7"}, trusted, "2001:db8::7"},
		{"mapped peer", "[::ffff:10.1.2.3]:80", []string{"192.0.2.1"}, trusted, "192.0.2.1"},
		{"spaces", "10.1.2.3:5000", []string{" 192.0.2.1 "}, trusted, "192.0.2.1"},
		{"no port", "10.1.2.3", []string{"192.0.2.1"}, trusted, "192.0.2.1"},
	} {
		if got := clientAddr(c.remote, c.xff, c.trusted); got != c.want {
			t.Errorf("%s: clientAddr(%q, %q) = %q, want %q", c.name, c.remote, c.xff, got, c.want)
		}
	}
}
