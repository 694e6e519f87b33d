package forge_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/hearthforge/hearth/forge"
)

// FuzzParseScope parses arbitrary scope words (two words, each possibly a
// comma-separated list). An accepted scope prints to words that parse back
// to the same scope (the normalised form is a fixed point); a refused one
// is forge.ErrInvalid naming the offending item.
func FuzzParseScope(f *testing.F) {
	for _, seed := range [][2]string{
		{"read:user", "write:user"}, {"all", ""}, {"all", "public-only"}, {"public-only", "read:repository"},
		{"read:user,write:issue", "read:issue"}, {"sudo", " read:user "}, {"", ""},
		{"read:user", "admin"}, {"delete:user", ""}, {"READ:user", ""}, {"write:activitypub,write:admin,write:misc", "write:notification"},
		{",,,", "read:"}, {"write:package,read:organization", "public-only,sudo"},
	} {
		f.Add(seed[0], seed[1])
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		s, err := forge.ParseScope(a, b)
		if err != nil {
			if !errors.Is(err, forge.ErrInvalid) {
				t.Fatalf("ParseScope(%q, %q): error %v is not ErrInvalid", a, b, err)
			}
			if !strings.HasPrefix(err.Error(), "invalid access token scope: ") {
				t.Fatalf("ParseScope(%q, %q): message %q", a, b, err)
			}
			return
		}
		words := s.Words()
		back, err := forge.ParseScope(words...)
		if err != nil || back != s {
			t.Fatalf("ParseScope(%q, %q) = %v; its words %q parse to %v, %v", a, b, s, words, back, err)
		}
		again, err := forge.ParseScope(s.String())
		if err != nil || again != s || again.String() != s.String() {
			t.Fatalf("ParseScope(%q) = %v, %v; want %v", s.String(), again, err, s)
		}
		for _, w := range words {
			if w == "" || strings.ContainsAny(w, ", \t") {
				t.Fatalf("ParseScope(%q, %q): normalised word %q", a, b, w)
			}
		}
		if s.IsEmpty() != (len(words) == 0 || len(words) == 1 && words[0] == "public-only") {
			t.Fatalf("ParseScope(%q, %q): IsEmpty %v with words %q", a, b, s.IsEmpty(), words)
		}
	})
}
