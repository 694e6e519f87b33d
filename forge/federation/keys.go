package federation

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"sync"

	"github.com/hearthforge/hearth/forge"
)

// Keys holds the RSA key pairs actors sign with and publish: the instance
// actor's (owner "actor") and each person's (owner "user-<id>"), made on
// first use and kept from then on (Forgejo keeps them in user settings,
// the instance's under the server actor).
type Keys interface {
	KeyPair(ctx context.Context, owner string) (*rsa.PrivateKey, error)
}

// DefaultKeyBits is the size of the keys made (Forgejo's rsaBits).
const DefaultKeyBits = 4096

// instanceOwner and userOwner name the key pairs of Keys.
const instanceOwner = "actor"

func userOwner(id forge.ID) string { return "user-" + strconv.FormatInt(int64(id), 10) }

// KeyDir keeps each key pair as a PKCS#1 PEM file <owner>.pem (mode 0600)
// in Dir, made on first use, like the server key in the data directory.
type KeyDir struct {
	Dir string
	// Bits is the size of the keys made; 0 is DefaultKeyBits.
	Bits int

	mu    sync.Mutex
	cache map[string]*rsa.PrivateKey
}

// KeyPair returns owner's key pair, reading it from Dir or making and
// writing it there. A file that is not an RSA private key in PEM is an
// error (it is never replaced).
func (k *KeyDir) KeyPair(ctx context.Context, owner string) (*rsa.PrivateKey, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if key := k.cache[owner]; key != nil {
		return key, nil
	}
	path := filepath.Join(k.Dir, owner+".pem")
	data, err := os.ReadFile(path)
	var key *rsa.PrivateKey
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if key, err = rsa.GenerateKey(rand.Reader, bitsOr(k.Bits)); err != nil {
			return nil, err
		}
		if err := os.MkdirAll(k.Dir, 0o700); err != nil {
			return nil, err
		}
		out := pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(key)})
		tmp := path + ".tmp"
		if err := os.WriteFile(tmp, out, 0o600); err != nil {
			return nil, err
		}
		if err := os.Rename(tmp, path); err != nil {
			return nil, err
		}
	case err != nil:
		return nil, err
	default:
		block, _ := pem.Decode(data)
		if block == nil {
			return nil, fmt.Errorf("federation: %s holds no PEM key", path)
		}
		if key, err = x509.ParsePKCS1PrivateKey(block.Bytes); err != nil {
			return nil, fmt.Errorf("federation: %s: %w", path, err)
		}
	}
	if k.cache == nil {
		k.cache = map[string]*rsa.PrivateKey{}
	}
	k.cache[owner] = key
	return key, nil
}

// MemoryKeys keeps key pairs for the life of the process (a host without
// a data directory).
type MemoryKeys struct {
	// Bits is the size of the keys made; 0 is DefaultKeyBits.
	Bits int

	mu   sync.Mutex
	keys map[string]*rsa.PrivateKey
}

// KeyPair returns owner's key pair, made on first use.
func (k *MemoryKeys) KeyPair(ctx context.Context, owner string) (*rsa.PrivateKey, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if key := k.keys[owner]; key != nil {
		return key, nil
	}
	key, err := rsa.GenerateKey(rand.Reader, bitsOr(k.Bits))
	if err != nil {
		return nil, err
	}
	if k.keys == nil {
		k.keys = map[string]*rsa.PrivateKey{}
	}
	k.keys[owner] = key
	return key, nil
}

func bitsOr(bits int) int {
	if bits <= 0 {
		return DefaultKeyBits
	}
	return bits
}

// publicKeyPEM is key's public half as Forgejo publishes it: PKIX, PEM
// type "PUBLIC KEY".
func publicKeyPEM(key *rsa.PrivateKey) (string, error) {
	der, err := x509.MarshalPKIXPublicKey(&key.PublicKey)
	if err != nil {
		return "", err
	}
	return string(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der})), nil
}
