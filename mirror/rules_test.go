package mirror_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/netip"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/mirror"
)

func TestParseInterval(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		in      string
		want    time.Duration
		wantErr string
	}{
		{"8h", 8 * time.Hour, ""},
		{"1h30m0s", 90 * time.Minute, ""},
		{"10m", 10 * time.Minute, ""},
		{"0", 0, ""},
		{"0s", 0, ""},
		{"9m59s", 0, "invalid mirror interval: 9m59s is below minimum interval: 10m0s"},
		{"-1h", 0, "invalid mirror interval: -1h0m0s is below minimum interval: 10m0s"},
		{"x", 0, `time: invalid duration "x"`},
		{"", 0, `time: invalid duration ""`},
	} {
		got, err := mirror.ParseInterval(c.in, mirror.MinInterval)
		if c.wantErr != "" {
			if err == nil || err.Error() != c.wantErr || !errors.Is(err, forge.ErrInvalid) {
				t.Errorf("ParseInterval(%q) err = %v, want %q (invalid)", c.in, err, c.wantErr)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("ParseInterval(%q) = %v, %v; want %v", c.in, got, err, c.want)
		}
	}
}

func TestMigrationInterval(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		in      string
		want    time.Duration
		wantErr string
	}{
		{"", 8 * time.Hour, ""},
		{"0", 0, ""},
		{"1h", time.Hour, ""},
		{"1m", 0, "interval 1m0s is set below Minimum Interval of 10m0s"},
		{"soon", 0, `time: invalid duration "soon"`},
	} {
		got, err := mirror.MigrationInterval(c.in, mirror.DefaultInterval, mirror.MinInterval)
		if (err != nil) != (c.wantErr != "") || (err != nil && err.Error() != c.wantErr) || got != c.want {
			t.Errorf("MigrationInterval(%q) = %v, %v; want %v, %q", c.in, got, err, c.want, c.wantErr)
		}
	}
}

func TestConfigIntervals(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		def, min, wantDef, wantMin time.Duration
	}{
		{0, 0, 8 * time.Hour, 10 * time.Minute},
		{time.Hour, 30 * time.Second, time.Hour, time.Minute},
		{time.Minute, 20 * time.Minute, 8 * time.Hour, 20 * time.Minute},
		{time.Minute, 10 * time.Hour, 10 * time.Hour, 10 * time.Hour},
	} {
		d, m := mirror.Config{DefaultInterval: c.def, MinInterval: c.min}.Intervals()
		if d != c.wantDef || m != c.wantMin {
			t.Errorf("Intervals(%v, %v) = %v, %v; want %v, %v", c.def, c.min, d, m, c.wantDef, c.wantMin)
		}
	}
}

func TestNextUpdate(t *testing.T) {
	t.Parallel()
	now := time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)
	if got := mirror.NextUpdate(now, 0); !got.IsZero() {
		t.Errorf("interval 0: %v", got)
	}
	if got := mirror.NextUpdate(now, time.Hour); !got.Equal(now.Add(time.Hour)) {
		t.Errorf("interval 1h: %v", got)
	}
}

func TestBackoff(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		n                int
		base, ceil, want time.Duration
	}{
		{1, time.Minute, time.Hour, time.Minute},
		{2, time.Minute, time.Hour, 2 * time.Minute},
		{5, time.Minute, time.Hour, 16 * time.Minute},
		{7, time.Minute, time.Hour, time.Hour},
		{100, time.Minute, time.Hour, time.Hour},
		{1, 0, 0, mirror.DefaultRetryBase},
	} {
		if got := mirror.Backoff(c.n, c.base, c.ceil); got != c.want {
			t.Errorf("Backoff(%d, %v, %v) = %v, want %v", c.n, c.base, c.ceil, got, c.want)
		}
	}
}

