package gpgkeys

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"

	"github.com/ProtonMail/go-crypto/openpgp"

	"github.com/hearthforge/hearth/forge"
)

// Users finds a user as the actor may see it (auth.Service.User): a
// not-found error for users the actor may not see.
type Users interface {
	User(ctx context.Context, actor forge.Actor, name string) (*forge.User, error)
}

// Repos finds a repository the actor may see (repos.Service.RepoAccess): a
// not-found error for repositories the actor may not see.
type Repos interface {
	RepoAccess(ctx context.Context, actor forge.Actor, owner, name string) (*forge.Repository, forge.Permission, error)
}

// Emails lists a user's activated e-mail addresses: those a key's
// identities may name for the key to be accepted without a signature.
// The composition root answers it (the user's primary address while the
// account is active, until the table of a user's addresses is wired).
type Emails interface {
	ActivatedEmails(ctx context.Context, userID forge.ID) ([]string, error)
}

// Config configures a Service. Store, Users and Emails are required.
type Config struct {
	Store  Store
	Users  Users
	Emails Emails
	// Repos nil: GET /repos/{owner}/{repo}/signing-key.gpg finds no
	// repository.
	Repos Repos
	// Signing are the host's signing keys (ParseSigningKeys); the zero
	// value has none.
	Signing SigningKeys
	// Clock nil is forge.SystemClock: the verification token's minute.
	Clock forge.Clock
	// Logger receives debug lines. Nil discards.
	Logger *slog.Logger
}

// Service serves users' GPG keys and the host's signing keys. Safe for
// concurrent use.
type Service struct {
	cfg   Config
	clock forge.Clock
	log   *slog.Logger
}

