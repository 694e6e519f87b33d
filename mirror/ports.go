package mirror

import (
	"context"
	"time"

	"github.com/hearthforge/hearth/forge"
)

// Ports are the mirror service's trusted operations: they take no actor
// and check nothing, so they are not on Service (whose every method
// checks its actor) but on this value, which only the composition root
// receives (NewWithPorts) and hands to the adapters that need it.
type Ports struct{ s *Service }

// NewWithPorts is New that also returns the service's trusted Ports (the
// composition root's constructor).
func NewWithPorts(cfg Config) (*Service, *Ports, error) {
	s, err := New(cfg)
	if err != nil {
		return nil, nil, err
	}
	return s, &Ports{s: s}, nil
}

// RecordPullMirror makes repo a pull mirror of m's remote (Migrate does so
// after a mirror clone): credentials sealed apart from the address,
// enable_prune on, the first scheduled sync at now + interval, Updated
// now. forge.ErrPrecondition if m has credentials and no Config.Secret is
// set; forge.ErrConflict if repo is already a mirror.
func (p *Ports) RecordPullMirror(ctx context.Context, repo forge.ID, m *Migration) (*PullMirror, error) {
	return p.s.recordPullMirror(ctx, repo, m)
}

// AfterPush is the push listener for sync_on_commit: every push mirror of
// repo with SyncOnCommit is made due now and the schedulers are woken
// (Forgejo queues them). Archived repositories push nowhere. It writes no
// git data; the caller vouches for the push that happened.
func (p *Ports) AfterPush(ctx context.Context, repo *forge.Repository) error {
	return p.s.afterPush(ctx, repo)
}

// NewScheduler returns a Scheduler of the service. holder names this
// server in leases: unique per server, and stable across its restarts
// (Run first releases the leases holder still has, which a crash left);
// "" is Config.Holder (or the Service's own name). after returns a channel
// that receives once d has passed on Config.Clock; nil is time.After
// (tests pass a fake driven with the fake clock).
func (p *Ports) NewScheduler(holder string, after func(d time.Duration) <-chan time.Time) *Scheduler {
	return p.s.newScheduler(holder, after)
}

// ReleaseLeases releases every lease holder holds, expired or not: a
// server restarting under the same name (Config.Holder, stable per data
// directory) calls it at start so that the mirrors its crash left leased
// are synced at once, not when the leases expire. Scheduler.Run calls it
// for its holder. It returns how many it released.
func (p *Ports) ReleaseLeases(ctx context.Context, holder string) (int, error) {
	return p.s.releaseLeases(ctx, holder)
}

// WakeSchedulers tells the running schedulers to reload the due mirrors
// now: Forgejo's update_mirrors cron task (the site's cron registry runs
// it at the poll interval and on an administrator's demand).
func (p *Ports) WakeSchedulers(context.Context) error {
	p.s.wake()
	return nil
}
