package mirror

import (
	"context"
	"net"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"syscall"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/netpolicy"
)

// Resolver looks host names up; *net.Resolver satisfies it.
type Resolver interface {
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
}

// Policy decides which remote hosts mirrors and migrations may reach, as
// Forgejo's [migrations] ALLOWED_DOMAINS, BLOCKED_DOMAINS and
// ALLOW_LOCALNETWORKS. Names are checked against the lists; addresses are
// checked after DNS resolution (every answer must pass) and again when the
// connection is made (Control) and on every redirect (CheckRedirect), so a
// name that resolves differently the second time, or a redirect to a
// blocked host, is refused too. The zero Policy allows every public host.
type Policy struct {
	// AllowedDomains, when not empty, are the only host names allowed:
	// glob patterns (`*.example.com`, gobwas/glob as Forgejo's
	// hostmatcher) or CIDRs (`10.1.0.0/16`); an IP in a listed CIDR is
	// allowed even when local.
	AllowedDomains []string
	// BlockedDomains are refused: glob patterns or CIDRs.
	BlockedDomains []string
	// AllowLocalNetworks allows every address that is not external
	// (IsLocal): loopback, private and the special-purpose ranges.
	AllowLocalNetworks bool
	// AllowLoopback allows loopback addresses only (forged
	// -allow-local-migrations, tests).
	AllowLoopback bool
	// Resolver resolves names; nil is net.DefaultResolver.
	Resolver Resolver
}

func blocked() error { return forge.Reasonf(forge.ErrInvalid, ErrAddrBlocked, MsgBlocked) }

// list reads AllowedDomains or BlockedDomains as Forgejo's
// ParseSimpleMatchList: globs (gobwas/glob, as Forgejo's) and CIDRs; an
// entry that is not a valid glob matches its own text.
func list(entries []string) netpolicy.List {
	l, _ := netpolicy.ParseList(entries, false)
	return l
}

// CheckHost checks a host name (or IP literal) against the lists only.
// forge.ErrInvalid with ErrAddrBlocked if refused.
func (p Policy) CheckHost(host string) error {
	ip, err := hostAddr(host)
	if err != nil {
		return err
	}
	host = strings.ToLower(strings.TrimSuffix(host, "."))
	allowed, blockedList := list(p.AllowedDomains), list(p.BlockedDomains)
	if !allowed.Empty() && !allowed.MatchName(host) && !(ip.IsValid() && allowed.MatchCIDR(ip)) {
		return blocked()
	}
	if blockedList.MatchName(host) {
		return blocked()
	}
	if ip.IsValid() {
		return p.CheckIP(ip)
	}
	return nil
}

// IsLocal reports whether ip is not an external address
// (netpolicy.Classify): loopback, private, and every special-purpose
// range of IANA's registries — link-local (cloud metadata
// 169.254.169.254 included), CGNAT (100.64.0.0/10, Alibaba's metadata),
// 0.0.0.0/8, unspecified, multicast, documentation, reserved, and the
// IPv6 forms carrying such an IPv4 address (IPv4-mapped and -compatible,
// NAT64, 6to4, Teredo).
func IsLocal(ip netip.Addr) bool { return netpolicy.Classify(ip) != netpolicy.External }

// CheckIP checks one resolved address: blocked CIDRs (holding it or the
// IPv4 address it carries) are refused; an address that is not external
// (IsLocal) is refused unless AllowLocalNetworks, AllowLoopback for a
// loopback one, or an allowed CIDR holds it. forge.ErrInvalid with
// ErrAddrBlocked if refused.
func (p Policy) CheckIP(ip netip.Addr) error {
	if list(p.BlockedDomains).MatchCarried(ip) {
		return blocked()
	}
	c := netpolicy.Classify(ip)
	if c == netpolicy.External || p.AllowLocalNetworks || (p.AllowLoopback && c == netpolicy.Loopback) {
		return nil
	}
	if list(p.AllowedDomains).MatchCIDR(ip) {
		return nil
	}
	return blocked()
}

