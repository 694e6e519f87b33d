package auth

import (
	"net/mail"
	"strings"
	"testing"
)

// FuzzEmailRules: the check of added addresses never panics, and what it
// accepts is one bare address that net/mail reads back unchanged, with no
// space and no leading '-', whose domain the block list does not name.
func FuzzEmailRules(f *testing.F) {
	for _, s := range []string{"a@example.org", "-a@b.c", "Name <a@b.c>", "a@-b.c", "ü@x.de", "", "@", "a@b", `"q"@b.c`, "a@b.c.", "a..b@c.d", "x@Blocked.test"} {
		f.Add(s)
	}
	r := emailRules{block: []string{"*.blocked.test", "blocked.test"}}
	f.Fuzz(func(t *testing.T, email string) {
		if r.check(email) != nil {
			return
		}
		a, err := mail.ParseAddress(email)
		if err != nil || a.Address != email || a.Name != "" {
			t.Fatalf("accepted %q, which net/mail reads as %v, %v", email, a, err)
		}
		if strings.ContainsAny(email, " \t\r\n") || email[0] == '-' {
			t.Fatalf("accepted %q", email)
		}
		if d := strings.ToLower(email[strings.LastIndexByte(email, '@')+1:]); d == "blocked.test" || strings.HasSuffix(d, ".blocked.test") {
			t.Fatalf("accepted %q of a blocked domain", email)
		}
	})
}
