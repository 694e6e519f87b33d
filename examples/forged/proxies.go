package main

import (
	"fmt"
	"net/netip"
	"strings"
)

// parseTrustedProxies reads -trusted-proxies: comma-separated networks in
// CIDR notation (10.0.0.0/8, fd00::/8) or single addresses (127.0.0.1,
// taken as /32 or /128). Empty trusts no proxy.
func parseTrustedProxies(s string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		if p, err := netip.ParsePrefix(f); err == nil {
			out = append(out, p.Masked())
			continue
		}
		a, err := netip.ParseAddr(f)
		if err != nil {
			return nil, fmt.Errorf("-trusted-proxies: %q is neither a network (CIDR) nor an address", f)
		}
		a = a.Unmap()
		out = append(out, netip.PrefixFrom(a, a.BitLen()))
	}
	return out, nil
}
