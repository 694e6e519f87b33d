package netpolicy_test

import (
	"net/netip"
	"testing"

	"github.com/hearthforge/hearth/forge/netpolicy"
)

// special is the test's own copy of IANA's IPv4 and IPv6 Special-Purpose
// Address Registries (https://www.iana.org/assignments/iana-ipv4-special-registry,
// .../iana-ipv6-special-registry), with multicast, 6to4 relay anycast,
// IPv4-compatible and site-local added, and what each range is for the
// policy words. carries names how an address of the range carries an
// IPv4 address ("low32", "6to4", "teredo"); such an address is judged by
// what it carries.
var special = []struct {
	prefix  string
	class   netpolicy.Class
	carries string
}{
	{"0.0.0.0/8", netpolicy.Special, ""},
	{"0.0.0.0/32", netpolicy.Special, ""},
	{"10.0.0.0/8", netpolicy.Private, ""},
	{"100.64.0.0/10", netpolicy.Special, ""},
	{"127.0.0.0/8", netpolicy.Loopback, ""},
	{"169.254.0.0/16", netpolicy.Special, ""},
	{"172.16.0.0/12", netpolicy.Private, ""},
	{"192.0.0.0/24", netpolicy.Special, ""},
	{"192.0.0.0/29", netpolicy.Special, ""},
	{"192.0.0.8/32", netpolicy.Special, ""},
	{"192.0.0.9/32", netpolicy.Special, ""},
	{"192.0.0.10/32", netpolicy.Special, ""},
	{"192.0.0.170/32", netpolicy.Special, ""},
	{"192.0.0.171/32", netpolicy.Special, ""},
	{"192.0.2.0/24", netpolicy.Special, ""},
	{"192.31.196.0/24", netpolicy.Special, ""},
	{"192.52.193.0/24", netpolicy.Special, ""},
	{"192.88.99.0/24", netpolicy.Special, ""},
	{"192.168.0.0/16", netpolicy.Private, ""},
	{"192.175.48.0/24", netpolicy.Special, ""},
	{"198.18.0.0/15", netpolicy.Special, ""},
	{"198.51.100.0/24", netpolicy.Special, ""},
	{"203.0.113.0/24", netpolicy.Special, ""},
	{"224.0.0.0/4", netpolicy.Special, ""},
	{"240.0.0.0/4", netpolicy.Special, ""},
	{"255.255.255.255/32", netpolicy.Special, ""},

	{"::/128", netpolicy.Special, ""},
	{"::1/128", netpolicy.Loopback, ""},
	{"::/96", netpolicy.Special, "low32"},
	{"::ffff:0:0/96", netpolicy.Special, "low32"},
	{"64:ff9b::/96", netpolicy.Special, "low32"},
	{"64:ff9b:1::/48", netpolicy.Special, ""},
	{"100::/64", netpolicy.Special, ""},
	{"100:0:0:1::/64", netpolicy.Special, ""},
	{"2001::/23", netpolicy.Special, ""},
	{"2001::/32", netpolicy.Special, "teredo"},
	{"2001:1::1/128", netpolicy.Special, ""},
	{"2001:1::2/128", netpolicy.Special, ""},
	{"2001:1::3/128", netpolicy.Special, ""},
	{"2001:2::/48", netpolicy.Special, ""},
	{"2001:3::/32", netpolicy.Special, ""},
	{"2001:4:112::/48", netpolicy.Special, ""},
	{"2001:10::/28", netpolicy.Special, ""},
	{"2001:20::/28", netpolicy.Special, ""},
	{"2001:30::/28", netpolicy.Special, ""},
	{"2001:db8::/32", netpolicy.Special, ""},
	{"2002::/16", netpolicy.Special, "6to4"},
	{"2620:4f:8000::/48", netpolicy.Special, ""},
	{"3fff::/20", netpolicy.Special, ""},
	{"5f00::/16", netpolicy.Special, ""},
	{"fc00::/7", netpolicy.Private, ""},
	{"fe80::/10", netpolicy.Special, ""},
	{"fec0::/10", netpolicy.Special, ""},
	{"ff00::/8", netpolicy.Special, ""},
}