// Resolve checks host by name, resolves it and checks every address: one
// refused answer refuses the host (a name answering both a public and a
// private address must not pass). It returns the addresses, for a
// transport that pins the one it checked. A lookup failure is
// forge.ErrInvalid with ErrAddrURL.
func (p Policy) Resolve(ctx context.Context, host string) ([]netip.Addr, error) {
	if err := p.CheckHost(host); err != nil {
		return nil, err
	}
	if ip, _ := hostAddr(host); ip.IsValid() {
		return []netip.Addr{ip}, nil
	}
	r := p.Resolver
	if r == nil {
		r = net.DefaultResolver
	}
	ips, err := r.LookupNetIP(ctx, "ip", host)
	if err != nil || len(ips) == 0 {
		return nil, forge.Reasonf(forge.ErrInvalid, ErrAddrURL, MsgURL)
	}
	for _, ip := range ips {
		if err := p.CheckIP(ip); err != nil {
			return nil, err
		}
	}
	return ips, nil
}

// CheckAddress checks a parsed remote before any transfer: its host by
// name and by every resolved address. Local paths pass here (Service
// checks Config.AllowLocalPaths).
func (p Policy) CheckAddress(ctx context.Context, a RemoteAddress) error {
	if a.Local {
		return nil
	}
	_, err := p.Resolve(ctx, a.Host())
	return err
}

// Control is a net.Dialer Control function: it refuses a connection to an
// address the policy refuses, whatever name led there (DNS rebinding,
// redirects). The git layer sets it on every dialer it uses for remotes.
func (p Policy) Control(network, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return blocked()
	}
	return p.CheckIP(ap.Addr())
}

// CheckRedirect is what an HTTP client's CheckRedirect calls for each
// redirect target u (the git layer wraps it: domain packages do not import
// net/http): the scheme must stay http or https and the host must pass
// CheckHost; the address is checked again by Control when dialled. via is
// the number of requests made so far; more than 10 is refused.
func (p Policy) CheckRedirect(u *url.URL, via int) error {
	if via >= 10 {
		return forge.Errorf(forge.ErrInvalid, "stopped after 10 redirects")
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return forge.Reasonf(forge.ErrInvalid, ErrAddrProtocol, MsgProtocol)
	}
	return p.CheckHost(u.Hostname())
}

// hostAddr returns the address a host denotes for git's libcurl, which
// connects there whatever address is pinned for the text: an IP literal,
// or one of the numeric IPv4 forms netip refuses and libcurl reads as an
// address (inet_aton's: one to four parts, decimal, 0-led octal or 0x hex,
// the last filling the remaining bytes: "2130706433", "127.1", "0x7f.1");
// the zero Addr for a name. A host that is not ASCII is refused (blocked):
// libcurl converts it (IDNA, fullwidth digits to ASCII ones) to a name or
// address other than the one resolved here.
func hostAddr(host string) (netip.Addr, error) {
	h := strings.Trim(host, "[]")
	if ip, err := netip.ParseAddr(h); err == nil {
		return ip, nil
	}
	for i := 0; i < len(h); i++ {
		if h[i] >= 0x80 {
			return netip.Addr{}, blocked()
		}
	}
	parts := strings.Split(strings.TrimSuffix(h, "."), ".")
	if len(parts) > 4 {
		return netip.Addr{}, nil
	}
	var v uint64
	for i, part := range parts {
		base, digits := 10, part
		switch {
		case len(part) > 1 && (part[:2] == "0x" || part[:2] == "0X"):
			base, digits = 16, part[2:]
			if digits == "" {
				digits = "0"
			}
		case len(part) > 1 && part[0] == '0':
			base, digits = 8, part[1:]
		}
		n, err := strconv.ParseUint(digits, base, 32)
		if err != nil || part == "" || digits[0] == '+' || digits[0] == '-' {
			return netip.Addr{}, nil
		}
		if i < len(parts)-1 {
			if n > 255 {
				return netip.Addr{}, nil
			}
			v = v<<8 | n
			continue
		}
		rest := uint(8 * (4 - i))
		if rest < 64 && n >= 1<<rest {
			return netip.Addr{}, nil
		}
		v = v<<rest | n
	}
	return netip.AddrFrom4([4]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)}), nil
}
