package auth

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"fmt"
	"strings"

	"golang.org/x/crypto/argon2"
)

// PasswordParams are argon2id's cost parameters (RFC 9106).
type PasswordParams struct {
	Time      uint32 // passes over memory
	MemoryKiB uint32 // memory in KiB
	Threads   uint8  // lanes
}

// DefaultPasswordParams are OWASP's recommended argon2id configuration:
// 19 MiB of memory, 2 passes, 1 lane (about 20–30 ms on one core). Memory
// is what bounds a flood of sign-ins, so it is kept at OWASP's minimum and
// the number of concurrent computations is limited as well
// (Config.MaxConcurrentHashes). Hashes made with other parameters (Hearth's
// earlier m=64 MiB, t=2, p=2) still verify: the parameters travel in the
// encoded hash.
var DefaultPasswordParams = PasswordParams{Time: 2, MemoryKiB: 19 * 1024, Threads: 1}

// maxVerifyMemoryKiB refuses stored hashes that would need more than 1 GiB
// to check (a corrupt or hostile row must not exhaust memory).
const maxVerifyMemoryKiB = 1 << 20

const (
	saltLen = 16
	keyLen  = 32
)

// HashPassword returns the PHC-format argon2id hash of password:
// `$argon2id$v=19$m=<KiB>,t=<time>,p=<threads>$<salt>$<key>` (unpadded
// base64). The parameters travel with the hash, so changing them later does
// not invalidate stored passwords.
func HashPassword(password string, p PasswordParams) (string, error) {
	salt := make([]byte, saltLen)
	if _, err := rand.Read(salt); err != nil {
		return "", err
	}
	key := argon2.IDKey([]byte(password), salt, p.Time, p.MemoryKiB, p.Threads, keyLen)
	enc := base64.RawStdEncoding
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version,
		p.MemoryKiB, p.Time, p.Threads, enc.EncodeToString(salt), enc.EncodeToString(key)), nil
}

// VerifyPassword reports whether password matches hash (made by
// HashPassword). It compares in constant time; a malformed or empty hash
// never matches.
func VerifyPassword(password, hash string) bool {
	parts := strings.Split(hash, "$")
	// "", "argon2id", "v=19", "m=..,t=..,p=..", salt, key
	if len(parts) != 6 || parts[1] != "argon2id" {
		return false
	}
	var version int
	if _, err := fmt.Sscanf(parts[2], "v=%d", &version); err != nil || version != argon2.Version {
		return false
	}
	var p PasswordParams
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &p.MemoryKiB, &p.Time, &p.Threads); err != nil ||
		p.Time == 0 || p.Threads == 0 || p.Time > 16 || p.MemoryKiB > maxVerifyMemoryKiB {
		return false
	}
	enc := base64.RawStdEncoding
	salt, err := enc.DecodeString(parts[4])
	if err != nil {
		return false
	}
	want, err := enc.DecodeString(parts[5])
	if err != nil || len(want) == 0 {
		return false
	}
	got := argon2.IDKey([]byte(password), salt, p.Time, p.MemoryKiB, p.Threads, uint32(len(want)))
	return subtle.ConstantTimeCompare(got, want) == 1
}
