package gpgkeys_test

import (
	"testing"
	"time"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/gpgkeys"
)

// TestVerificationToken pins Forgejo's token: the SHA-256 of
// "<minute + n, RFC 1123Z>:<created, RFC 1123Z>:<name>:<e-mail>:<id>".
// The expected values were computed with sha256sum from the strings
// written out by hand.
func TestVerificationToken(t *testing.T) {
	t.Parallel()
	u := &forge.User{ID: 7, Name: "alice", Email: "alice@example.com", Created: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
	now := time.Date(2026, 3, 4, 5, 6, 30, 0, time.UTC)
	for minutes, want := range map[int]string{
		// "Wed, 04 Mar 2026 05:07:00 +0000:Fri, 02 Jan 2026 03:04:05 +0000:alice:alice@example.com:7"
		1: "28fbbc3f105fb96f2aa51918fb4366b31620af21f123fe7afbefa68d2010dfab",
		// "Wed, 04 Mar 2026 05:06:00 +0000:Fri, 02 Jan 2026 03:04:05 +0000:alice:alice@example.com:7"
		0: "2bed35fcb93a8851654771ea1cddf2f1c120664cdd5383875c6ed3e74a300e71",
	} {
		if got := gpgkeys.VerificationToken(u, now, minutes); got != want {
			t.Errorf("VerificationToken(+%d min) = %s, want %s", minutes, got, want)
		}
	}
	// The zone of the times does not matter.
	paris := time.FixedZone("CET", 3600)
	if got := gpgkeys.VerificationToken(u, now.In(paris), 1); got != "28fbbc3f105fb96f2aa51918fb4366b31620af21f123fe7afbefa68d2010dfab" {
		t.Errorf("in another zone: %s", got)
	}
}
