package mirror

import (
	"log/slog"
	"time"

	"github.com/hearthforge/hearth/forge"
)

// Defaults of Config, Forgejo's [mirror] and [migrations] defaults.
const (
	DefaultInterval    = 8 * time.Hour    // [mirror] DEFAULT_INTERVAL
	MinInterval        = 10 * time.Minute // [mirror] MIN_INTERVAL
	DefaultTimeout     = 10 * time.Minute // one fetch, push or clone
	DefaultConcurrency = 4                // syncs a Scheduler runs at once
	DefaultLease       = 2 * time.Minute  // how long a claimed sync stays claimed without renewal (renewed every third)
	DefaultPoll        = time.Minute      // how often a Scheduler reloads due mirrors
	DefaultJitter      = 10 * time.Minute // start times of one due moment spread over this
	DefaultRetryBase   = time.Minute      // first back-off after a failure
)

// Config configures a Service. Store, Repos and Git are required; every
// other zero value is a working default (Creator's: no migrations).
type Config struct {
	Store Store
	Repos Repos
	// Quota, when set, checks size:git:all of the owner before a manual
	// sync (POST mirror-sync) and, when it is also a ReposQuota,
	// size:repos:all before a scheduled one (skipped when refused); nil
	// checks nothing.
	Quota GitQuota
	Git   Git
	// Creator creates the repositories of migrations (Migrate); nil
	// refuses them with ErrNoCreator.
	Creator Creator
	// Clock stamps syncs and schedules. Nil means forge.SystemClock.
	Clock forge.Clock
	// Logger receives a line per failed sync (never a credential). Nil discards.
	Logger *slog.Logger
	// Secret seals stored credentials (forge.Seal). Empty refuses mirrors
	// with credentials (forge.ErrPrecondition) but allows those without.
	Secret []byte

	// Disabled is [mirror] ENABLED=false: every mirror call answers
	// ErrDisabled (400 `Mirror feature is disabled`) and nothing is synced.
	Disabled bool
	// DisableNewPull, DisableNewPush are [mirror] DISABLE_NEW_PULL/PUSH.
	DisableNewPull, DisableNewPush bool
	// DefaultInterval of new pull mirrors; 0 means DefaultInterval.
	DefaultInterval time.Duration
	// MinInterval; 0 means MinInterval; below 1m is raised to 1m (Forgejo).
	MinInterval time.Duration

	// Timeout bounds one fetch, push or clone; 0 means DefaultTimeout.
	Timeout time.Duration
	// MaxSize caps a mirror's size in bytes after a fetch or clone (the git
	// layer stops the transfer past it); 0 means no cap.
	MaxSize int64
	// Policy decides which remote hosts may be reached.
	Policy Policy
	// AllowLocalPaths lets site administrators migrate from a local path
	// ([migrations] / import-local permission). False refuses them.
	AllowLocalPaths bool

	// Scheduling (Scheduler): Concurrency, Lease, Poll, Jitter, RetryBase;
	// zero values are the Default* constants. RetryMax caps the back-off;
	// 0 means the mirror's interval (or DefaultInterval when it is 0).
	// A running sync renews its Lease every third of it, so a server that
	// dies holds its mirrors for at most Lease.
	Concurrency int
	Lease       time.Duration
	// Holder names this server in leases (manual syncs; a Scheduler is
	// given its own). It should be unique per server and stable across
	// its restarts (forged derives it from its data directory), so that a
	// restarted server releases at once the leases its crash left
	// (Ports.ReleaseLeases). "" is a name made once per Service.
	Holder string
	// After is the timer of lease renewals: a channel that receives once d
	// has passed on Clock. Nil is time.After (tests pass a fake).
	After     func(d time.Duration) <-chan time.Time
	Poll      time.Duration
	Jitter    time.Duration
	RetryBase time.Duration
	RetryMax  time.Duration

	// Listeners are told of the references a pull-mirror sync changed,
	// after the repository's state is refreshed (push listeners: hooks,
	// push mirrors with sync_on_commit).
	Listeners []SyncListener
	// NewRemoteName returns push-mirror remote names; nil gives
	// "remote_mirror_" + 11 random characters (Forgejo).
	NewRemoteName func() string
}

// Intervals returns the effective default and minimum intervals with
// Forgejo's corrections (modules/setting/mirror.go): a minimum below one
// minute is one minute; a default below the minimum is max(8h, minimum).
func (c Config) Intervals() (def, min time.Duration) {
	min = c.MinInterval
	if min == 0 {
		min = MinInterval
	}
	if min < time.Minute {
		min = time.Minute
	}
	def = c.DefaultInterval
	if def == 0 {
		def = DefaultInterval
	}
	if def < min {
		def = max(DefaultInterval, min)
	}
	return def, min
}