// New returns a Service for cfg; forge.ErrInvalid without Store, Users or
// Emails.
func New(cfg Config) (*Service, error) {
	if cfg.Store == nil || cfg.Users == nil || cfg.Emails == nil {
		return nil, forge.Errorf(forge.ErrInvalid, "gpgkeys: Config.Store, Config.Users and Config.Emails are required")
	}
	s := &Service{cfg: cfg, clock: forge.ClockOrSystem(cfg.Clock), log: cfg.Logger}
	if s.log == nil {
		s.log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return s, nil
}

// start checks what operation op requires (Requirements, the table the
// API derives its routes from): an account that may act, a token granting
// the user scope, a signed-in user.
func start(actor forge.Actor, op string) error {
	return requirementOf(operations[op]).Check(actor)
}

// invalidSignature is Forgejo's ErrGPGInvalidTokenSignature answer
// (forge.ErrInvalid), naming the token to sign.
func invalidSignature(token string) error {
	return forge.Errorf(forge.ErrInvalid, "The provided GPG key, signature and token do not match or token is out of date. Provide a valid signature for the token: %s", token)
}

// noEmailFound is Forgejo's ErrGPGNoEmailFound answer (forge.ErrNotFound).
func noEmailFound(token string) error {
	return forge.Errorf(forge.ErrNotFound, "None of the emails attached to the GPG key could be found. It may still be added if you provide a valid signature for the token: %s", token)
}

// ErrNoSuchKey is the reason of the forge.ErrNotFound of a key that does
// not exist (or is not the actor's) and of a signing key the host does
// not have: Forgejo answers both with its bare ctx.NotFound().
var ErrNoSuchKey = errors.New("no such key")

var errKeyNotFound = forge.Reasonf(forge.ErrNotFound, ErrNoSuchKey, "GPG key does not exist")

// Token returns the actor's verification token (VerificationToken, the
// one of the next minute) to sign with the key to add or verify.
func (s *Service) Token(ctx context.Context, actor forge.Actor) (string, error) {
	if err := start(actor, "getVerificationToken"); err != nil {
		return "", err
	}
	return VerificationToken(actor.User, s.clock.Now(), 1), nil
}

// tokens are the tokens a signature may sign now: the one Token shows and
// the one it showed a minute ago.
func (s *Service) tokens(u *forge.User) []string {
	now := s.clock.Now()
	return []string{VerificationToken(u, now, 1), VerificationToken(u, now, 0)}
}

// ListOwn returns a page of the actor's keys (primary keys, with their
// subkeys), ascending by id, and their number.
func (s *Service) ListOwn(ctx context.Context, actor forge.Actor, o forge.ListOptions) ([]*Key, int64, error) {
	if err := start(actor, "userCurrentListGPGKeys"); err != nil {
		return nil, 0, err
	}
	return s.list(ctx, actor.UserID(), o)
}

// List returns a page of the keys of the user called name, as ListOwn:
// anyone signed in may list the keys of a user they may see (Users: a
// not-found error otherwise).
func (s *Service) List(ctx context.Context, actor forge.Actor, name string, o forge.ListOptions) ([]*Key, int64, error) {
	if err := start(actor, "userListGPGKeys"); err != nil {
		return nil, 0, err
	}
	u, err := s.cfg.Users.User(ctx, actor, name)
	if err != nil {
		return nil, 0, err
	}
	return s.list(ctx, u.ID, o)
}

func (s *Service) list(ctx context.Context, owner forge.ID, o forge.ListOptions) (list []*Key, total int64, err error) {
	err = s.cfg.Store.View(ctx, func(tx Tx) error {
		list, total, err = tx.ListKeys(ctx, owner, o.Normalize())
		return err
	})
	return list, total, err
}

// Get returns the actor's key id (a primary key with its subkeys, or a
// subkey); forge.ErrNotFound if the actor has none of that id.
func (s *Service) Get(ctx context.Context, actor forge.Actor, id forge.ID) (*Key, error) {
	if err := start(actor, "userCurrentGetGPGKey"); err != nil {
		return nil, err
	}
	var k *Key
	err := s.cfg.Store.View(ctx, func(tx Tx) error {
		var err error
		k, err = tx.KeyByID(ctx, actor.UserID(), id)
		return err
	})
	if errors.Is(err, forge.ErrNotFound) {
		return nil, errKeyNotFound
	}
	return k, err
}

// Add adds the keys of the armored block to the actor's (Forgejo's
// AddGPGKey) and returns the first. With a signature (an armored detached
// signature of the actor's token, by one of the keys or subkeys), only
// the signing key is added, verified; without one, every key is added
// unverified, and each must have an identity naming one of the actor's
// activated e-mail addresses. Errors, checked in Forgejo's order:
// forge.ErrInvalid `failed to parse gpg key …` (malformed armor, no key, a
// key without identity), forge.ErrInvalid (the signature and token do not
// match, naming the token), forge.ErrConflict with reason ErrKeyIDUsed (a
// key id is stored already, the actor's or another user's),
// forge.ErrNotFound (no identity names an activated address, naming the
// token). Nothing is stored unless every key is.
func (s *Service) Add(ctx context.Context, actor forge.Actor, armored, signature string) (*Key, error) {
	if err := start(actor, "userCurrentPostGPGKey"); err != nil {
		return nil, err
	}
	list, err := ParseArmored(armored)
	if err != nil {
		return nil, err
	}
	tokens := s.tokens(actor.User)
	verified := false
	if signature != "" {
		signer := checkSignature(list, tokens, signature)
		if signer == nil {
			return nil, invalidSignature(tokens[0])
		}
		list, verified = openpgp.EntityList{signer}, true
	}
	list = coalesce(list)
	emails, err := s.cfg.Emails.ActivatedEmails(ctx, actor.UserID())
	if err != nil {
		return nil, err
	}
	now := s.clock.Now()
	var first *Key
	err = s.cfg.Store.Update(ctx, func(tx Tx) error {
		first = nil
		for _, e := range list {
			used, err := tx.KeyIDUsed(ctx, e.PrimaryKey.KeyIdString())
			if err != nil {
				return err
			}
			if used {
				return errKeyIDUsed()
			}
			k, err := keyOf(actor.UserID(), e, emails, verified, now)
			if err != nil {
				return err
			}
			if !verified && len(k.Emails) == 0 {
				s.log.Debug("gpg key names no activated e-mail", "key", k.KeyID, "emails", strings.Join(identityEmails(e), ","))
				return noEmailFound(tokens[0])
			}
			k.Armored = armored
			if err := tx.CreateKey(ctx, k); err != nil {
				if errors.Is(err, forge.ErrConflict) {
					return errKeyIDUsed()
				}
				return err
			}
			if first == nil {
				first = k
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return first, nil
}

// Verify marks the actor's key keyID verified (Forgejo's VerifyGPGKey):
// signature must be an armored detached signature of the actor's token
// by the key or one of its subkeys. keyID is read as Forgejo reads it
// (leading zeros dropped), padded to 16 digits, ignoring case. Errors:
// forge.ErrNotFound when keyID is empty or names no key of the actor's,
// forge.ErrInvalid (naming the token) when the signature does not match.
func (s *Service) Verify(ctx context.Context, actor forge.Actor, keyID, signature string) (*Key, error) {
	if err := start(actor, "userVerifyGPGKey"); err != nil {
		return nil, err
	}
	keyID = strings.TrimLeft(keyID, "0")
	if keyID == "" || len(keyID) > 16 {
		return nil, errKeyNotFound
	}
	keyID = strings.ToUpper(fmt.Sprintf("%016s", keyID))
	tokens := s.tokens(actor.User)
	var out *Key
	err := s.cfg.Store.Update(ctx, func(tx Tx) error {
		k, err := tx.KeyByKeyID(ctx, actor.UserID(), keyID)
		if errors.Is(err, forge.ErrNotFound) {
			return errKeyNotFound
		} else if err != nil {
			return err
		}
		list, err := ParseArmored(k.Armored)
		if err != nil {
			return err
		}
		var own openpgp.EntityList
		for _, e := range list {
			if e.PrimaryKey.KeyIdString() == k.KeyID {
				own = append(own, e)
			}
		}
		if checkSignature(coalesce(own), tokens, signature) == nil {
			return invalidSignature(tokens[0])
		}
		if err := tx.SetVerified(ctx, k.ID); err != nil {
			return err
		}
		k.Verified = true
		out = k
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// Delete deletes the actor's key id (a primary key with its subkeys, or
// one subkey). A key the actor does not have is no error: Forgejo's
// DeleteGPGKey answers 204 for it too.
func (s *Service) Delete(ctx context.Context, actor forge.Actor, id forge.ID) error {
	if err := start(actor, "userCurrentDeleteGPGKey"); err != nil {
		return err
	}
	return s.cfg.Store.Update(ctx, func(tx Tx) error {
		k, err := tx.KeyByID(ctx, actor.UserID(), id)
		if errors.Is(err, forge.ErrNotFound) {
			return nil
		} else if err != nil {
			return err
		}
		return tx.DeleteKey(ctx, k.ID)
	})
}
