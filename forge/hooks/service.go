package hooks

import (
	"cmp"
	"context"
	"io"
	"log/slog"
	"time"

	"github.com/hearthforge/hearth/forge"
)

// Defaults of Config's zero values.
const (
	DefaultTimeout      = 5 * time.Second
	DefaultMaxAttempts  = 5
	DefaultConcurrency  = 4
	DefaultBackoff      = 10 * time.Second
	DefaultMaxBackoff   = time.Hour
	DefaultPollInterval = 5 * time.Second
)

// Config configures a Service. Store is required; every other zero value
// is a working default.
type Config struct {
	Store Store
	// Clock stamps hooks and schedules deliveries. Nil means
	// forge.SystemClock.
	Clock forge.Clock
	// Logger receives a line per failed delivery. Nil discards.
	Logger *slog.Logger
	// Repos answers the actor's permission on a repository (repository
	// hooks, the test delivery). Nil refuses repository hooks
	// (forge.ErrPrecondition).
	Repos RepoAccess
	// Orgs answers whether the actor owns an organisation (organisation
	// hooks). Nil refuses organisation hooks (forge.ErrPrecondition).
	Orgs OrgRole
	// Sender delivers requests (forge/hooks/hookhttp.Sender enforces the
	// address policy at connect time). Nil leaves Run and DeliverDue
	// refusing to run (forge.ErrPrecondition); events are still queued.
	Sender Sender
	// Payloads builds the payload of test deliveries (Test); the
	// composition root's converts with httpapi/convert. Nil refuses Test
	// (forge.ErrPrecondition).
	Payloads TestPayloads
	// Files reads the build manifests of sourcehut_builds hooks from the
	// repositories. Nil records their deliveries as failed.
	Files FileReader
	// RootURL is the forge's public URL ending in "/", for the build
	// manifests of sourcehut_builds hooks.
	RootURL string
	// Timeout bounds one delivery attempt; 0 means DefaultTimeout.
	Timeout time.Duration
	// MaxAttempts is how many times a task is tried; 0 means
	// DefaultMaxAttempts.
	MaxAttempts int
	// Concurrency bounds simultaneous deliveries; 0 means
	// DefaultConcurrency.
	Concurrency int
	// Backoff is the wait after the first failed attempt, doubled after
	// each further one up to MaxBackoff; 0 means DefaultBackoff and
	// DefaultMaxBackoff.
	Backoff, MaxBackoff time.Duration
	// PollInterval is how often Run looks for due tasks when nothing woke
	// it; 0 means DefaultPollInterval.
	PollInterval time.Duration
	// SecretKey, when set, seals each hook's secret and authorization
	// header at rest (forge.Seal, AES-256-GCM); the server's secret key.
	// Empty stores them as given, as Forgejo stores secrets.
	SecretKey []byte
	// NewUUID returns delivery ids; nil means random version-4 UUIDs.
	NewUUID func() string
}

// TestPayloads builds the payload of a test delivery.
type TestPayloads interface {
	// TestPush is Forgejo's push payload of a test delivery to repo by
	// actor (TestHook): ref, the head commit of rev as before, after and
	// the one commit, the actor as pusher and sender; forge.ErrNotFound
	// when rev names no commit.
	TestPush(ctx context.Context, actor forge.Actor, repo *forge.Repository, ref, rev string) (any, error)
}

// RepoAccess is repos.Service.RepoAccess: the repository owner/name with
// the actor's permission; forge.ErrNotFound for one the actor may not see.
type RepoAccess interface {
	RepoAccess(ctx context.Context, actor forge.Actor, owner, name string) (*forge.Repository, forge.Permission, error)
}

// OrgRole is orgs.Service.MemberRole: the organisation and whether the
// actor owns it or is a member; forge.ErrNotFound for one the actor may
// not see.
type OrgRole interface {
	MemberRole(ctx context.Context, actor forge.Actor, org string) (o *forge.User, owner, member bool, err error)
}

// Request is one HTTP delivery.
type Request struct {
	Method string
	URL    string
	Header map[string]string
	Body   []byte
}

// Response is the receiver's answer, its body cut to a few kilobytes.
type Response struct {
	Status int
	Body   string
}

// Sender sends a delivery. It returns an error when no answer came (the
// address was refused, the connection failed, ctx ended).
type Sender interface {
	Send(ctx context.Context, r Request) (Response, error)
}

// Service is the webhook service. It is safe for concurrent use.
type Service struct {
	cfg   Config
	store Store
	clock forge.Clock
	log   *slog.Logger
	wake  chan struct{}
}

// New returns a Service for cfg; forge.ErrInvalid without Store.
func New(cfg Config) (*Service, error) {
	if cfg.Store == nil {
		return nil, forge.Errorf(forge.ErrInvalid, "hooks: Config.Store is required")
	}
	cfg.Timeout = cmp.Or(cfg.Timeout, DefaultTimeout)
	cfg.MaxAttempts = cmp.Or(cfg.MaxAttempts, DefaultMaxAttempts)
	cfg.Concurrency = cmp.Or(cfg.Concurrency, DefaultConcurrency)
	cfg.Backoff = cmp.Or(cfg.Backoff, DefaultBackoff)
	cfg.MaxBackoff = cmp.Or(cfg.MaxBackoff, DefaultMaxBackoff)
	cfg.PollInterval = cmp.Or(cfg.PollInterval, DefaultPollInterval)
	if cfg.NewUUID == nil {
		cfg.NewUUID = newUUID
	}
	store := cfg.Store
	if len(cfg.SecretKey) > 0 {
		store = sealedStore{cfg.Store, cfg.SecretKey}
	}
	s := &Service{cfg: cfg, store: store, clock: forge.ClockOrSystem(cfg.Clock), log: cfg.Logger, wake: make(chan struct{}, 1)}
	if s.log == nil {
		s.log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return s, nil
}
