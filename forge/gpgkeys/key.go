package gpgkeys

import (
	"bytes"
	"encoding/base64"
	"slices"
	"strings"
	"time"

	"github.com/ProtonMail/go-crypto/openpgp"
	"github.com/ProtonMail/go-crypto/openpgp/packet"

	"github.com/hearthforge/hearth/forge"
)

// Key is a stored GPG key: a primary key (PrimaryKeyID "") with its
// subkeys, or one subkey (PrimaryKeyID its primary's KeyID). Times are
// UTC, to the second; Expires is zero for a key that does not expire.
type Key struct {
	ID      forge.ID
	OwnerID forge.ID
	// KeyID is the 16 upper-case hexadecimal digits of the key's id.
	KeyID        string
	PrimaryKeyID string
	// Content is the public key packet, base64 (Forgejo's content).
	Content string
	// Armored is what the user sent, kept for the primary key only: the
	// verification reads the key and its subkeys back from it.
	Armored  string
	Created  time.Time
	Expires  time.Time
	Added    time.Time
	Emails   []Email
	Verified bool
	CanSign  bool
	// CanEncryptComms and CanEncryptStorage are both whether the key's
	// algorithm can encrypt; CanCertify whether it can sign (Forgejo's).
	CanEncryptComms   bool
	CanEncryptStorage bool
	CanCertify        bool
	// SubKeys are a primary key's subkeys, in the order of the armored
	// key; nil for a subkey.
	SubKeys []*Key
}

// Email is an address of the key's owner that one of its identities
// names, and whether it is activated.
type Email struct {
	Email    string
	Verified bool
}

// ErrKeyIDUsed is the reason of the conflict of a key whose id is stored
// already (Forgejo's ErrGPGKeyIDAlreadyUsed).
var ErrKeyIDUsed = forge.Errorf(forge.ErrConflict, "A key with the same id already exists")

// errKeyIDUsed is the error AddKey returns for ErrKeyIDUsed.
func errKeyIDUsed() error {
	return forge.Reasonf(forge.ErrConflict, ErrKeyIDUsed, "A key with the same id already exists")
}

// MaxArmoredBytes bounds an armored key (and a signature): a larger one is
// refused before it is parsed.
const MaxArmoredBytes = 256 << 10

// ParseArmored reads the OpenPGP public keys of an armored key block, as
// Forgejo's checkArmoredGPGKeyString: forge.ErrInvalid `failed to parse
// gpg key <reason>` when it is no armored key, has no key, a key without
// any identity, or is larger than MaxArmoredBytes. It never panics.
func ParseArmored(content string) (list openpgp.EntityList, err error) {
	if len(content) > MaxArmoredBytes {
		return nil, parsingError("armored key is larger than the limit")
	}
	defer func() {
		// The parser is third-party code run on input from the network:
		// a panic in it is a bad key, not a crash.
		if r := recover(); r != nil {
			list, err = nil, parsingError("malformed key")
		}
	}()
	list, err = openpgp.ReadArmoredKeyRing(strings.NewReader(content))
	if err != nil {
		return nil, parsingError(err.Error())
	}
	if len(list) == 0 {
		return nil, parsingError("no key found")
	}
	return list, nil
}

func parsingError(reason string) error {
	return forge.Errorf(forge.ErrInvalid, "failed to parse gpg key %s", reason)
}

// coalesce merges the entities of list that share a primary key id (one
// armored block may carry a key twice): their subkeys and identities are
// joined into the first, as Forgejo's AddGPGKey.
func coalesce(list openpgp.EntityList) openpgp.EntityList {
	byID := map[uint64]*openpgp.Entity{}
	out := make(openpgp.EntityList, 0, len(list))
	for _, e := range list {
		first, ok := byID[e.PrimaryKey.KeyId]
		if !ok {
			byID[e.PrimaryKey.KeyId] = e
			out = append(out, e)
			continue
		}
		for _, sk := range e.Subkeys {
			if sk.PublicKey == nil {
				continue
			}
			dup := false
			for _, have := range first.Subkeys {
				if have.PublicKey != nil && have.PublicKey.KeyId == sk.PublicKey.KeyId {
					dup = true
					break
				}
			}
			if !dup {
				first.Subkeys = append(first.Subkeys, sk)
			}
		}
		for name, id := range e.Identities {
			if _, has := first.Identities[name]; !has {
				first.Identities[name] = id
			}
		}
	}
	return out
}

