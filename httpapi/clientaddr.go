package httpapi

import (
	"net"
	"net/netip"
	"strings"
)

// clientAddr is the client's IP address for the sign-in throttle: the
// connection's peer, unless that peer is a trusted proxy, in which case
// X-Forwarded-For is read from the right (the hop the nearest proxy added)
// and the first address that is not a trusted proxy is the client. A
// client cannot choose its address by sending the header itself: entries
// it writes sit to the left of the one its proxy appends and are never
// reached, unless the client is itself a trusted proxy. An unparsable
// entry stops the walk at the last trusted hop. A pure rule.
func clientAddr(remoteAddr string, forwardedFor []string, trusted []netip.Prefix) string {
	host := remoteAddr
	if h, _, err := net.SplitHostPort(remoteAddr); err == nil {
		host = h
	}
	addr, err := netip.ParseAddr(host)
	if err != nil || !isTrusted(addr, trusted) {
		return host
	}
	var hops []string
	for _, v := range forwardedFor {
		hops = append(hops, strings.Split(v, ",")...)
	}
	for i := len(hops) - 1; i >= 0; i-- {
		hop, err := netip.ParseAddr(strings.TrimSpace(hops[i]))
		if err != nil {
			break
		}
		addr = hop.Unmap()
		if !isTrusted(addr, trusted) {
			break
		}
	}
	return addr.String()
}

func isTrusted(a netip.Addr, trusted []netip.Prefix) bool {
	a = a.Unmap()
	for _, p := range trusted {
		if p.Contains(a) {
			return true
		}
	}
	return false
}
