package sshkeys_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/sshkeys"
)

// FuzzParse: the key parser never panics; it refuses with
// forge.ErrInvalid or returns a key whose content parses again to the same
// fingerprint (what is stored reads back as the same key).
func FuzzParse(f *testing.F) {
	f.Add("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl me@host")
	f.Add("---- BEGIN SSH2 PUBLIC KEY ----\nComment: \"x\"\nAAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl\n---- END SSH2 PUBLIC KEY ----")
	f.Add("ssh-rsa AAAA")
	f.Add("")
	f.Fuzz(func(t *testing.T, text string) {
		p, err := sshkeys.Parse(text)
		if err != nil {
			if !errors.Is(err, forge.ErrInvalid) {
				t.Fatalf("Parse(%q): %v is not forge.ErrInvalid", text, err)
			}
			return
		}
		if !strings.HasPrefix(p.Fingerprint, "SHA256:") {
			t.Fatalf("fingerprint %q", p.Fingerprint)
		}
		again, err := sshkeys.Parse(p.Content)
		if err != nil || again.Fingerprint != p.Fingerprint {
			t.Fatalf("content %q of %q does not read back: %v", p.Content, text, err)
		}
	})
}
