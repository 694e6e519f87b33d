package auth

import (
	"io"
	"log/slog"
	"sync"

	"github.com/hearthforge/hearth/forge"
)

// Config configures a Service. The zero value of every field but Store is a
// working default.
type Config struct {
	// Store persists users and tokens. Required.
	Store Store
	// Clock stamps creations and updates. Nil means forge.SystemClock.
	Clock forge.Clock
	// Logger receives debug lines. Nil discards them.
	Logger *slog.Logger
	// MinPasswordLength is Forgejo's [security] MIN_PASSWORD_LENGTH. Zero
	// means 8.
	MinPasswordLength int
	// Password tunes the argon2id hash of new passwords. The zero value is
	// DefaultPasswordParams. Existing hashes keep the parameters they were
	// made with.
	Password PasswordParams
	// SecretKey seals TOTP secrets at rest. Two-factor enrolment needs it;
	// changing it makes existing enrolments unusable.
	SecretKey []byte
	// External verifies passwords of users of external login sources. Nil
	// refuses their password sign-in.
	External ExternalVerifier
	// Throttle tunes the failed sign-in counter; zero is DefaultThrottle.
	Throttle Throttle
}

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

	dummyOnce sync.Once
	dummy     string
}

// New returns a Service for cfg.
func New(cfg Config) *Service {
	s := &Service{
		store:  cfg.Store,
		clock:  forge.ClockOrSystem(cfg.Clock),
		log:    cfg.Logger,
		minPwd: cfg.MinPasswordLength,
		pwd:    cfg.Password,

		secretKey: cfg.SecretKey,
		external:  cfg.External,
		throttle:  newThrottle(cfg.Throttle),
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
	return s
}
