package httpapi

import (
	"net"
	"net/netip"
	"strings"
	"testing"
)

// FuzzClientAddr reads arbitrary peer addresses and X-Forwarded-For
// values, with 10.0.0.0/8 and ::1 as trusted proxies. A peer that is not a
// trusted proxy is the client whatever the header says; behind a trusted
// peer the client is an address of the header or the peer itself, and the
// last hop of the header, when it is an address that is not a proxy, is
// the client (entries to its left, which the client wrote, never count).
func FuzzClientAddr(f *testing.F) {
	for _, s := range [][2]string{{"10.0.0.1:1234", "192.0.2.7"}, {"10.0.0.1:1", "1.1.1.1, 10.0.0.2"}, {"192.0.2.1:5", "10.0.0.9"},
		{"[::1]:80", "::ffff:192.0.2.1"}, {"10.0.0.1:1", "garbage, 192.0.2.3"}, {"10.0.0.1:1", "192.0.2.3, garbage"}, {"", ""}, {"nonsense", "1.2.3.4"}} {
		f.Add(s[0], s[1])
	}
	trusted := []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("::1/128")}
	f.Fuzz(func(t *testing.T, remote, xff string) {
		got := clientAddr(remote, []string{xff}, trusted)
		host := remote
		if h, _, err := net.SplitHostPort(remote); err == nil {
			host = h
		}
		peer, err := netip.ParseAddr(host)
		if err != nil || !isTrusted(peer, trusted) {
			if got != host {
				t.Fatalf("clientAddr(%q, %q) = %q, want the peer %q", remote, xff, got, host)
			}
			return
		}
		a, err := netip.ParseAddr(got)
		if err != nil {
			t.Fatalf("clientAddr(%q, %q) = %q, not an address", remote, xff, got)
		}
		hops := strings.Split(xff, ",")
		last, err := netip.ParseAddr(strings.TrimSpace(hops[len(hops)-1]))
		if err == nil && !isTrusted(last.Unmap(), trusted) && a != last.Unmap() {
			t.Fatalf("clientAddr(%q, %q) = %q, want the last hop %v", remote, xff, got, last.Unmap())
		}
		if a != peer && !strings.Contains(xff, strings.TrimSpace(got)) && !strings.Contains(strings.ToLower(xff), got) {
			found := false
			for _, h := range hops {
				if x, err := netip.ParseAddr(strings.TrimSpace(h)); err == nil && x.Unmap() == a {
					found = true
				}
			}
			if !found {
				t.Fatalf("clientAddr(%q, %q) = %q, neither the peer nor a hop", remote, xff, got)
			}
		}
	})
}