func TestParseRemoteAddress(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		in, user, pass string
		wantURL        string
		wantSSHUser    string
		local          bool
		reason         error
		msg            string
	}{
		{in: "https://example.com/a.git", user: "bob", pass: "pw", wantURL: "https://example.com/a.git"},
		{in: "  http://example.com/a  ", wantURL: "http://example.com/a"},
		{in: "git://example.com/a", wantURL: "git://example.com/a"},
		{in: "https://bob:pw@example.com/a.git", reason: mirror.ErrAddrCredentials, msg: "The URL contains credentials"},
		{in: "https://bob@example.com/a.git", reason: mirror.ErrAddrCredentials, msg: "The URL contains credentials"},
		{in: "git@example.com:owner/repo.git", wantURL: "ssh://example.com/owner/repo.git", wantSSHUser: "git"},
		{in: "ssh://git@example.com/x", wantURL: "ssh://example.com/x", wantSSHUser: "git"},
		{in: "ssh://git:pw@example.com/x", reason: mirror.ErrAddrCredentials, msg: "The URL contains credentials"},
		{in: "ftp://example.com/x", reason: mirror.ErrAddrProtocol, msg: "Invalid mirror protocol"},
		{in: "file:///etc", reason: mirror.ErrAddrProtocol, msg: "Invalid mirror protocol"},
		{in: "https://", reason: mirror.ErrAddrURL, msg: "Invalid Url "},
		{in: "http://[::1", reason: mirror.ErrAddrURL, msg: "Invalid Url "},
		{in: "", reason: mirror.ErrAddrURL, msg: "Invalid Url "},
		{in: "/srv/git/a.git", wantURL: "/srv/git/a.git", local: true},
	} {
		a, err := mirror.ParseRemoteAddress(c.in, c.user, c.pass)
		if c.reason != nil {
			if !errors.Is(err, c.reason) || !errors.Is(err, forge.ErrInvalid) || err.Error() != c.msg {
				t.Errorf("%q: err %v, want %q", c.in, err, c.msg)
			}
			continue
		}
		if err != nil || a.URL != c.wantURL || a.SSHUser != c.wantSSHUser || a.Local != c.local ||
			a.Creds.Username != c.user || a.Creds.Password != c.pass {
			t.Errorf("%q: %+v, %v", c.in, a, err)
		}
	}
}

func TestCredentialsNeverPrint(t *testing.T) {
	t.Parallel()
	c := mirror.Credentials{Username: "bob", Password: "hunter2", PrivateKey: []byte("KEYDATA")}
	a := mirror.RemoteAddress{URL: "https://example.com/x", Creds: c}
	var logBuf strings.Builder
	slog.New(slog.NewTextHandler(&logBuf, nil)).Info("x", "creds", c, "addr", a)
	js, _ := json.Marshal(a)
	for _, s := range []string{fmt.Sprint(c), fmt.Sprintf("%v %+v %#v %s", c, a, c, c), string(js), logBuf.String(), a.String()} {
		if strings.Contains(s, "hunter2") || strings.Contains(s, "KEYDATA") {
			t.Errorf("credentials printed: %s", s)
		}
	}
}

func TestSanitize(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ in, want string }{
		{"https://bob:pw@example.com/x", "https://example.com/x"},
		{"ssh://git@example.com/x", "ssh://example.com/x"},
		{"not a url %%", "not a url %%"},
	} {
		if got := mirror.SanitizeURL(c.in); got != c.want {
			t.Errorf("SanitizeURL(%q) = %q", c.in, got)
		}
	}
	msg := "exit status 128 - fatal: unable to access 'https://bob:s3cr%2Ft@example.com/x/': The requested URL returned error: 403 s3cr/t"
	got := mirror.SanitizeMessage(msg, "s3cr/t")
	if got != "fatal: unable to access 'https://example.com/x/': The requested URL returned error: 403 [redacted]" {
		t.Errorf("SanitizeMessage = %q", got)
	}
	// A password holding "@" (git prints it unescaped at times): the
	// userinfo ends at the authority's last "@", as net/url reads it.
	for msg, want := range map[string]string{
		"fetch https://bob:p@ss@host/x failed": "fetch https://host/x failed",
		"a://b@c@d and git://u:v@h:9418/r":     "a://d and git://h:9418/r",
		"see https://host/a@b":                 "see https://host/a@b",
	} {
		if got := mirror.SanitizeMessage(msg); got != want {
			t.Errorf("SanitizeMessage(%q) = %q, want %q", msg, got, want)
		}
	}
}

