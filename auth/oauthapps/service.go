package oauthapps

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base32"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"
	"time"

	"github.com/hearthforge/hearth/forge"
)

// App is a user's OAuth2 application (Forgejo's OAuth2Application).
type App struct {
	ID     forge.ID
	UserID forge.ID
	Name   string
	// ClientID is a random UUID, unique among applications.
	ClientID string
	// SecretHash is the digest of the client secret (HashSecret); the
	// secret itself is never stored.
	SecretHash   string
	RedirectURIs []string
	// Confidential: a confidential client (it keeps its secret); public
	// clients may use any port of a loopback redirect URI.
	Confidential bool
	Created      time.Time
	Updated      time.Time
	// Secret is the clear client secret: set only on the value Create and
	// Update return (shown once).
	Secret string
}

// Options are what the API's CreateOAuth2ApplicationOptions carry, for
// Create and Update alike (Forgejo's PATCH takes the whole application).
type Options struct {
	Name               string
	RedirectURIs       []string
	ConfidentialClient bool
}

// Config configures a Service. Store is required.
type Config struct {
	Store Store
	// Clock nil is forge.SystemClock.
	Clock forge.Clock
}

// Service manages users' OAuth2 applications. Safe for concurrent use.
type Service struct {
	store Store
	clock forge.Clock
}

// New returns a Service for cfg; forge.ErrInvalid without a Store.
func New(cfg Config) (*Service, error) {
	if cfg.Store == nil {
		return nil, forge.Errorf(forge.ErrInvalid, "oauthapps: Config.Store is required")
	}
	return &Service{store: cfg.Store, clock: forge.ClockOrSystem(cfg.Clock)}, nil
}

// start checks the requirement of operation op (Requirements) for actor.
func start(actor forge.Actor, op string) error {
	return requirementOf(operations[op]).Check(actor)
}

// Validate checks o as Forgejo's binding of CreateOAuth2ApplicationOptions
// does (`[Name]: Required`, `[RedirectURIs]: Required`, forge.ErrInvalid)
// and, beyond it, that every redirect URI is an absolute URI with a scheme
// and no fragment (RFC 6749 §3.1.2: `invalid redirect URI "…"`).
func Validate(o Options) error {
	if strings.TrimSpace(o.Name) == "" {
		return forge.Errorf(forge.ErrInvalid, "[Name]: Required")
	}
	if len(o.RedirectURIs) == 0 {
		return forge.Errorf(forge.ErrInvalid, "[RedirectURIs]: Required")
	}
	for _, raw := range o.RedirectURIs {
		u, err := url.Parse(raw)
		if err != nil || u.Scheme == "" || u.Fragment != "" || strings.TrimSpace(raw) != raw || (u.Host == "" && u.Opaque == "" && u.Path == "") {
			return forge.Errorf(forge.ErrInvalid, "invalid redirect URI %q", raw)
		}
	}
	return nil
}

// Create makes a new application of the actor (write:user) and returns
// it with its client secret, the only time the secret is shown. Errors:
// the requirement's (forge.ErrUnauthenticated, forge.ErrForbidden);
// Validate's forge.ErrInvalid.
func (s *Service) Create(ctx context.Context, actor forge.Actor, o Options) (*App, error) {
	if err := start(actor, "userCreateOAuth2Application"); err != nil {
		return nil, err
	}
	if err := Validate(o); err != nil {
		return nil, err
	}
	clientID, err := newClientID()
	if err != nil {
		return nil, err
	}
	secret, err := NewSecret()
	if err != nil {
		return nil, err
	}
	now := s.clock.Now()
	a := &App{UserID: actor.User.ID, Name: o.Name, ClientID: clientID, SecretHash: HashSecret(secret),
		RedirectURIs: append([]string(nil), o.RedirectURIs...), Confidential: o.ConfidentialClient, Created: now, Updated: now}
	if err := s.store.Update(ctx, func(tx Tx) error { return tx.CreateApp(ctx, a) }); err != nil {
		return nil, err
	}
	a.Secret = secret
	return a, nil
}

// List returns one page of the actor's applications, without secrets
// (read:user), and their number.
func (s *Service) List(ctx context.Context, actor forge.Actor, o forge.ListOptions) ([]*App, int64, error) {
	if err := start(actor, "userGetOAuth2Applications"); err != nil {
		return nil, 0, err
	}
	var list []*App
	var n int64
	err := s.store.View(ctx, func(tx Tx) error {
		var err error
		list, n, err = tx.ListApps(ctx, actor.User.ID, o.Normalize())
		return err
	})
	return list, n, err
}

