package federation

import (
	"context"
	"crypto"
	"errors"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/hearthforge/hearth/forge"
)

// Config is what New builds the service from.
type Config struct {
	// Enabled is Forgejo's [federation] ENABLED (default false): off,
	// every method answers forge.ErrNotFound.
	Enabled bool
	// Store reads accounts, repositories and the usage counts.
	Store Store
	// Keys holds the instance actor's and the people's key pairs.
	Keys Keys
	// Resolver finds the public key of a remote actor's key id (Forgejo
	// fetches the actor document the key id names). Nil: every signed
	// request is refused.
	Resolver KeyResolver
	// AppURL is the forge's public URL ending in "/" (Forgejo's
	// setting.AppURL): actor ids are below it.
	AppURL string
	// Version is the software version NodeInfo reports.
	Version string
	// OpenRegistrations is what NodeInfo reports (Forgejo's
	// !Service.DisableRegistration).
	OpenRegistrations bool
	// HideUserStatistics leaves the usage out of NodeInfo (Forgejo's
	// [federation] SHARE_USER_STATISTICS = false; shared by default).
	HideUserStatistics bool
	// Clock dates the usage counts (NodeInfo is cached for 180 seconds).
	// Nil: forge.SystemClock.
	Clock forge.Clock
}

// Service serves the federation operations.
type Service struct {
	cfg Config

	mu       sync.Mutex
	nodeInfo *NodeInfo
	cachedAt time.Time
}

// nodeInfoCacheTTL is how long a NodeInfo answer is kept (Forgejo's
// nodeInfoCacheKey, 180 seconds).
const nodeInfoCacheTTL = 180 * time.Second

// New returns the service. It returns an error when cfg enables federation
// without a Store or Keys.
func New(cfg Config) (*Service, error) {
	if cfg.Enabled && (cfg.Store == nil || cfg.Keys == nil) {
		return nil, errors.New("federation: Config.Store and Config.Keys are required when enabled")
	}
	cfg.Clock = forge.ClockOrSystem(cfg.Clock)
	if cfg.AppURL != "" && !strings.HasSuffix(cfg.AppURL, "/") {
		cfg.AppURL += "/"
	}
	return &Service{cfg: cfg}, nil
}

// Enabled reports whether federation is on.
func (s *Service) Enabled() bool { return s != nil && s.cfg.Enabled }

// errAbsent is what every operation answers while federation is off:
// Forgejo registers none of the routes.
var errAbsent = forge.Errorf(forge.ErrNotFound, "federation is disabled")

// check is the start of every operation: federation on, the actor's
// account state and token scope for op (Requirement.Check).
func (s *Service) check(actor forge.Actor, op string) error {
	if !s.Enabled() {
		return errAbsent
	}
	return requirements[op].Check(actor)
}

// actorURL is the id of the instance actor (Forgejo's APServerActorID).
func (s *Service) actorURL(appURL string) string {
	return s.appURL(appURL) + "api/v1/activitypub/actor"
}

// appURL is Config.AppURL, or the request's when none is configured.
func (s *Service) appURL(requestURL string) string {
	if s.cfg.AppURL != "" {
		return s.cfg.AppURL
	}
	return requestURL
}

func personURL(app string, id forge.ID) string {
	return app + "api/v1/activitypub/user-id/" + strconv.FormatInt(int64(id), 10)
}

func repositoryURL(app string, id forge.ID) string {
	return app + "api/v1/activitypub/repository-id/" + strconv.FormatInt(int64(id), 10)
}

// KeyResolver finds the public key a remote key id names (the actor
// document's publicKey.publicKeyPem, fetched from the key id's URL).
type KeyResolver interface {
	PublicKey(ctx context.Context, keyID string) (crypto.PublicKey, error)
}

// Signed is a request signed with draft-cavage HTTP signatures, as the
// transport parsed it: the key id it names and the check of its signature
// against a public key.
type Signed interface {
	KeyID() string
	Verify(key crypto.PublicKey) error
}

// ErrSignature is the refusal of a request whose signature is missing,
// malformed, made with another key or over other content: Forgejo's
// ReqHTTPSignature answers it 400 `request signature verification failed`.
var ErrSignature = forge.Errorf(forge.ErrInvalid, "request signature verification failed")

// verify checks sig: a key id the resolver knows and a signature that key
// made. Any failure is ErrSignature (the cause is not told to the remote
// side).
func (s *Service) verify(ctx context.Context, sig Signed) error {
	if sig == nil || s.cfg.Resolver == nil || sig.KeyID() == "" {
		return ErrSignature
	}
	key, err := s.cfg.Resolver.PublicKey(ctx, sig.KeyID())
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return ErrSignature
	}
	if sig.Verify(key) != nil {
		return ErrSignature
	}
	return nil
}
