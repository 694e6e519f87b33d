package gpgkeys

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/ProtonMail/go-crypto/openpgp"
	"github.com/ProtonMail/go-crypto/openpgp/armor"
	"github.com/ProtonMail/go-crypto/openpgp/packet"

	"github.com/hearthforge/hearth/forge"
)

// testEntity is a fresh OpenPGP key of "Fuzz <fuzz@example.com>".
func testEntity(t testing.TB) *openpgp.Entity {
	t.Helper()
	e, err := openpgp.NewEntity("Fuzz", "", "fuzz@example.com", &packet.Config{Algorithm: packet.PubKeyAlgoEdDSA})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func armoredOf(t testing.TB, e *openpgp.Entity) string {
	t.Helper()
	var buf bytes.Buffer
	w, err := armor.Encode(&buf, openpgp.PublicKeyType, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Serialize(w); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// FuzzParseArmored is the key parser's fuzz target: whatever a client
// sends as armored_public_key, ParseArmored returns keys or a
// forge.ErrInvalid `failed to parse gpg key …` (never a panic, never
// another error), and a key it returns converts to its stored form and
// takes a signature check without panicking.
func FuzzParseArmored(f *testing.F) {
	armored := armoredOf(f, testEntity(f))
	f.Add(armored)
	f.Add(armored + armored)
	f.Add(armored[:len(armored)/2])
	f.Add(strings.Replace(armored, "PUBLIC KEY", "PRIVATE KEY", 2))
	f.Add("-----BEGIN PGP PUBLIC KEY BLOCK-----\n\n-----END PGP PUBLIC KEY BLOCK-----\n")
	f.Add("-----BEGIN PGP SIGNATURE-----\n\nwsBcBAABCAAQBQJ=\n-----END PGP SIGNATURE-----\n")
	f.Add("not a key")
	f.Add("")
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	f.Fuzz(func(t *testing.T, content string) {
		list, err := ParseArmored(content)
		if err != nil {
			if !errors.Is(err, forge.ErrInvalid) || !strings.HasPrefix(err.Error(), "failed to parse gpg key ") {
				t.Fatalf("ParseArmored(%q) = %v, want forge.ErrInvalid `failed to parse gpg key …`", content, err)
			}
			return
		}
		if len(list) == 0 {
			t.Fatal("no error and no key")
		}
		for _, e := range coalesce(list) {
			if _, err := keyOf(1, e, []string{"fuzz@example.com"}, false, now); err != nil && !errors.Is(err, forge.ErrInvalid) {
				t.Fatalf("keyOf: %v", err)
			}
		}
		_ = checkSignature(list, []string{"token"}, content)
	})
}
