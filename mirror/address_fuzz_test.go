package mirror_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/netip"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/netpolicy"
	"github.com/hearthforge/hearth/mirror"
)

// FuzzParseRemoteAddress parses arbitrary remote addresses with a user
// name and password, as migrate and push-mirror bodies send them. It never
// panics; a refusal is forge.ErrInvalid with one of Forgejo's messages; an
// accepted URL address parses again, carries no userinfo, keeps its host
// acceptable to the host checks (checkPolicyAnswers), and neither the address's printed forms
// (fmt, JSON) nor a sanitised message carry the password.
func FuzzParseRemoteAddress(f *testing.F) {
	for _, s := range [][3]string{
		{"https://example.com/o/r.git", "u", "hunter2-secret"}, {"http://u:p@example.com/r", "", ""},
		{"git://example.com/r", "", ""}, {"ssh://git@example.com:2222/o/r.git", "", "pw-12345678"},
		{"ssh://git:pw@example.com/r", "", ""}, {"git@example.com:o/r.git", "", ""}, {"/srv/git/r.git", "", ""},
		{"ftp://example.com/r", "", ""}, {"file:///etc/passwd", "", ""}, {"", "", ""}, {"  https://[::1]:3000/r  ", "", ""},
		{"https://", "", ""}, {"https://%zz/r", "", ""}, {"HTTPS://EXAMPLE.COM/R", "x", "y"}, {"c:\\repos\\r", "", ""},
		{"https://example.com/r?token=abc#frag", "", "s3cr3t-pass"}, {"http://169.254.169.254/latest", "", ""},
		{"http://[::127.0.0.1]/r", "", ""}, {"http://[64:ff9b::7f00:1]/r", "", ""}, {"http://100.64.0.1/r", "", ""},
		{"http://0.0.0.0/r", "", ""}, {"http://[64:ff9b::5db8:d822]/r", "", ""}, {"http://93.184.216.34/r", "", ""},
	} {
		f.Add(s[0], s[1], s[2])
	}
	messages := []string{mirror.MsgURL, mirror.MsgCredentials, mirror.MsgProtocol}
	f.Fuzz(func(t *testing.T, addr, user, pass string) {
		a, err := mirror.ParseRemoteAddress(addr, user, pass)
		if err != nil {
			if !errors.Is(err, forge.ErrInvalid) {
				t.Fatalf("ParseRemoteAddress(%q): %v is not ErrInvalid", addr, err)
			}
			known := false
			for _, m := range messages {
				known = known || strings.Contains(err.Error(), m)
			}
			if !known {
				t.Fatalf("ParseRemoteAddress(%q): unknown message %q", addr, err)
			}
			// A password that is part of the message's own text (the "a"
			// of "Invalid Url") is not a leak.
			leaks := pass != "" && !strings.Contains(addr, pass) && strings.Contains(err.Error(), pass)
			for _, m := range messages {
				leaks = leaks && !strings.Contains(m, pass)
			}
			if leaks {
				t.Fatalf("error %q carries the password", err)
			}
			return
		}
		if a.Creds.Username != user || a.Creds.Password != pass {
			t.Fatalf("credentials not kept apart: %+v", a.Creds)
		}
		if !a.Local {
			u, err := url.Parse(a.URL)
			if err != nil {
				t.Fatalf("accepted %q prints %q, which does not parse: %v", addr, a.URL, err)
			}
			if u.User != nil {
				t.Fatalf("accepted %q keeps userinfo in %q", addr, a.URL)
			}
			if mirror.SanitizeURL(a.URL) != a.URL {
				t.Fatalf("accepted %q is not sanitised: %q", addr, a.URL)
			}
			checkPolicyAnswers(t, a.Host())
		} else if a.URL == "" {
			t.Fatalf("local address %q with an empty path", addr)
		}
		if len(pass) >= 6 && !strings.Contains(addr, pass) && !strings.Contains(user, pass) {
			b, _ := json.Marshal(a)
			for _, out := range []string{fmt.Sprint(a), fmt.Sprintf("%+v", a), fmt.Sprintf("%#v", a), string(b), a.String()} {
				// Printing the address with no credentials at all is the
				// baseline: a password that its escapes happen to spell
				// ("\u0000" then "00") is not a leak.
				bare := a
				bare.Creds = mirror.Credentials{}
				bb, _ := json.Marshal(bare)
				base := fmt.Sprint(bare) + fmt.Sprintf("%+v", bare) + fmt.Sprintf("%#v", bare) + string(bb) + bare.String()
				if strings.Contains(out, pass) && !strings.Contains(base, pass) {
					t.Fatalf("printed address %q carries the password %q", out, pass)
				}
			}
		}
	})
}

