package auth

import (
	"context"
	"io"
	"log/slog"
	"sync"

	"github.com/hearthforge/hearth/forge"
)

// Config configures a Service. The zero value of every field but Store is a
// working default.
type Config struct {
	// Store persists users and tokens. Required: New refuses a Config
	// without it.
	Store Store
	// Clock stamps creations and updates. Nil means forge.SystemClock.
	Clock forge.Clock
	// Logger receives debug lines. Nil discards them.
	Logger *slog.Logger
	// MinPasswordLength is Forgejo's [security] MIN_PASSWORD_LENGTH. Zero
	// means 8.
	MinPasswordLength int
	// Password tunes the argon2id hash of new passwords. The zero value is
	// DefaultPasswordParams (m=19 MiB, t=2, p=1). Existing hashes keep the
	// parameters they were made with.
	Password PasswordParams
	// MaxConcurrentHashes bounds how many argon2id computations (hashing a
	// new password or checking one) run at once; further ones wait their
	// turn (or until their context ends). The memory of password hashing is
	// therefore at most MaxConcurrentHashes × Password.MemoryKiB, whatever
	// the number of sign-in attempts. Zero means DefaultMaxConcurrentHashes.
	MaxConcurrentHashes int
	// SecretKey seals TOTP secrets at rest. Two-factor enrolment needs it;
	// changing it makes existing enrolments unusable.
	SecretKey []byte
	// External verifies passwords of users of external login sources. Nil
	// refuses their password sign-in.
	External ExternalVerifier
	// Throttle tunes the failed sign-in counter; zero is DefaultThrottle.
	Throttle Throttle
	// Orgs tells Profile who may see an organisation's profile (orgs.NewVisibility
	// is one). Nil: organisations answer to the user rule (CanSee).
	Orgs OrgVisibility
	// EmailDomainAllowList, when non-empty, is the only domains (glob
	// patterns, `*.example.com`, ignoring case) of e-mail addresses users
	// may add (Forgejo's [service] EMAIL_DOMAIN_ALLOWLIST);
	// EmailDomainBlockList the domains they may not (EMAIL_DOMAIN_BLOCKLIST,
	// read only when the allow list is empty).
	EmailDomainAllowList []string
	EmailDomainBlockList []string
	// EmailConfirm leaves the e-mail addresses users add unverified
	// (Forgejo's [service] REGISTER_EMAIL_CONFIRM); false verifies them.
	EmailConfirm bool
	// Blobs stores users' avatar images. Nil refuses avatar uploads.
	Blobs Blobs
}

// Blobs stores avatar images (the subset of a blob store auth uses, as
// repos.Blobs).
type Blobs interface {
	// Put stores r under key, reading at most max bytes (0: no limit);
	// forge.ErrInvalid when r is longer.
	Put(ctx context.Context, key string, r io.Reader, max int64) (int64, error)
	// Open returns the blob; forge.ErrNotFound if there is none.
	Open(ctx context.Context, key string) (io.ReadCloser, error)
	// Delete removes the blob.
	Delete(ctx context.Context, key string) error
}

// DefaultMaxConcurrentHashes is the default of Config.MaxConcurrentHashes:
// with DefaultPasswordParams, at most 38 MiB of memory for password hashing.
const DefaultMaxConcurrentHashes = 2

// Service is the account and credential service. It is safe for concurrent
// use.
type Service struct {
	store     Store
	clock     forge.Clock
	log       *slog.Logger
	minPwd    int
	pwd       PasswordParams
	secretKey []byte
	external  ExternalVerifier
	throttle  *throttle
	orgs      OrgVisibility
	emails    emailRules
	blobs     Blobs
	// hashSlots holds one token per argon2id computation running.
	hashSlots chan struct{}
	// onHash, when set (tests only), runs with +1 when a computation takes
	// its slot and -1 before it gives it back.
	onHash func(delta int)

	dummyOnce sync.Once
	dummy     string
}

// New returns a Service for cfg. It returns a forge.ErrInvalid error when
// cfg has no Store.
func New(cfg Config) (*Service, error) {
	if cfg.Store == nil {
		return nil, forge.Errorf(forge.ErrInvalid, "auth: Config.Store is required")
	}
	s := &Service{
		store:  cfg.Store,
		clock:  forge.ClockOrSystem(cfg.Clock),
		log:    cfg.Logger,
		minPwd: cfg.MinPasswordLength,
		pwd:    cfg.Password,

		secretKey: cfg.SecretKey,
		external:  cfg.External,
		throttle:  newThrottle(cfg.Throttle),
		orgs:      cfg.Orgs,
		emails:    emailRules{allow: cfg.EmailDomainAllowList, block: cfg.EmailDomainBlockList, confirm: cfg.EmailConfirm},
		blobs:     cfg.Blobs,
	}
	if s.log == nil {
		s.log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if s.minPwd <= 0 {
		s.minPwd = 8
	}
	if s.pwd == (PasswordParams{}) {
		s.pwd = DefaultPasswordParams
	}
	n := cfg.MaxConcurrentHashes
	if n <= 0 {
		n = DefaultMaxConcurrentHashes
	}
	s.hashSlots = make(chan struct{}, n)
	return s, nil
}
