package forge_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/hearthforge/hearth/forge"
)

// FuzzCheckUserName checks arbitrary account names: an accepted name is
// clean (1 to MaxUserNameLength ASCII letters, digits, '-', '_' and '.',
// starting with a letter or digit, no punctuation run or trailing
// punctuation, not reserved, safe in a URL path and a file name); a
// refused one is forge.ErrInvalid.
func FuzzCheckUserName(f *testing.F) {
	for _, s := range []string{"alice", "a", "user-1", "a.b_c", "Admin", "api", "x.keys", "y.GPG", "-x", "x-", "a..b",
		"a_-b", "é", "a b", "a/b", "", strings.Repeat("a", 41), strings.Repeat("a", 40), "ghost", ".well-known", "0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		err := forge.CheckUserName(name)
		if err != nil {
			if !errors.Is(err, forge.ErrInvalid) {
				t.Fatalf("CheckUserName(%q): %v is not ErrInvalid", name, err)
			}
			return
		}
		if name == "" || len(name) > forge.MaxUserNameLength {
			t.Fatalf("CheckUserName(%q) accepted a name of %d bytes", name, len(name))
		}
		isAlnum := func(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
		if !isAlnum(name[0]) {
			t.Fatalf("CheckUserName(%q) accepted a name not starting with a letter or digit", name)
		}
		prevPunct := false
		for i := 0; i < len(name); i++ {
			c := name[i]
			punct := c == '-' || c == '.' || c == '_'
			if !isAlnum(c) && !punct {
				t.Fatalf("CheckUserName(%q) accepted byte %q", name, c)
			}
			if punct && prevPunct {
				t.Fatalf("CheckUserName(%q) accepted a run of punctuation", name)
			}
			prevPunct = punct
		}
		if prevPunct {
			t.Fatalf("CheckUserName(%q) accepted trailing punctuation", name)
		}
		lower := strings.ToLower(name)
		if lower == "api" || lower == "admin" || strings.HasSuffix(lower, ".keys") || strings.HasSuffix(lower, ".gpg") {
			t.Fatalf("CheckUserName(%q) accepted a reserved name", name)
		}
	})
}