// keyOf is the stored form of entity e of ownerID (Forgejo's parseGPGKey):
// its subkeys, its identities' e-mail addresses that are among the owner's
// activated ones (emails, compared ignoring case), and whether it is
// verified. Unverified, a key none of whose identities names an activated
// address is refused by the caller.
func keyOf(ownerID forge.ID, e *openpgp.Entity, emails []string, verified bool, now time.Time) (*Key, error) {
	pub := e.PrimaryKey
	expiry := expiryOf(e)
	k, err := publicKeyOf(ownerID, "", pub, expiry)
	if err != nil {
		return nil, err
	}
	k.Verified, k.Added = verified, now
	for _, sk := range e.Subkeys {
		if sk.PublicKey == nil {
			continue
		}
		skExpiry := expiry
		if sk.Sig != nil && sk.Sig.KeyLifetimeSecs != nil {
			skExpiry = sk.PublicKey.CreationTime.Add(time.Duration(*sk.Sig.KeyLifetimeSecs) * time.Second)
		}
		s, err := publicKeyOf(ownerID, k.KeyID, sk.PublicKey, skExpiry)
		if err != nil {
			return nil, err
		}
		s.Added = now
		k.SubKeys = append(k.SubKeys, s)
	}
	k.Emails = []Email{}
	for _, name := range identityNames(e) {
		id := e.Identities[name]
		if id.Revoked(now) || id.UserId == nil {
			continue
		}
		addr := strings.ToLower(strings.TrimSpace(id.UserId.Email))
		for _, have := range emails {
			if addr != "" && strings.ToLower(have) == addr && !hasEmail(k.Emails, have) {
				k.Emails = append(k.Emails, Email{Email: have, Verified: true})
				break
			}
		}
	}
	return k, nil
}

func hasEmail(list []Email, addr string) bool {
	for _, e := range list {
		if strings.EqualFold(e.Email, addr) {
			return true
		}
	}
	return false
}

// identityNames are e's identities' names, sorted: the order its e-mail
// addresses are listed in.
func identityNames(e *openpgp.Entity) []string {
	names := make([]string, 0, len(e.Identities))
	for name := range e.Identities {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

// identityEmails are the addresses e's identities name (Forgejo's
// ErrGPGNoEmailFound lists them).
func identityEmails(e *openpgp.Entity) []string {
	var out []string
	for _, name := range identityNames(e) {
		if id := e.Identities[name]; id.UserId != nil {
			out = append(out, id.UserId.Email)
		}
	}
	return out
}

func publicKeyOf(ownerID forge.ID, primary string, pub *packet.PublicKey, expiry time.Time) (*Key, error) {
	var buf bytes.Buffer
	if err := pub.Serialize(&buf); err != nil {
		return nil, parsingError(err.Error())
	}
	return &Key{
		OwnerID:           ownerID,
		KeyID:             pub.KeyIdString(),
		PrimaryKeyID:      primary,
		Content:           base64.StdEncoding.EncodeToString(buf.Bytes()),
		Created:           pub.CreationTime.UTC().Truncate(time.Second),
		Expires:           expiry,
		CanSign:           pub.CanSign(),
		CanEncryptComms:   pub.PubKeyAlgo.CanEncrypt(),
		CanEncryptStorage: pub.PubKeyAlgo.CanEncrypt(),
		CanCertify:        pub.PubKeyAlgo.CanSign(),
	}, nil
}

// expiryOf is when e's primary key expires by its primary identity's
// self-signature (Forgejo's getExpiryTime); zero if never.
func expiryOf(e *openpgp.Entity) time.Time {
	var self *packet.Signature
	for _, name := range identityNames(e) {
		id := e.Identities[name]
		if self == nil {
			self = id.SelfSignature
		} else if id.SelfSignature != nil && id.SelfSignature.IsPrimaryId != nil && *id.SelfSignature.IsPrimaryId {
			self = id.SelfSignature
			break
		}
	}
	if self == nil || self.KeyLifetimeSecs == nil {
		return time.Time{}
	}
	return e.PrimaryKey.CreationTime.Add(time.Duration(*self.KeyLifetimeSecs) * time.Second).UTC().Truncate(time.Second)
}
