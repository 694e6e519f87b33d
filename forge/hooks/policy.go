package hooks

import (
	"net/netip"

	"github.com/hearthforge/hearth/forge/netpolicy"
)

// AddressPolicy decides which remote addresses hooks may reach, as
// Forgejo's [webhook] ALLOWED_HOST_LIST (modules/hostmatcher): a
// netpolicy.List with the keywords "loopback", "private", "external" and
// "*", CIDRs and host-name globs (see netpolicy.List, and
// netpolicy.Classify for what each keyword holds: "external" is never a
// special-purpose address, such as carrier-grade NAT, 0.0.0.0/8 or the
// IPv6 forms carrying a loopback IPv4 address).
//
// The zero value (no entries) is "external". A name glob allows a host by
// its name before resolution; every other entry judges the addresses the
// name resolves to, and the transport checks again the address it
// connects to.
type AddressPolicy struct {
	list netpolicy.List
}

// ParseAddressPolicy parses ALLOWED_HOST_LIST entries (comma-separated
// strings are split too). An entry that is neither keyword, CIDR nor valid
// glob is forge.ErrInvalid.
func ParseAddressPolicy(entries []string) (AddressPolicy, error) {
	l, err := netpolicy.ParseList(entries, true)
	if err != nil {
		return AddressPolicy{}, err
	}
	return AddressPolicy{list: l}, nil
}

func (p AddressPolicy) effective() netpolicy.List {
	if p.list.Empty() {
		return p.list.WithExternal()
	}
	return p.list
}

// AllowsName reports whether a host name is allowed by a name glob (or
// "*"), before any resolution.
func (p AddressPolicy) AllowsName(host string) bool { return p.effective().MatchName(host) }

// AllowsAddr reports whether an IP address may be reached.
func (p AddressPolicy) AllowsAddr(ip netip.Addr) bool { return p.effective().MatchAddr(ip) }

// Allows is the connect-time decision: the host's name is allowed, or the
// address it resolved to is.
func (p AddressPolicy) Allows(host string, ip netip.Addr) bool { return p.effective().Match(host, ip) }