// oracle is the class of ip by the test's table: the most specific range
// holding it; one that carries IPv4 addresses is what they are (special
// when they differ); none: external, but special for IPv6 outside
// 2000::/3.
func oracle(ip netip.Addr) netpolicy.Class {
	ip = ip.WithZone("")
	best, bits := -1, -1
	for i, s := range special {
		p := netip.MustParsePrefix(s.prefix)
		if p.Contains(ip) && p.Bits() > bits {
			best, bits = i, p.Bits()
		}
	}
	if best < 0 {
		if ip.Is6() && ip.As16()[0]&0xe0 != 0x20 {
			return netpolicy.Special
		}
		return netpolicy.External
	}
	b := ip.As16()
	var v4 []netip.Addr
	switch special[best].carries {
	case "":
		return special[best].class
	case "low32":
		v4 = []netip.Addr{netip.AddrFrom4([4]byte(b[12:16]))}
	case "6to4":
		v4 = []netip.Addr{netip.AddrFrom4([4]byte(b[2:6]))}
	case "teredo":
		v4 = []netip.Addr{netip.AddrFrom4([4]byte(b[4:8])), netip.AddrFrom4([4]byte{b[12] ^ 0xff, b[13] ^ 0xff, b[14] ^ 0xff, b[15] ^ 0xff})}
	}
	c := oracle(v4[0])
	for _, a := range v4[1:] {
		if oracle(a) != c {
			return netpolicy.Special
		}
	}
	return c
}

// last is the last address of p.
func last(p netip.Prefix) netip.Addr {
	if p.Addr().Is4() {
		b := p.Addr().As4()
		for i := p.Bits(); i < 32; i++ {
			b[i/8] |= 0x80 >> (i % 8)
		}
		return netip.AddrFrom4(b)
	}
	b := p.Addr().As16()
	for i := p.Bits(); i < 128; i++ {
		b[i/8] |= 0x80 >> (i % 8)
	}
	return netip.AddrFrom16(b)
}

// TestSpecialPurposeRanges is the table test of the address policy: the
// first and last address of every range of the registries, and the
// address before and after each, are classified as the test's own table
// says, and the default list "external" allows exactly the external ones
// (as "loopback" and "private" their own). The package's Registry holds
// exactly the test's ranges.
func TestSpecialPurposeRanges(t *testing.T) {
	t.Parallel()
	words := []string{"external", "loopback", "private", "loopback,private"}
	lists := map[string]netpolicy.List{}
	for _, w := range words {
		l, err := netpolicy.ParseList([]string{w}, true)
		if err != nil {
			t.Fatal(err)
		}
		lists[w] = l
	}
	check := func(ip netip.Addr, why string) {
		if !ip.IsValid() {
			return
		}
		want := oracle(ip)
		if got := netpolicy.Classify(ip); got != want {
			t.Errorf("%s: Classify(%v) = %v, want %v", why, ip, got, want)
		}
		for _, w := range words {
			allowed := (w == "external" && want == netpolicy.External) ||
				(w != "external" && (want == netpolicy.Loopback && w != "private" || want == netpolicy.Private && w != "loopback"))
			if got := lists[w].MatchAddr(ip); got != allowed {
				t.Errorf("%s: %q allows %v = %v, want %v (%v)", why, w, ip, got, allowed, want)
			}
		}
		if ip.Is4() {
			mapped := netip.AddrFrom16(ip.As16())
			if got := netpolicy.Classify(mapped); got != want {
				t.Errorf("%s: IPv4-mapped %v is %v, %v is %v", why, mapped, got, ip, want)
			}
		}
	}
	inTable := map[netip.Prefix]bool{}
	for _, s := range special {
		p := netip.MustParsePrefix(s.prefix)
		inTable[p] = true
		check(p.Addr(), s.prefix+" first")
		check(last(p), s.prefix+" last")
		check(p.Addr().Prev(), s.prefix+" before")
		check(last(p).Next(), s.prefix+" after")
		if s.carries == "" && s.class != netpolicy.Special {
			continue
		}
		if s.carries == "" {
			// Every address of a special range is refused by "external".
			for _, ip := range []netip.Addr{p.Addr(), last(p)} {
				if lists["external"].MatchAddr(ip) && oracle(ip) != netpolicy.External {
					t.Errorf("%s: external allows %v", s.prefix, ip)
				}
			}
		}
	}
	for _, r := range netpolicy.Registry {
		if !inTable[r.Prefix] {
			t.Errorf("Registry holds %v, which the test's table does not", r.Prefix)
		}
		delete(inTable, r.Prefix)
	}
	for p := range inTable {
		t.Errorf("Registry lacks %v", p)
	}
}

