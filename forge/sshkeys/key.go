package sshkeys

import (
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"time"

	"golang.org/x/crypto/ssh"

	"github.com/hearthforge/hearth/forge"
)

// Type tells a user's key from a deploy key (Forgejo's KeyType).
type Type string

// Key types.
const (
	TypeUser   Type = "user"
	TypeDeploy Type = "deploy"
)

// Key is one public key (Forgejo's PublicKey): a user's (OwnerID set) or
// the content shared by the deploy keys that use it (OwnerID 0).
type Key struct {
	ID      forge.ID
	OwnerID forge.ID
	Name    string
	// Fingerprint is "SHA256:<base64>", as `ssh-keygen -lf` prints it;
	// unique among keys.
	Fingerprint string
	// Content is the key as "<type> <base64>" (no comment, no options).
	Content string
	// Mode is forge.AccessModeWrite for a user's key; a deploy key's
	// access is its DeployKey's.
	Mode    forge.AccessMode
	Type    Type
	Created time.Time
	Updated time.Time

	// Owner is the owning user (read with the key; not stored).
	Owner *forge.User
}

// DeployKey is a key deployed on a repository (Forgejo's DeployKey).
type DeployKey struct {
	ID     forge.ID
	KeyID  forge.ID
	RepoID forge.ID
	Name   string
	// Fingerprint and Content are the key's.
	Fingerprint string
	Content     string
	// Mode is forge.AccessModeRead (read only) or AccessModeWrite.
	Mode    forge.AccessMode
	Created time.Time
	Updated time.Time

	// Repo is the repository (read with the key; not stored).
	Repo *forge.Repository
}

// ReadOnly reports whether the deploy key only reads.
func (d *DeployKey) ReadOnly() bool { return d.Mode < forge.AccessModeWrite }

// Parsed is a public key read by Parse.
type Parsed struct {
	Key ssh.PublicKey
	// Content is "<type> <base64>".
	Content string
	// Fingerprint is ssh.FingerprintSHA256's ("SHA256:…").
	Fingerprint string
	// Bits is the key length (for RSA the modulus size).
	Bits int
}

// ErrUnableToVerify marks a key git's tools cannot read (an unknown
// algorithm): Forgejo answers "Unable to verify key content".
var ErrUnableToVerify = errors.New("unable to verify key content")

// minimumBits are Forgejo's default [ssh.minimum_key_sizes] (MINIMUM_KEY_SIZE_CHECK
// on): RSA below 3071 bits is refused, DSA is not allowed.
var minimumBits = map[string]int{
	ssh.KeyAlgoED25519:    256,
	ssh.KeyAlgoSKED25519:  256,
	ssh.KeyAlgoECDSA256:   256,
	ssh.KeyAlgoECDSA384:   256,
	ssh.KeyAlgoECDSA521:   256,
	ssh.KeyAlgoSKECDSA256: 256,
	ssh.KeyAlgoRSA:        3071,
	ssh.KeyAlgoDSA:        -1,
}

// maxKeyBytes bounds the text of a key: an 16384-bit RSA key is about
// 2.8 KB in OpenSSH's format.
const maxKeyBytes = 16 << 10

// Parse reads a public key as Forgejo's CheckPublicKeyString does: one
// line in OpenSSH's authorized_keys format (options and a comment
// allowed), or the RFC 4716 "---- BEGIN SSH2 PUBLIC KEY ----" block. A
// key too short or of a type not allowed, several lines, a private key or
// anything else unreadable is a forge.ErrInvalid whose message is
// Forgejo's "Invalid key content: …"; an unknown algorithm is also
// ErrUnableToVerify. Parse never panics.
func Parse(text string) (*Parsed, error) {
	invalid := func(format string, args ...any) error {
		return forge.Errorf(forge.ErrInvalid, "Invalid key content: "+format, args...)
	}
	text = strings.TrimSpace(text)
	switch {
	case text == "":
		return nil, invalid("empty key")
	case len(text) > maxKeyBytes:
		return nil, invalid("key is too long")
	case strings.Contains(text, "PRIVATE KEY"):
		return nil, invalid("a private key was given: give the public key")
	}
	var (
		pk  ssh.PublicKey
		err error
	)
	if strings.HasPrefix(text, "---- BEGIN SSH2 PUBLIC KEY ----") {
		pk, err = parseRFC4716(text)
	} else {
		if strings.ContainsAny(text, "\r\n") {
			return nil, invalid("only a single line with a single key please")
		}
		pk, _, _, _, err = ssh.ParseAuthorizedKey([]byte(text))
	}
	if err != nil {
		if strings.Contains(err.Error(), "unknown key algorithm") {
			return nil, fmt.Errorf("%w: %w", forge.Errorf(forge.ErrInvalid, "Unable to verify key content"), ErrUnableToVerify)
		}
		return nil, invalid("%v", err)
	}
	bits := keyBits(pk)
	minimum, known := minimumBits[pk.Type()]
	switch {
	case !known:
		return nil, fmt.Errorf("%w: %w", forge.Errorf(forge.ErrInvalid, "Unable to verify key content"), ErrUnableToVerify)
	case minimum < 0:
		return nil, invalid("key type is not allowed: %s", pk.Type())
	case bits < minimum:
		return nil, invalid("key length is not enough: got %d, needs %d", bits, minimum)
	}
	return &Parsed{
		Key:         pk,
		Content:     pk.Type() + " " + base64.StdEncoding.EncodeToString(pk.Marshal()),
		Fingerprint: ssh.FingerprintSHA256(pk),
		Bits:        bits,
	}, nil
}

// parseRFC4716 reads an RFC 4716 public key block: headers ("Tag: value",
// continued by a trailing backslash) then base64 lines up to the END line.
func parseRFC4716(text string) (ssh.PublicKey, error) {
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	var body strings.Builder
	cont, ended := false, false
	for _, l := range lines[1:] {
		l = strings.TrimSpace(l)
		switch {
		case l == "---- END SSH2 PUBLIC KEY ----":
			ended = true
		case ended:
			if l != "" {
				return nil, errors.New("text after the end of the key")
			}
		case cont:
			cont = strings.HasSuffix(l, "\\")
		case strings.Contains(l, ":"):
			cont = strings.HasSuffix(l, "\\")
		default:
			body.WriteString(l)
		}
	}
	if !ended {
		return nil, errors.New("no end of the SSH2 public key block")
	}
	raw, err := base64.StdEncoding.DecodeString(body.String())
	if err != nil {
		return nil, fmt.Errorf("bad base64: %w", err)
	}
	return ssh.ParsePublicKey(raw)
}

// keyBits is the length of pk as ssh-keygen reports it.
func keyBits(pk ssh.PublicKey) int {
	switch pk.Type() {
	case ssh.KeyAlgoRSA:
		if ck, ok := pk.(ssh.CryptoPublicKey); ok {
			if r, ok := ck.CryptoPublicKey().(interface{ Size() int }); ok {
				return r.Size() * 8
			}
		}
		return 0
	case ssh.KeyAlgoECDSA384:
		return 384
	case ssh.KeyAlgoECDSA521:
		return 521
	}
	return 256
}
