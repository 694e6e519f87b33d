package hooks_test

import (
	"errors"
	"net/netip"
	"net/url"
	"strings"
	"testing"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/hooks"
	"github.com/hearthforge/hearth/forge/netpolicy"
)

// FuzzAddressPolicy parses arbitrary ALLOWED_HOST_LIST values and asks
// them about arbitrary addresses and host names. A refused list is
// forge.ErrInvalid. An accepted one never lets a webhook reach a loopback,
// link-local (the cloud metadata address), unspecified or multicast
// address unless an entry says so ("*", "loopback" for loopback, or a
// CIDR holding the address), answers an IPv4-mapped IPv6 address as its
// IPv4 address, and allows a host by name only through "*" or a name
// glob.
func FuzzAddressPolicy(f *testing.F) {
	for _, s := range []string{"", "external", "loopback", "private", "*", "10.1.0.0/16", "*.example.com", "loopback, *.internal",
		"::1/128", "[", "{a", "169.254.0.0/16", "0.0.0.0/0", "EXTERNAL,,", "fe80::/10"} {
		f.Add(s, []byte{169, 254, 169, 254}, "hooks.example.com")
		f.Add(s, []byte{127, 0, 0, 1}, "localhost")
	}
	f.Add("external", []byte{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 10, 0, 0, 1}, "")
	f.Add("", []byte{100, 64, 0, 1}, "")
	f.Add("", []byte{0, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0, 127, 0, 0, 1}, "")
	f.Add("", []byte{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 127, 0, 0, 1}, "")
	f.Fuzz(func(t *testing.T, list string, raw []byte, host string) {
		p, err := hooks.ParseAddressPolicy([]string{list})
		if err != nil {
			if !errors.Is(err, forge.ErrInvalid) {
				t.Fatalf("ParseAddressPolicy(%q): %v is not ErrInvalid", list, err)
			}
			return
		}
		var all, loopback, private, external, names bool
		var cidrs []netip.Prefix
		for _, w := range strings.Split(list, ",") {
			switch w = strings.ToLower(strings.TrimSpace(w)); w {
			case "":
			case "*":
				all = true
			case "loopback":
				loopback = true
			case "private":
				private = true
			case "external":
				external = true
			default:
				if pre, err := netip.ParsePrefix(w); err == nil {
					cidrs = append(cidrs, pre)
				} else {
					names = true
				}
			}
		}
		inCIDR := func(ip netip.Addr) bool {
			for _, c := range cidrs {
				if c.Masked().Contains(ip) {
					return true
				}
			}
			return false
		}
		ip, ok := netip.AddrFromSlice(raw)
		if ok {
			got := p.AllowsAddr(ip)
			if got != p.AllowsAddr(ip.Unmap()) {
				t.Fatalf("policy %q: %v and %v answer differently", list, ip, ip.Unmap())
			}
			u := ip.Unmap()
			if got && !all && !inCIDR(u) {
				switch {
				case u.IsLoopback() && !loopback,
					u.IsLinkLocalUnicast(), u.IsLinkLocalMulticast(), u.IsMulticast(), u.IsUnspecified():
					t.Fatalf("policy %q allows %v", list, ip)
				}
				// Allowed by a keyword: the one naming the address's class
				// (netpolicy.Classify, checked against IANA's registries in
				// its own package); the empty list is "external".
				external = external || (!all && !loopback && !private && len(cidrs) == 0 && !names)
				switch c := netpolicy.Classify(ip); {
				case c == netpolicy.Loopback && loopback, c == netpolicy.Private && private, c == netpolicy.External && external:
				default:
					t.Fatalf("policy %q allows %v (%v)", list, ip, c)
				}
			}
		}
		if p.AllowsName(host) && !all && !names {
			t.Fatalf("policy %q allows host name %q without a name entry", list, host)
		}
	})
}