// checkPolicyAnswers checks the Policy's answers about host: a refusal is
// ErrAddrBlocked; a host named in BlockedDomains is refused and one
// outside a non-empty AllowedDomains too; a name in AllowedDomains passes
// the name check; an IP literal is refused by the default policy exactly
// when it is not external (netpolicy.Classify, checked against IANA's
// registries in its own package), its IPv4-mapped form is answered alike,
// and AllowLocalNetworks passes every literal.
func checkPolicyAnswers(t *testing.T, host string) {
	t.Helper()
	answer := func(p mirror.Policy, h string) bool {
		err := p.CheckHost(h)
		if err != nil && (!errors.Is(err, forge.ErrInvalid) || !errors.Is(err, mirror.ErrAddrBlocked)) {
			t.Fatalf("CheckHost(%q): %v is not ErrAddrBlocked", h, err)
		}
		return err == nil
	}
	lower := strings.ToLower(strings.TrimSuffix(host, "."))
	if lower != "" && !strings.ContainsAny(host, "[]{}*?\\,") && answer(mirror.Policy{BlockedDomains: []string{lower}}, host) {
		t.Fatalf("host %q passes though blocked by name", host)
	}
	if lower != "other.example" && answer(mirror.Policy{AllowedDomains: []string{"other.example"}}, host) {
		t.Fatalf("host %q passes though not in the allowed domains", host)
	}
	// The host as git's libcurl reads it: an address (numeric IPv4 forms
	// included) is judged as one; a non-ASCII host is refused.
	ip, err := mirror.HostAddr(host)
	if err != nil {
		if answer(mirror.Policy{AllowLocalNetworks: true, AllowedDomains: []string{lower}}, host) {
			t.Fatalf("non-ASCII host %q passes", host)
		}
		return
	}
	if !ip.IsValid() {
		if lower != "" && !strings.ContainsAny(host, "[]{}*?\\,") && !answer(mirror.Policy{AllowedDomains: []string{lower}}, host) {
			t.Fatalf("host name %q refused though allowed by name", host)
		}
		return
	}
	def := answer(mirror.Policy{}, host)
	if want := netpolicy.Classify(ip) == netpolicy.External; def != want {
		t.Fatalf("default policy allows %v = %v, want %v (%v)", ip, def, want, netpolicy.Classify(ip))
	}
	if ip.Is4() {
		if m := answer(mirror.Policy{}, netip.AddrFrom16(ip.As16()).String()); m != def {
			t.Fatalf("%v allowed %v, its IPv4-mapped form %v", ip, def, m)
		}
	}
	if !answer(mirror.Policy{AllowLocalNetworks: true}, host) {
		t.Fatalf("AllowLocalNetworks refuses %v", ip)
	}
}

// FuzzSanitizeMessage feeds arbitrary git error text and a secret: the
// result never holds the secret (digits-only secrets of four or more, which
// "[redacted]" cannot complete) nor any URL userinfo.
func FuzzSanitizeMessage(f *testing.F) {
	for _, s := range [][2]string{
		{"exit status 128 - fatal: could not read from https://user:12345678@example.com/r", "12345678"},
		{"fatal: Authentication failed for 'https://example.com/r' (token 9999)", "9999"},
		{"exit status 1 - ", ""}, {"ssh://git:4242@h/x and http://a@b", "4242"}, {"%31%32%33%34", "1234"},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, msg, secret string) {
		out := mirror.SanitizeMessage(msg, secret)
		if len(secret) >= 4 && strings.Trim(secret, "0123456789") == "" && strings.Contains(out, secret) {
			t.Fatalf("SanitizeMessage(%q, %q) = %q keeps the secret", msg, secret, out)
		}
		if again := mirror.SanitizeMessage(out); strings.Count(again, "@") < strings.Count(out, "@") && strings.Contains(out, "://") {
			// A second pass finding userinfo means the first pass left some.
			t.Fatalf("SanitizeMessage(%q) = %q still has userinfo (second pass: %q)", msg, out, again)
		}
	})
}

// FuzzParseInterval reads arbitrary mirror intervals (Go durations): an
// accepted one is zero (no periodic sync) or at least the minimum; a
// refused one is forge.ErrInvalid. MigrationInterval agrees, with "" its
// default.
func FuzzParseInterval(f *testing.F) {
	for _, s := range []string{"8h", "0", "0s", "10m", "9m59s", "-1h", "", "1.5h", "1h2m3s4ms5us6ns", "9223372036854775807ns",
		"99999999999h", "1x", "+5m", ".5h"} {
		f.Add(s)
	}
	const min = 10 * time.Minute
	f.Fuzz(func(t *testing.T, s string) {
		d, err := mirror.ParseInterval(s, min)
		if err != nil {
			if !errors.Is(err, forge.ErrInvalid) {
				t.Fatalf("ParseInterval(%q): %v is not ErrInvalid", s, err)
			}
		} else if d != 0 && d < min {
			t.Fatalf("ParseInterval(%q) = %v below the minimum", s, d)
		}
		m, merr := mirror.MigrationInterval(s, 8*time.Hour, min)
		switch {
		case s == "":
			if merr != nil || m != 8*time.Hour {
				t.Fatalf(`MigrationInterval("") = %v, %v`, m, merr)
			}
		case (err == nil) != (merr == nil) || m != d:
			t.Fatalf("ParseInterval(%q) = %v, %v but MigrationInterval = %v, %v", s, d, err, m, merr)
		}
	})
}
