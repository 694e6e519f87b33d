package netpolicy_test

import (
	"errors"
	"net/netip"
	"testing"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/netpolicy"
)

// FuzzClassify judges arbitrary addresses: Classify agrees with the test's
// own registry table (oracle), an IPv4 address and its IPv4-mapped form
// are judged alike, a zone changes nothing, and a list of keywords allows
// an address exactly when it names its class (a CIDR list exactly when it
// holds it).
func FuzzClassify(f *testing.F) {
	for _, s := range []string{"127.0.0.1", "100.64.0.1", "0.0.0.0", "::127.0.0.1", "64:ff9b::7f00:1", "2002:7f00:1::",
		"2001:0:4136:e378:8000:63bf:80ff:fffe", "fe80::1", "93.184.216.34", "64:ff9b::5db8:d822", "ff02::1", "::ffff:10.0.0.1"} {
		f.Add(netip.MustParseAddr(s).AsSlice(), "external")
	}
	f.Add([]byte{169, 254, 169, 254}, "loopback,private")
	f.Add([]byte{10, 0, 0, 1}, "10.0.0.0/8")
	f.Fuzz(func(t *testing.T, raw []byte, words string) {
		ip, ok := netip.AddrFromSlice(raw)
		if !ok {
			return
		}
		c := netpolicy.Classify(ip)
		if want := oracle(ip); c != want {
			t.Fatalf("Classify(%v) = %v, the registry says %v", ip, c, want)
		}
		if ip.Is4() {
			if m := netpolicy.Classify(netip.AddrFrom16(ip.As16())); m != c {
				t.Fatalf("%v is %v but its IPv4-mapped form %v", ip, c, m)
			}
		}
		if ip.Is6() && !ip.Is4In6() {
			if z := netpolicy.Classify(ip.WithZone("eth0")); z != c {
				t.Fatalf("%v is %v but with a zone %v", ip, c, z)
			}
		}
		l, err := netpolicy.ParseList([]string{words}, true)
		if err != nil {
			if !errors.Is(err, forge.ErrInvalid) {
				t.Fatalf("ParseList(%q): %v", words, err)
			}
			return
		}
		got := l.MatchAddr(ip)
		if m := l.MatchAddr(ip.Unmap()); m != got {
			t.Fatalf("list %q: %v answers %v, %v answers %v", words, ip, got, ip.Unmap(), m)
		}
		if got && !l.MatchName("") && !l.MatchCIDR(ip) {
			// Allowed by a keyword: the list must name the class.
			one, _ := netpolicy.ParseList([]string{c.String()}, true)
			if c == netpolicy.Special || !one.MatchAddr(ip) {
				t.Fatalf("list %q allows %v (%v)", words, ip, c)
			}
		}
	})
}
