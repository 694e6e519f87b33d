package gpgkeys

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"
	"time"

	"github.com/ProtonMail/go-crypto/openpgp"

	"github.com/hearthforge/hearth/forge"
)

// VerificationToken is the token a user signs to prove a key is theirs
// (Forgejo's asymkey.VerificationToken): the hexadecimal SHA-256 of the
// minute of now plus minutes, the user's creation time, name, e-mail and
// id. The token the API shows is the one of minutes 1; the one of minutes
// 0 (the previous minute's shown token) is still accepted. Times are
// written in UTC.
func VerificationToken(u *forge.User, now time.Time, minutes int) string {
	at := now.UTC().Truncate(time.Minute).Add(time.Duration(minutes) * time.Minute)
	sum := sha256.Sum256([]byte(at.Format(time.RFC1123Z) + ":" +
		u.Created.UTC().Format(time.RFC1123Z) + ":" +
		u.Name + ":" +
		u.Email + ":" +
		strconv.FormatInt(u.ID, 10)))
	return hex.EncodeToString(sum[:])
}

// tokenSuffixes are the line ends a signed token may carry: Forgejo tries
// the token bare, then with "\n" and "\r\n" (adding a key) or "\n\n"
// (verifying one); both paths try all of them here.
var tokenSuffixes = []string{"", "\n", "\r\n", "\n\n"}

// checkSignature returns the entity of keys whose key (or subkey) made
// the armored detached signature sig of one of tokens, with any of
// tokenSuffixes; nil if none did, or sig is no armored signature.
func checkSignature(keys openpgp.EntityList, tokens []string, sig string) *openpgp.Entity {
	if len(sig) > MaxArmoredBytes {
		return nil
	}
	for _, tok := range tokens {
		for _, suffix := range tokenSuffixes {
			if e := checkOne(keys, tok+suffix, sig); e != nil {
				return e
			}
		}
	}
	return nil
}

func checkOne(keys openpgp.EntityList, signed, sig string) (signer *openpgp.Entity) {
	defer func() {
		if recover() != nil {
			signer = nil
		}
	}()
	e, err := openpgp.CheckArmoredDetachedSignature(keys, strings.NewReader(signed), strings.NewReader(sig), nil)
	if err != nil {
		return nil
	}
	return e
}