// Get returns the actor's application id, without its secret (read:user).
// forge.ErrNotFound for none and for another user's (Forgejo answers 404
// to both).
func (s *Service) Get(ctx context.Context, actor forge.Actor, id forge.ID) (*App, error) {
	if err := start(actor, "userGetOAuth2Application"); err != nil {
		return nil, err
	}
	var a *App
	err := s.store.View(ctx, func(tx Tx) error {
		var err error
		a, err = own(ctx, tx, actor, id)
		return err
	})
	return a, err
}

// Update replaces the name, redirect URIs and confidentiality of the
// actor's application id and gives it a new client secret, which it
// returns (write:user; the old secret stops working). Errors as Create
// and Get.
func (s *Service) Update(ctx context.Context, actor forge.Actor, id forge.ID, o Options) (*App, error) {
	if err := start(actor, "userUpdateOAuth2Application"); err != nil {
		return nil, err
	}
	if err := Validate(o); err != nil {
		return nil, err
	}
	secret, err := NewSecret()
	if err != nil {
		return nil, err
	}
	var a *App
	err = s.store.Update(ctx, func(tx Tx) error {
		var err error
		if a, err = own(ctx, tx, actor, id); err != nil {
			return err
		}
		a.Name, a.RedirectURIs, a.Confidential = o.Name, append([]string(nil), o.RedirectURIs...), o.ConfidentialClient
		a.SecretHash, a.Updated = HashSecret(secret), s.clock.Now()
		return tx.UpdateApp(ctx, a)
	})
	if err != nil {
		return nil, err
	}
	a.Secret = secret
	return a, nil
}

// Delete deletes the actor's application id (write:user). Errors as Get.
func (s *Service) Delete(ctx context.Context, actor forge.Actor, id forge.ID) error {
	if err := start(actor, "userDeleteOAuth2Application"); err != nil {
		return err
	}
	return s.store.Update(ctx, func(tx Tx) error {
		if _, err := own(ctx, tx, actor, id); err != nil {
			return err
		}
		return tx.DeleteApp(ctx, id)
	})
}

// own loads application id when it is the actor's: forge.ErrNotFound
// otherwise (another user's application is not told apart from none).
func own(ctx context.Context, tx Tx, actor forge.Actor, id forge.ID) (*App, error) {
	a, err := tx.AppByID(ctx, id)
	if errors.Is(err, forge.ErrNotFound) || (err == nil && a.UserID != actor.User.ID) {
		return nil, forge.Errorf(forge.ErrNotFound, "%s", fmt.Sprintf("OAuth Application does not exist [id: %d]", id))
	}
	return a, err
}

// secretEncoding is base32 in lower case without padding (Forgejo's
// base32Lower).
var secretEncoding = base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)

// NewSecret returns a new client secret as Forgejo's GenerateClientSecret
// makes them: "gto_" and 32 random bytes in lower-case base32.
func NewSecret() (string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return "gto_" + secretEncoding.EncodeToString(b), nil
}

// HashSecret is the stored digest of a client secret: SHA-256 in hex. A
// secret is 256 random bits, so a slow password hash (Forgejo's bcrypt)
// adds no strength against guessing and only costs each check.
func HashSecret(secret string) string {
	sum := sha256.Sum256([]byte(secret))
	return hex.EncodeToString(sum[:])
}

// VerifySecret reports, in constant time, whether secret is a's client
// secret.
func VerifySecret(a *App, secret string) bool {
	return a != nil && subtle.ConstantTimeCompare([]byte(HashSecret(secret)), []byte(a.SecretHash)) == 1
}

// RedirectAllowed reports whether redirectURI is one of a's, as Forgejo's
// ContainsRedirectURI: an exact match ignoring ASCII case and a final
// slash, and for a public client an http loopback URI with any port.
func RedirectAllowed(a *App, redirectURI string) bool {
	contains := func(s string) bool {
		s = strings.TrimSuffix(strings.ToUpper(s), "/")
		for _, u := range a.RedirectURIs {
			if strings.TrimSuffix(strings.ToUpper(u), "/") == s {
				return true
			}
		}
		return false
	}
	if !a.Confidential {
		if u, err := url.Parse(redirectURI); err == nil && u.Scheme == "http" && u.Port() != "" {
			if ip := net.ParseIP(u.Hostname()); ip != nil && ip.IsLoopback() {
				u.Host = u.Hostname()
				if contains(u.String()) {
					return true
				}
			}
		}
	}
	return contains(redirectURI)
}

// newClientID returns a random (version 4) UUID.
func newClientID() (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b[:])
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:], nil
}
