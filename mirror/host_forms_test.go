package mirror_test

import (
	"context"
	"net/netip"
	"net/url"
	"testing"

	"github.com/hearthforge/hearth/mirror"
)

// anyPublic answers every name with a public address, as a resolver that
// turns NXDOMAIN into an advertising server's address does.
type anyPublic struct{}

func (anyPublic) LookupNetIP(context.Context, string, string) ([]netip.Addr, error) {
	return []netip.Addr{netip.MustParseAddr("93.184.216.34")}, nil
}

// TestHostFormsGitReadsAsAddresses: git's libcurl reads the numeric IPv4
// forms netip refuses ("2130706433", "127.1", "0x7f.1", "0177.0.0.1") as
// addresses, and turns non-ASCII names (fullwidth digits) into ASCII ones,
// connecting there whatever address was pinned for the name as written
// (checked with git 2.39 / libcurl 7.88: each reached 127.0.0.1). The
// policy must judge those hosts as the address git connects to, or refuse
// them, whatever the resolver answers for the text.
func TestHostFormsGitReadsAsAddresses(t *testing.T) {
	t.Parallel()
	p := mirror.Policy{Resolver: anyPublic{}}
	for _, host := range []string{
		"2130706433", "127.1", "0x7f.1", "0x7f000001", "0177.0.0.1", "0177.1", "127.0.1", "0X7F.0.0.1",
		"10.1", "167772161", "0xa9.0xfe.0xa9.0xfe", "127.1.", "１２７.０.０.１", "bücher.example",
	} {
		if _, err := p.Resolve(context.Background(), host); err == nil {
			t.Errorf("Resolve(%q) passed; git connects to the address it denotes", host)
		}
		u := &url.URL{Scheme: "http", Host: host}
		if err := p.CheckRedirect(u, 1); err == nil {
			t.Errorf("CheckRedirect(%q) passed", host)
		}
	}
	// Names that only look numeric in part are names.
	for _, host := range []string{"1.example", "0x7f.example", "127.0.0.1.nip.io", "a1"} {
		if _, err := p.Resolve(context.Background(), host); err != nil {
			t.Errorf("Resolve(%q) = %v, want the resolver's public answer", host, err)
		}
	}
	// A loopback allowance still lets the numeric form through, judged as
	// the loopback address it is.
	lp := mirror.Policy{Resolver: anyPublic{}, AllowLoopback: true}
	ips, err := lp.Resolve(context.Background(), "2130706433")
	if err != nil || len(ips) != 1 || ips[0] != netip.MustParseAddr("127.0.0.1") {
		t.Errorf("AllowLoopback Resolve(2130706433) = %v, %v, want [127.0.0.1]", ips, err)
	}
}
