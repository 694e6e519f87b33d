package mirror

import (
	"context"
	"errors"
	"time"

	"github.com/hearthforge/hearth/forge"
)

// kindOr is err's category, or forge.ErrInvalid (a remote's failure is bad
// input, not a server fault).
func kindOr(err error) error {
	if k := forge.KindOf(err); k != nil {
		return k
	}
	return forge.ErrInvalid
}

// errLeaseLost ends a sync whose lease could not be renewed in time:
// another server may hold the mirror now.
var errLeaseLost = errors.New("mirror: lease lost")

// run syncs the mirror of key under a lease held by holder. With
// scheduled, it runs only if the mirror is still due (another scheduler
// may have synced it since it was queued). It reports whether it ran; a
// mirror this process is syncing, or whose lease another holder has, is
// (false, nil). While the sync runs its lease is renewed every third of
// Config.Lease (heartbeat), so a lease outlives a server that died by at
// most Config.Lease; a renewal that finds the lease taken ends the sync.
func (s *Service) run(ctx context.Context, key Key, holder string, scheduled bool) (bool, error) {
	if !s.enter(key) {
		return false, nil
	}
	defer s.leave(key)
	now := s.now()
	lease := Lease{Key: key, Holder: holder, Expires: now.Add(s.lease())}
	claimed := false
	err := s.cfg.Store.Update(ctx, func(tx Tx) error {
		claimed = false // a store may run this function again (PostgreSQL retries conflicts)
		var next = now
		switch key.Kind {
		case KindPull:
			m, err := tx.PullMirrorByID(ctx, key.ID)
			if err != nil {
				return err
			}
			next = m.NextUpdate
		case KindPush:
			m, err := tx.PushMirrorByID(ctx, key.ID)
			if err != nil {
				return err
			}
			next = m.NextUpdate
		default:
			return forge.Errorf(forge.ErrInvalid, "mirror: unknown kind %q", key.Kind)
		}
		if scheduled && (next.IsZero() || next.After(now)) {
			return nil
		}
		var err error
		claimed, err = tx.ClaimLease(ctx, lease, now)
		return err
	})
	if err != nil || !claimed {
		if errors.Is(err, forge.ErrNotFound) && scheduled {
			err = nil // deleted since it was queued
		}
		return false, err
	}
	sctx, lost := context.WithCancelCause(ctx)
	stop := s.heartbeat(sctx, lease, lost)
	defer func() {
		stop()
		lost(nil)
		// Release even when ctx is done (shutdown), so that another
		// server may take the mirror at once rather than at expiry.
		bg := context.WithoutCancel(ctx)
		_ = s.cfg.Store.Update(bg, func(tx Tx) error { return tx.ReleaseLease(bg, key, holder) })
	}()
	if key.Kind == KindPull {
		err = s.syncPull(sctx, key.ID, scheduled)
	} else {
		err = s.syncPush(sctx, key.ID)
	}
	if errors.Is(context.Cause(sctx), errLeaseLost) && ctx.Err() == nil {
		s.log.Warn("mirror: sync stopped, its lease was lost", "kind", key.Kind, "id", key.ID)
		return true, forge.Errorf(forge.ErrConflict, "mirror: the sync's lease was lost")
	}
	return true, err
}

// heartbeat renews l every third of the lease until stop is called or
// ctx ends. A renewal that finds the lease held by another (it expired
// and was taken), or that could not be written before the lease ran out,
// calls lost with errLeaseLost.
func (s *Service) heartbeat(ctx context.Context, l Lease, lost context.CancelCauseFunc) (stop func()) {
	done, finished := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(finished)
		expires := l.Expires
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-s.after(s.lease() / 3):
			}
			now := s.now()
			next := Lease{Key: l.Key, Holder: l.Holder, Expires: now.Add(s.lease())}
			var ok bool
			err := s.cfg.Store.Update(ctx, func(tx Tx) error {
				var err error
				ok, err = tx.ClaimLease(ctx, next, now)
				return err
			})
			switch {
			case err == nil && ok:
				expires = next.Expires
			case err == nil || !now.Before(expires):
				lost(errLeaseLost)
				return
			default:
				s.log.Warn("mirror: renewing a lease failed", "kind", l.Key.Kind, "id", l.Key.ID, "error", err)
			}
		}
	}()
	return func() { close(done); <-finished }
}

