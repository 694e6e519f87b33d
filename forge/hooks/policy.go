package hooks

import (
	"net/netip"
	"strings"

	"github.com/gobwas/glob"

	"github.com/hearthforge/hearth/forge"
)

// AddressPolicy decides which remote addresses hooks may reach, as
// Forgejo's [webhook] ALLOWED_HOST_LIST (modules/hostmatcher). Its entries:
//
//   - "loopback": 127.0.0.0/8 and ::1;
//   - "private": RFC 1918 and RFC 4193 addresses (10/8, 172.16/12,
//     192.168/16, fc00::/7);
//   - "external": global unicast addresses that are not private (so never
//     loopback, link-local such as the 169.254.169.254 metadata address,
//     multicast or unspecified);
//   - "*": everything;
//   - a CIDR such as "10.1.0.0/16";
//   - anything else: a glob over the host name, lower-cased ("*.example.com").
//
// The zero value (no entries) is "external". A name glob allows a host by
// its name before resolution; every other entry judges the addresses the
// name resolves to, and the transport checks again the address it
// connects to.
type AddressPolicy struct {
	all, loopback, private, external bool
	cidrs                            []netip.Prefix
	names                            []glob.Glob
}

// ParseAddressPolicy parses ALLOWED_HOST_LIST entries (comma-separated
// strings are split too). An entry that is neither keyword, CIDR nor valid
// glob is forge.ErrInvalid.
func ParseAddressPolicy(entries []string) (AddressPolicy, error) {
	var p AddressPolicy
	n := 0
	for _, e := range entries {
		for _, w := range strings.Split(e, ",") {
			w = strings.ToLower(strings.TrimSpace(w))
			if w == "" {
				continue
			}
			n++
			switch w {
			case "*":
				p.all = true
			case "loopback":
				p.loopback = true
			case "private":
				p.private = true
			case "external":
				p.external = true
			default:
				if pre, err := netip.ParsePrefix(w); err == nil {
					p.cidrs = append(p.cidrs, pre.Masked())
					continue
				}
				g, err := glob.Compile(w)
				if err != nil {
					return AddressPolicy{}, forge.Errorf(forge.ErrInvalid, "invalid allowed host %q", w)
				}
				p.names = append(p.names, g)
			}
		}
	}
	if n == 0 {
		p.external = true
	}
	return p, nil
}

// AllowsName reports whether a host name is allowed by a name glob, before
// any resolution.
func (p AddressPolicy) AllowsName(host string) bool {
	if p.all {
		return true
	}
	host = strings.ToLower(host)
	for _, g := range p.names {
		if globMatch(g, host) {
			return true
		}
	}
	return false
}

// AllowsAddr reports whether an IP address may be reached.
func (p AddressPolicy) AllowsAddr(ip netip.Addr) bool {
	ip = ip.Unmap()
	switch {
	case p.all:
		return true
	case p.loopback && ip.IsLoopback():
		return true
	case p.private && ip.IsPrivate():
		return true
	case p.external && ip.IsGlobalUnicast() && !ip.IsPrivate():
		return true
	}
	for _, c := range p.cidrs {
		if c.Contains(ip) {
			return true
		}
	}
	return false
}

// Allows is the connect-time decision: the host's name is allowed, or the
// address it resolved to is.
func (p AddressPolicy) Allows(host string, ip netip.Addr) bool {
	return p.AllowsName(host) || p.AllowsAddr(ip)
}
