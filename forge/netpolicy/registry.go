// Package netpolicy is the one remote address policy of Hearth: which
// addresses webhooks (forge/hooks), migrations and mirrors (mirror) may
// reach. It classifies an address against IANA's IPv4 and IPv6
// Special-Purpose Address Registries (Classify), decoding the IPv6 forms
// that carry an IPv4 address (IPv4-mapped, IPv4-compatible, NAT64, 6to4,
// Teredo) to the IPv4 they carry, and matches Forgejo's ALLOWED_HOST_LIST
// lists (List: "loopback", "private", "external", "*", CIDRs and host-name
// globs, as modules/hostmatcher).
//
// Callers judge the address a connection is actually made to (a
// net.Dialer Control function, or an address pinned for git), never only
// the name, so that a name answering differently the second time (DNS
// rebinding) can't reach a refused address.
package netpolicy

import (
	"net/netip"
)

// Class is what an address is, for the policy words.
type Class int

const (
	// Special is every special-purpose address that is neither loopback
	// nor private: unspecified, "this network" 0.0.0.0/8, link-local (the
	// cloud metadata address 169.254.169.254), carrier-grade NAT
	// 100.64.0.0/10 (Alibaba's metadata address), IETF protocol
	// assignments, documentation, benchmarking, reserved 240.0.0.0/4,
	// broadcast, multicast, discard-only, ORCHID, local-use NAT64,
	// IPv6 outside 2000::/3 ... Only "*" or a CIDR allows it.
	Special Class = iota
	// Loopback is 127.0.0.0/8 and ::1 ("loopback").
	Loopback
	// Private is RFC 1918 (10/8, 172.16/12, 192.168/16) and RFC 4193
	// unique local fc00::/7 ("private").
	Private
	// External is every other address: global unicast ("external").
	External
)

func (c Class) String() string {
	switch c {
	case Loopback:
		return "loopback"
	case Private:
		return "private"
	case External:
		return "external"
	}
	return "special"
}

// Range is one entry of the registries: its prefix, its name there, and
// the class of its addresses. An entry with Carries set holds addresses
// that carry IPv4 addresses: they are judged by those (Classify).
type Range struct {
	Prefix netip.Prefix
	Name   string
	Class  Class
	// Carries, when set, returns the IPv4 addresses an address of the
	// range carries (one, or a Teredo server and client).
	Carries func(netip.Addr) []netip.Addr
}

func pfx(s string) netip.Prefix { return netip.MustParsePrefix(s) }

// Registry is the table Classify judges by: IANA's IPv4 and IPv6
// Special-Purpose Address Registries (as of 2025), with multicast,
// IPv4-compatible addresses and 6to4's relay anycast added. Globally
// reachable entries of the registries (AS112, AMT, PCP and TURN anycast)
// are refused too: no webhook or mirror has business there. Read-only.
var Registry = []Range{
	// IPv4 (RFC 6890 and updates).
	{pfx("0.0.0.0/8"), `"This network"`, Special, nil},
	{pfx("0.0.0.0/32"), `"This host on this network"`, Special, nil},
	{pfx("10.0.0.0/8"), "Private-Use", Private, nil},
	{pfx("100.64.0.0/10"), "Shared Address Space (carrier-grade NAT)", Special, nil},
	{pfx("127.0.0.0/8"), "Loopback", Loopback, nil},
	{pfx("169.254.0.0/16"), "Link Local", Special, nil},
	{pfx("172.16.0.0/12"), "Private-Use", Private, nil},
	{pfx("192.0.0.0/24"), "IETF Protocol Assignments", Special, nil},
	{pfx("192.0.0.0/29"), "IPv4 Service Continuity Prefix", Special, nil},
	{pfx("192.0.0.8/32"), "IPv4 dummy address", Special, nil},
	{pfx("192.0.0.9/32"), "Port Control Protocol Anycast", Special, nil},
	{pfx("192.0.0.10/32"), "Traversal Using Relays around NAT Anycast", Special, nil},
	{pfx("192.0.0.170/32"), "NAT64/DNS64 Discovery", Special, nil},
	{pfx("192.0.0.171/32"), "NAT64/DNS64 Discovery", Special, nil},
	{pfx("192.0.2.0/24"), "Documentation (TEST-NET-1)", Special, nil},
	{pfx("192.31.196.0/24"), "AS112-v4", Special, nil},
	{pfx("192.52.193.0/24"), "AMT", Special, nil},
	{pfx("192.88.99.0/24"), "Deprecated (6to4 Relay Anycast)", Special, nil},
	{pfx("192.168.0.0/16"), "Private-Use", Private, nil},
	{pfx("192.175.48.0/24"), "Direct Delegation AS112 Service", Special, nil},
	{pfx("198.18.0.0/15"), "Benchmarking", Special, nil},
	{pfx("198.51.100.0/24"), "Documentation (TEST-NET-2)", Special, nil},
	{pfx("203.0.113.0/24"), "Documentation (TEST-NET-3)", Special, nil},
	{pfx("224.0.0.0/4"), "Multicast", Special, nil},
	{pfx("240.0.0.0/4"), "Reserved", Special, nil},
	{pfx("255.255.255.255/32"), "Limited Broadcast", Special, nil},

	// IPv6 (RFC 6890 and updates).
	{pfx("::/128"), "Unspecified Address", Special, nil},
	{pfx("::1/128"), "Loopback Address", Loopback, nil},
	{pfx("::/96"), "IPv4-compatible Address (deprecated)", Special, low32},
	{pfx("::ffff:0:0/96"), "IPv4-mapped Address", Special, low32},
	{pfx("64:ff9b::/96"), "IPv4-IPv6 Translat. (NAT64)", Special, low32},
	{pfx("64:ff9b:1::/48"), "IPv4-IPv6 Translat. (local-use NAT64)", Special, nil},
	{pfx("100::/64"), "Discard-Only Address Block", Special, nil},
	{pfx("100:0:0:1::/64"), "Dummy IPv6 Prefix", Special, nil},
	{pfx("2001::/23"), "IETF Protocol Assignments", Special, nil},
	{pfx("2001::/32"), "TEREDO", Special, teredo},
	{pfx("2001:1::1/128"), "Port Control Protocol Anycast", Special, nil},
	{pfx("2001:1::2/128"), "Traversal Using Relays around NAT Anycast", Special, nil},
	{pfx("2001:1::3/128"), "DNS-SD Service Registration Protocol Anycast", Special, nil},
	{pfx("2001:2::/48"), "Benchmarking", Special, nil},
	{pfx("2001:3::/32"), "AMT", Special, nil},
	{pfx("2001:4:112::/48"), "AS112-v6", Special, nil},
	{pfx("2001:10::/28"), "Deprecated (previously ORCHID)", Special, nil},
	{pfx("2001:20::/28"), "ORCHIDv2", Special, nil},
	{pfx("2001:30::/28"), "Drone Remote ID Protocol Entity Tags (DETs) Prefix", Special, nil},
	{pfx("2001:db8::/32"), "Documentation", Special, nil},
	{pfx("2002::/16"), "6to4", Special, sixToFour},
	{pfx("2620:4f:8000::/48"), "Direct Delegation AS112 Service", Special, nil},
	{pfx("3fff::/20"), "Documentation", Special, nil},
	{pfx("5f00::/16"), "Segment Routing (SRv6) SIDs", Special, nil},
	{pfx("fc00::/7"), "Unique-Local", Private, nil},
	{pfx("fe80::/10"), "Link-Local Unicast", Special, nil},
	{pfx("fec0::/10"), "Site-Local (deprecated)", Special, nil},
	{pfx("ff00::/8"), "Multicast", Special, nil},
}

