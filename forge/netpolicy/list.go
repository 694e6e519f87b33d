package netpolicy

import (
	"net/netip"
	"strings"

	"github.com/gobwas/glob"

	"github.com/hearthforge/hearth/forge"
)

// List is a host match list as Forgejo's modules/hostmatcher reads
// [webhook] ALLOWED_HOST_LIST and [migrations] ALLOWED_DOMAINS /
// BLOCKED_DOMAINS. Its entries:
//
//   - "loopback": Loopback addresses (127.0.0.0/8, ::1, and the IPv6 forms
//     carrying them);
//   - "private": Private addresses (RFC 1918, RFC 4193 fc00::/7);
//   - "external": External addresses: not loopback, not private and in no
//     special-purpose range (Classify), so never link-local (the cloud
//     metadata address), carrier-grade NAT, 0.0.0.0/8, documentation,
//     reserved, multicast or unspecified;
//   - "*": everything;
//   - a CIDR such as "10.1.0.0/16";
//   - anything else: a glob over the lower-cased host name
//     ("*.example.com"; gobwas/glob syntax, as Forgejo's).
//
// The zero List matches nothing. A name glob matches a host by its name
// before resolution; every other entry judges an address.
type List struct {
	all, loopback, private, external bool
	cidrs                            []netip.Prefix
	names                            []nameGlob
	n                                int
}

// ParseList parses list entries (comma-separated strings are split too;
// blanks are skipped; case is ignored). With builtins, an entry that is
// neither keyword, CIDR nor a valid glob is forge.ErrInvalid. With
// builtins false (the migration lists, Forgejo's ParseSimpleMatchList)
// the keywords are host names like any other, and an entry that is not a
// valid glob matches its own text only (never an error).
func ParseList(entries []string, builtins bool) (List, error) {
	var l List
	for _, e := range entries {
		for _, w := range strings.Split(e, ",") {
			w = strings.ToLower(strings.TrimSpace(w))
			if w == "" {
				continue
			}
			l.n++
			if builtins {
				switch w {
				case "*":
					l.all = true
					continue
				case "loopback":
					l.loopback = true
					continue
				case "private":
					l.private = true
					continue
				case "external":
					l.external = true
					continue
				}
			}
			if p, err := netip.ParsePrefix(w); err == nil {
				l.cidrs = append(l.cidrs, p.Masked())
				continue
			}
			g, err := glob.Compile(w)
			if err != nil && builtins {
				return List{}, forge.Errorf(forge.ErrInvalid, "invalid allowed host %q", w)
			}
			l.names = append(l.names, nameGlob{w, g})
		}
	}
	return l, nil
}

// Empty reports whether the list has no entry.
func (l List) Empty() bool { return l.n == 0 }

// WithExternal returns l with "external" added (the default of
// ALLOWED_HOST_LIST when it is empty).
func (l List) WithExternal() List {
	l.external = true
	l.n++
	return l
}

// MatchName reports whether a host name is matched by "*" or a name glob,
// before any resolution (a glob, or the entry's very text: a glob that
// can't read the text, such as one that is not UTF-8, still matches
// itself). The name is lower-cased and a final dot ignored.
func (l List) MatchName(host string) bool {
	if l.all {
		return true
	}
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	if host == "" {
		return false
	}
	for _, g := range l.names {
		if g.src == host || (g.g != nil && globMatch(g.g, host)) {
			return true
		}
	}
	return false
}

// MatchAddr reports whether an address is matched: "*", a CIDR holding
// it (or the IPv4 address its IPv4-mapped form is), or the keyword of its
// Class. An invalid address matches only "*".
func (l List) MatchAddr(ip netip.Addr) bool {
	if l.all {
		return true
	}
	if !ip.IsValid() {
		return false
	}
	if l.MatchCIDR(ip) {
		return true
	}
	switch Classify(ip) {
	case Loopback:
		return l.loopback
	case Private:
		return l.private
	case External:
		return l.external
	}
	return false
}

// MatchCIDR reports whether a CIDR entry holds ip or the IPv4 address of
// its IPv4-mapped form (zones ignored).
func (l List) MatchCIDR(ip netip.Addr) bool {
	ip = ip.WithZone("")
	for _, c := range l.cidrs {
		if c.Contains(ip) || c.Contains(ip.Unmap()) {
			return true
		}
	}
	return false
}

// MatchCarried reports whether a CIDR entry holds ip or any IPv4 address
// ip carries (Carried): for block lists, so that 10.0.0.0/8 blocks
// 64:ff9b::a00:1 too.
func (l List) MatchCarried(ip netip.Addr) bool {
	if l.MatchCIDR(ip) {
		return true
	}
	v4, _ := Carried(ip)
	for _, a := range v4 {
		if l.MatchCIDR(a) {
			return true
		}
	}
	return false
}

// Match is the connect-time decision: the host's name is matched, or the
// address it resolved to is.
func (l List) Match(host string, ip netip.Addr) bool {
	return l.MatchName(host) || l.MatchAddr(ip)
}

// nameGlob is a name entry and its glob.
type nameGlob struct {
	src string
	g   glob.Glob
}

// globMatch is g.Match, false where gobwas/glob panics (it does on some
// patterns, such as "a{" against "a").
func globMatch(g glob.Glob, s string) (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	return g.Match(s)
}