// enter marks key as syncing in this process; false if it already is.
func (s *Service) enter(k Key) bool {
	s.busyMu.Lock()
	defer s.busyMu.Unlock()
	if s.busy == nil {
		s.busy = map[Key]bool{}
	}
	if s.busy[k] {
		return false
	}
	s.busy[k] = true
	return true
}

func (s *Service) leave(k Key) {
	s.busyMu.Lock()
	delete(s.busy, k)
	s.busyMu.Unlock()
}

// request records that a sync of key was asked for and could not run now
// (another holder's lease, or a sync of it running): the mirror is made
// due — at now, or one second before its due time when it is already due,
// so that a sync running at this moment sees its due time moved (see
// keepRequest) — and the schedulers are woken. The scheduler runs it when
// the lease ends. forge.ErrNotFound if the mirror is gone.
func (s *Service) request(ctx context.Context, key Key) error {
	now := s.now()
	err := s.cfg.Store.Update(ctx, func(tx Tx) error {
		switch key.Kind {
		case KindPull:
			m, err := tx.PullMirrorByID(ctx, key.ID)
			if err != nil {
				return err
			}
			m.NextUpdate = dueNow(m.NextUpdate, now)
			return tx.UpdatePullMirror(ctx, m)
		case KindPush:
			m, err := tx.PushMirrorByID(ctx, key.ID)
			if err != nil {
				return err
			}
			m.NextUpdate = dueNow(m.NextUpdate, now)
			return tx.UpdatePushMirror(ctx, m)
		}
		return forge.Errorf(forge.ErrInvalid, "mirror: unknown kind %q", key.Kind)
	})
	if err == nil {
		s.wake()
	}
	return err
}

// dueNow is the due time that asks for a sync now: now, or one second
// before next when next is already due (a different due time, so that a
// sync running with next sees the request).
func dueNow(next, now time.Time) time.Time {
	if next.IsZero() || next.After(now) {
		return now
	}
	return next.Add(-time.Second)
}

// keepRequest is the due time a finished sync records: scheduled, unless
// a sync was asked for while it ran — the stored due time moved since the
// sync read it (read) to a moment not after now — which then stays due.
func keepRequest(read, stored, now, scheduled time.Time) time.Time {
	if !stored.Equal(read) && !stored.IsZero() && !stored.After(now) {
		return stored
	}
	return scheduled
}

func (s *Service) lease() time.Duration {
	if s.cfg.Lease > 0 {
		return s.cfg.Lease
	}
	return DefaultLease
}

// after is Config.After, or time.After.
func (s *Service) after(d time.Duration) <-chan time.Time {
	if s.cfg.After != nil {
		return s.cfg.After(d)
	}
	return time.After(d)
}

// holder is Config.Holder, or a name made once for this Service.
func (s *Service) holderName() string {
	s.busyMu.Lock()
	defer s.busyMu.Unlock()
	if s.holder == "" {
		s.holder = s.cfg.Holder
		if s.holder == "" {
			s.holder = "server-" + s.newRemoteName()[len("remote_mirror_"):]
		}
	}
	return s.holder
}

// releaseLeases is Ports.ReleaseLeases.
func (s *Service) releaseLeases(ctx context.Context, holder string) (int, error) {
	var n int
	err := s.cfg.Store.Update(ctx, func(tx Tx) error {
		var err error
		n, err = tx.ReleaseLeases(ctx, holder)
		return err
	})
	if err == nil && n > 0 {
		s.log.Info("mirror: released the leases a previous run left", "holder", holder, "leases", n)
		s.wake()
	}
	return n, err
}