// TestAddressPolicyReports are the addresses of issue 24 and their
// forms, with the answer written out: the default policy ("external")
// refuses every one; "loopback" allows the loopback ones in every form;
// public addresses carried by NAT64, 6to4, mapped and Teredo forms pass.
func TestAddressPolicyReports(t *testing.T) {
	t.Parallel()
	ext, _ := netpolicy.ParseList([]string{"external"}, true)
	lo, _ := netpolicy.ParseList([]string{"loopback"}, true)
	for _, tc := range []struct {
		addr           string
		external, loop bool
	}{
		{"100.64.0.1", false, false},
		{"100.100.100.200", false, false}, // Alibaba Cloud metadata
		{"100.127.255.255", false, false},
		{"0.0.0.0", false, false},
		{"0.1.2.3", false, false},
		{"169.254.169.254", false, false},
		{"::127.0.0.1", false, true},
		{"64:ff9b::7f00:1", false, true},
		{"::ffff:127.0.0.1", false, true},
		{"2002:7f00:1::1", false, true},
		{"2001:0:4136:e378:8000:63bf:80ff:fffe", false, false}, // Teredo, server 65.54.227.120, client 127.0.0.1: mixed, refused
		{"2001:0:7f00:1:8000:63bf:80ff:fffe", false, true},     // Teredo, both loopback
		{"64:ff9b::a9fe:a9fe", false, false},                   // NAT64 of the metadata address
		{"64:ff9b::6440:1", false, false},                      // NAT64 of CGNAT
		{"64:ff9b:1::7f00:1", false, false},                    // local-use NAT64: not decoded, refused
		{"fd00:ec2::254", false, false},                        // AWS IPv6 metadata (ULA)
		{"fe80::1%eth0", false, false},
		{"ff02::1", false, false},
		{"::", false, false},
		{"::1", false, true},
		{"198.18.0.1", false, false},
		{"240.0.0.1", false, false},
		{"255.255.255.255", false, false},
		{"224.0.0.1", false, false},
		{"3fff::1", false, false},
		{"2001:db8::1", false, false},
		{"4000::1", false, false}, // outside 2000::/3
		{"93.184.216.34", true, false},
		{"64:ff9b::5db8:d822", true, false}, // NAT64 of 93.184.216.34 (DNS64 on an IPv6-only host)
		{"::ffff:93.184.216.34", true, false},
		{"2002:5db8:d822::1", true, false},
		{"2606:4700::1111", true, false},
	} {
		ip := netip.MustParseAddr(tc.addr)
		if got := ext.MatchAddr(ip); got != tc.external {
			t.Errorf("external allows %s = %v, want %v", tc.addr, got, tc.external)
		}
		if got := lo.MatchAddr(ip); got != tc.loop {
			t.Errorf("loopback allows %s = %v, want %v", tc.addr, got, tc.loop)
		}
	}
}