type mapResolver map[string][]string

func (m mapResolver) LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error) {
	var out []netip.Addr
	for _, s := range m[host] {
		out = append(out, netip.MustParseAddr(s))
	}
	if out == nil {
		return nil, errors.New("no such host")
	}
	return out, nil
}

func TestPolicy(t *testing.T) {
	t.Parallel()
	res := mapResolver{
		"public.example":   {"93.184.216.34"},
		"mixed.example":    {"93.184.216.34", "127.0.0.1"},
		"private.example":  {"10.1.2.3"},
		"metadata.example": {"169.254.169.254"},
		"v6local.example":  {"fd00:ec2::254"},
		"cgnat.example":    {"100.100.100.200"},
		"mapped.example":   {"::ffff:127.0.0.1"},
	}
	def := mirror.Policy{Resolver: res}
	for _, c := range []struct {
		name string
		p    mirror.Policy
		host string
		ok   bool
	}{
		{"public", def, "public.example", true},
		{"mixed answers refused", def, "mixed.example", false},
		{"private", def, "private.example", false},
		{"metadata", def, "metadata.example", false},
		{"v6 ULA metadata", def, "v6local.example", false},
		{"cgnat", def, "cgnat.example", false},
		{"v4-mapped loopback", def, "mapped.example", false},
		{"loopback literal", def, "127.0.0.1", false},
		{"v6 loopback literal", def, "[::1]", false},
		{"unspecified", def, "0.0.0.0", false},
		{"unknown host", def, "nowhere.example", false},
		{"local networks allowed", mirror.Policy{Resolver: res, AllowLocalNetworks: true}, "private.example", true},
		{"loopback allowed", mirror.Policy{Resolver: res, AllowLoopback: true}, "127.0.0.1", true},
		{"loopback allowed, private not", mirror.Policy{Resolver: res, AllowLoopback: true}, "private.example", false},
		{"blocked glob", mirror.Policy{Resolver: res, BlockedDomains: []string{"*.example"}}, "public.example", false},
		{"blocked cidr", mirror.Policy{Resolver: res, BlockedDomains: []string{"93.184.0.0/16"}}, "public.example", false},
		{"allow list miss", mirror.Policy{Resolver: res, AllowedDomains: []string{"github.com"}}, "public.example", false},
		{"allow list hit", mirror.Policy{Resolver: res, AllowedDomains: []string{"public.*"}}, "public.example", true},
		{"allowed cidr holds private", mirror.Policy{Resolver: res, AllowedDomains: []string{"private.example", "10.0.0.0/8"}}, "private.example", true},
	} {
		_, err := c.p.Resolve(context.Background(), c.host)
		if (err == nil) != c.ok {
			t.Errorf("%s: Resolve(%q) = %v, want ok=%v", c.name, c.host, err, c.ok)
		}
		if err != nil && !errors.Is(err, forge.ErrInvalid) {
			t.Errorf("%s: %v is not invalid", c.name, err)
		}
	}
	// Control refuses a dial to a refused address, whatever name led there.
	if err := def.Control("tcp", "127.0.0.1:80", nil); !errors.Is(err, mirror.ErrAddrBlocked) {
		t.Errorf("Control loopback: %v", err)
	}
	if err := def.Control("tcp", "93.184.216.34:443", nil); err != nil {
		t.Errorf("Control public: %v", err)
	}
	// Redirects: scheme and host checked on every hop.
	for _, c := range []struct {
		to  string
		via int
		ok  bool
	}{
		{"https://public.example/x", 1, true},
		{"http://127.0.0.1:8080/x", 1, false},
		{"http://169.254.169.254/latest", 1, false},
		{"file:///etc/passwd", 1, false},
		{"https://public.example/x", 10, false},
	} {
		u, _ := url.Parse(c.to)
		if err := def.CheckRedirect(u, c.via); (err == nil) != c.ok {
			t.Errorf("CheckRedirect(%s, %d) = %v", c.to, c.via, err)
		}
	}
}