// globalUnicast6 is IPv6's global unicast space: an IPv6 address outside
// it and outside every Registry entry is Special (reserved by the IETF).
var globalUnicast6 = pfx("2000::/3")

// low32 is the IPv4 address in the last 32 bits (IPv4-mapped,
// IPv4-compatible and NAT64 well-known-prefix addresses).
func low32(ip netip.Addr) []netip.Addr {
	b := ip.As16()
	return []netip.Addr{netip.AddrFrom4([4]byte{b[12], b[13], b[14], b[15]})}
}

// sixToFour is the IPv4 address of a 6to4 prefix, 2002:AABB:CCDD::/48.
func sixToFour(ip netip.Addr) []netip.Addr {
	b := ip.As16()
	return []netip.Addr{netip.AddrFrom4([4]byte{b[2], b[3], b[4], b[5]})}
}

// teredo is a Teredo address's server (bits 32-63) and client (the last
// 32 bits, inverted) IPv4 addresses (RFC 4380).
func teredo(ip netip.Addr) []netip.Addr {
	b := ip.As16()
	return []netip.Addr{
		netip.AddrFrom4([4]byte{b[4], b[5], b[6], b[7]}),
		netip.AddrFrom4([4]byte{^b[12], ^b[13], ^b[14], ^b[15]}),
	}
}

// Lookup returns the most specific Registry entry holding ip (its zone
// ignored), if any.
func Lookup(ip netip.Addr) (Range, bool) {
	ip = ip.WithZone("")
	best, found := Range{}, false
	for _, r := range Registry {
		if r.Prefix.Contains(ip) && (!found || r.Prefix.Bits() > best.Prefix.Bits()) {
			best, found = r, true
		}
	}
	return best, found
}

// Carried returns the IPv4 addresses ip carries: an IPv4-mapped,
// IPv4-compatible or NAT64 (64:ff9b::/96) address its last 32 bits, a
// 6to4 address its site's IPv4, a Teredo address its server's and its
// client's. ok is false for other addresses (an IPv4 address included).
func Carried(ip netip.Addr) (v4 []netip.Addr, ok bool) {
	r, found := Lookup(ip)
	if !found || r.Carries == nil || !ip.Is6() {
		return nil, false
	}
	return r.Carries(ip.WithZone("")), true
}

// Classify tells what ip is: its most specific Registry entry's class;
// an address that carries IPv4 addresses (Carried) is the class of what it
// carries (Special when a Teredo address's two differ); an address in no
// entry is External, but Special for IPv6 outside 2000::/3. An invalid
// address is Special. The IPv4-mapped form of an address is always the
// class of the address.
func Classify(ip netip.Addr) Class {
	if !ip.IsValid() {
		return Special
	}
	ip = ip.WithZone("")
	if v4, ok := Carried(ip); ok {
		c := Classify(v4[0])
		for _, a := range v4[1:] {
			if Classify(a) != c {
				return Special
			}
		}
		return c
	}
	if r, ok := Lookup(ip); ok {
		return r.Class
	}
	if ip.Is6() && !globalUnicast6.Contains(ip) {
		return Special
	}
	return External
}
