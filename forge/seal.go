package forge

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
)

// Seal encrypts plaintext for storage at rest with AES-256-GCM under a key
// derived from secret (SHA-256 of it), and returns base64 text. Every call
// uses a fresh random nonce. Returns ErrPrecondition if secret is empty.
func Seal(secret, plaintext []byte) (string, error) {
	aead, err := newAEAD(secret)
	if err != nil {
		return "", err
	}
	nonce := make([]byte, aead.NonceSize())
	if _, err := rand.Read(nonce); err != nil {
		return "", err
	}
	return base64.RawStdEncoding.EncodeToString(aead.Seal(nonce, nonce, plaintext, nil)), nil
}

// Unseal reverses Seal. A wrong secret or altered text gives ErrInvalid.
func Unseal(secret []byte, sealed string) ([]byte, error) {
	aead, err := newAEAD(secret)
	if err != nil {
		return nil, err
	}
	raw, err := base64.RawStdEncoding.DecodeString(sealed)
	if err != nil || len(raw) < aead.NonceSize() {
		return nil, Errorf(ErrInvalid, "sealed value is malformed")
	}
	plain, err := aead.Open(nil, raw[:aead.NonceSize()], raw[aead.NonceSize():], nil)
	if err != nil {
		return nil, Errorf(ErrInvalid, "sealed value does not open with this secret")
	}
	return plain, nil
}

var errNoSecret = Errorf(ErrPrecondition, "no secret key is configured")

func newAEAD(secret []byte) (cipher.AEAD, error) {
	if len(secret) == 0 {
		return nil, errNoSecret
	}
	key := sha256.Sum256(secret)
	block, err := aes.NewCipher(key[:])
	if err != nil {
		return nil, errors.Join(ErrInvalid, err)
	}
	return cipher.NewGCM(block)
}