// FuzzValidURL checks arbitrary webhook target URLs: an accepted one is
// an absolute http or https URL with a host.
func FuzzValidURL(f *testing.F) {
	for _, s := range []string{"http://example.com/hook", "https://[::1]:8080/x", "ftp://x", "//x", "http://", "http:/x", "javascript:alert(1)",
		"http://a b", "http://%zz", "HTTP://X"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !hooks.ValidURL(s) {
			return
		}
		u, err := url.Parse(s)
		if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
			t.Fatalf("ValidURL(%q) accepted: %v", s, err)
		}
	})
}

// FuzzMatchBranchFilter matches arbitrary webhook branch filters against
// arbitrary branches: it never panics; an empty filter, "*" and an event
// without a branch pass; a filter that does not compile passes nothing.
func FuzzMatchBranchFilter(f *testing.F) {
	for _, s := range [][2]string{{"", "main"}, {"*", "x"}, {"main", "main"}, {"{main,dev}", "dev"}, {"a{", "a"}, {"{a", "a"},
		{"release/*", "release/1"}, {"[", "["}, {"x", ""}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, filter, branch string) {
		got := hooks.MatchBranchFilter(filter, branch)
		if (filter == "" || filter == "*" || branch == "") && !got {
			t.Fatalf("MatchBranchFilter(%q, %q) = false", filter, branch)
		}
		if !hooks.ValidBranchFilter(filter) && got && branch != "" {
			t.Fatalf("MatchBranchFilter(%q, %q): an invalid filter passes", filter, branch)
		}
	})
}

// TestGlobPanics is the defect FuzzMatchBranchFilter found: gobwas/glob
// panics matching "a{" against "a", so a webhook whose branch filter was
// "main{" made every push of main panic in Enqueue (no hook of the
// repository was queued and the push request ended in a recovered panic).
// Such a filter now passes nothing, and an allowed host list entry that
// panics allows nothing.
func TestGlobPanics(t *testing.T) {
	t.Parallel()
	if hooks.MatchBranchFilter("main{", "main") {
		t.Error(`MatchBranchFilter("main{", "main") = true`)
	}
	p, err := hooks.ParseAddressPolicy([]string{"a{"})
	if err != nil {
		t.Fatal(err)
	}
	if p.AllowsName("a") {
		t.Error(`policy "a{" allows "a"`)
	}
}

// FuzzHookConfig checks arbitrary hook configurations and event lists: a
// refused configuration is forge.ErrInvalid; an accepted one has a valid
// http(s) URL and a known content type; the events read are known words,
// lower-case, each once, and reading them again changes nothing.
func FuzzHookConfig(f *testing.F) {
	f.Add(uint8(0), "http://example.com/h", "json", "#general", "push,Issues,issues, bogus")
	f.Add(uint8(1), "ftp://x", "xml", "", "")
	f.Add(uint8(2), "https://[::1]/", "form", " # ", "PULL_REQUEST")
	types := []hooks.Type{hooks.TypeForgejo, hooks.TypeGitea, hooks.TypeSlack, "gogs", "discord", ""}
	f.Fuzz(func(t *testing.T, kind uint8, u, contentType, channel, events string) {
		c := hooks.Settings{"url": u, "content_type": contentType}
		if channel != "" {
			c["channel"] = channel
		}
		typ := types[int(kind)%len(types)]
		if err := hooks.CheckConfig(typ, c); err != nil {
			if !errors.Is(err, forge.ErrInvalid) {
				t.Fatalf("CheckConfig(%q, %v): %v is not ErrInvalid", typ, c, err)
			}
		} else if !hooks.ValidURL(u) || contentType != "json" && contentType != "form" {
			t.Fatalf("CheckConfig(%q, %v) accepted", typ, c)
		}
		got := hooks.NormalizeEvents(strings.Split(events, ","))
		seen := map[string]bool{}
		for _, w := range got {
			if seen[w] || w != strings.ToLower(w) || strings.TrimSpace(w) != w || w == "" {
				t.Fatalf("NormalizeEvents(%q) = %q", events, got)
			}
			seen[w] = true
		}
		if again := hooks.NormalizeEvents(got); len(got) > 0 && strings.Join(again, ",") != strings.Join(got, ",") {
			t.Fatalf("NormalizeEvents(%q) = %q, again %q", events, got, again)
		}
	})
}
