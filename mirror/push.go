package mirror

import (
	"context"
	"strings"
	"time"

	"github.com/hearthforge/hearth/forge"
)

// pushAccess resolves owner/name for a push-mirror route: repository
// administrators only (forge.ErrForbidden), with level on repository
// scope; ErrDisabled when mirrors are off; forge.ErrArchived for writes on
// an archived repository.
func (s *Service) pushAccess(ctx context.Context, actor forge.Actor, owner, name string, level forge.AccessLevel) (*forge.Repository, error) {
	if err := actor.Check(level, forge.CategoryRepository); err != nil {
		return nil, err
	}
	if s.cfg.Disabled {
		return nil, ErrDisabled
	}
	repo, perm, err := s.cfg.Repos.RepoAccess(ctx, actor, owner, name)
	if err != nil {
		return nil, err
	}
	if perm.Mode < forge.AccessModeAdmin {
		return nil, forge.Errorf(forge.ErrForbidden, "user should be an administrator of the repo")
	}
	if level == forge.AccessWrite && repo.Archived {
		return nil, forge.Errorf(forge.ErrArchived, "%s is archived", repo.FullName())
	}
	return repo, nil
}

// PushMirrors lists a repository's push mirrors (read:repository,
// repository administrators) and their number.
func (s *Service) PushMirrors(ctx context.Context, actor forge.Actor, owner, name string, o forge.ListOptions) ([]*PushMirror, int64, error) {
	repo, err := s.pushAccess(ctx, actor, owner, name, forge.AccessRead)
	if err != nil {
		return nil, 0, err
	}
	var out []*PushMirror
	var n int64
	err = s.cfg.Store.View(ctx, func(tx Tx) error {
		var err error
		out, n, err = tx.PushMirrors(ctx, repo.ID, o.Normalize())
		return err
	})
	return out, n, err
}

// PushMirror returns one push mirror by remote name (read:repository,
// repository administrators); forge.ErrNotFound if none.
func (s *Service) PushMirror(ctx context.Context, actor forge.Actor, owner, name, remote string) (*PushMirror, error) {
	repo, err := s.pushAccess(ctx, actor, owner, name, forge.AccessRead)
	if err != nil {
		return nil, err
	}
	var out *PushMirror
	err = s.cfg.Store.View(ctx, func(tx Tx) error {
		var err error
		out, err = tx.PushMirrorByName(ctx, repo.ID, remote)
		return err
	})
	return out, err
}

// AddPushMirror creates a push mirror (write:repository, repository
// administrators, not archived; forge.ErrForbidden under DISABLE_NEW_PUSH).
// The interval is required and follows ParseInterval; the address follows
// ParseRemoteAddress and the Policy; use_ssh with credentials is
// forge.ErrInvalid (`'use_ssh' is mutually exclusive with 'remote_username'
// and 'remote_password'`); use_ssh itself is forge.ErrInvalid `SSH
// authentication not available.` (no key generation yet). Credentials are
// sealed apart from the address; the row returned holds none in clear.
func (s *Service) AddPushMirror(ctx context.Context, actor forge.Actor, owner, name string, o PushMirrorOptions) (*PushMirror, error) {
	repo, err := s.pushAccess(ctx, actor, owner, name, forge.AccessWrite)
	if err != nil {
		return nil, err
	}
	if s.cfg.DisableNewPush {
		return nil, forge.Errorf(forge.ErrForbidden, "the site administrator has disabled the creation of new push mirrors")
	}
	_, min := s.cfg.Intervals()
	interval, err := ParseInterval(o.Interval, min)
	if err != nil {
		return nil, err
	}
	if o.UseSSH {
		if o.RemoteUsername != "" || o.RemotePassword != "" {
			return nil, forge.Errorf(forge.ErrInvalid, "'use_ssh' is mutually exclusive with 'remote_username' and 'remote_password'")
		}
		return nil, forge.Errorf(forge.ErrInvalid, "SSH authentication not available.")
	}
	addr, err := s.checkAddress(ctx, actor, o.RemoteAddress, o.RemoteUsername, o.RemotePassword)
	if err != nil {
		return nil, err
	}
	if addr.Local {
		return nil, forge.Reasonf(forge.ErrInvalid, ErrAddrProtocol, MsgProtocol)
	}
	sealed, err := s.seal(addr.Creds)
	if err != nil {
		return nil, err
	}
	now := s.now()
	m := &PushMirror{RepoID: repo.ID, RemoteName: s.newRemoteName(), RemoteAddress: addr.URL,
		SealedCreds: sealed, SyncOnCommit: o.SyncOnCommit, Interval: interval,
		BranchFilter: strings.TrimSpace(o.BranchFilter), Created: now, NextUpdate: NextUpdate(now, interval)}
	if err := s.cfg.Store.Update(ctx, func(tx Tx) error { return tx.CreatePushMirror(ctx, m) }); err != nil {
		return nil, err
	}
	return m, nil
}

// DeletePushMirror removes a push mirror by remote name (write:repository,
// repository administrators, not archived). A missing name is no error
// (Forgejo answers 204).
func (s *Service) DeletePushMirror(ctx context.Context, actor forge.Actor, owner, name, remote string) error {
	repo, err := s.pushAccess(ctx, actor, owner, name, forge.AccessWrite)
	if err != nil {
		return err
	}
	return s.cfg.Store.Update(ctx, func(tx Tx) error { return tx.DeletePushMirror(ctx, repo.ID, remote) })
}

// SyncPushMirrors pushes to every push mirror of the repository now
// (push_mirrors-sync: write:repository, repository administrators, not
// archived). Each outcome is recorded in the mirror's last_error; the
// first failure is returned, sanitised.
func (s *Service) SyncPushMirrors(ctx context.Context, actor forge.Actor, owner, name string) error {
	repo, err := s.pushAccess(ctx, actor, owner, name, forge.AccessWrite)
	if err != nil {
		return err
	}
	var ms []*PushMirror
	if err := s.cfg.Store.View(ctx, func(tx Tx) error {
		ms, _, err = tx.PushMirrors(ctx, repo.ID, forge.ListOptions{Page: 1, Limit: -1})
		return err
	}); err != nil {
		return err
	}
	var first error
	for _, m := range ms {
		if _, err := s.run(ctx, m.Key(), "manual:"+s.newRemoteName(), false); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// AfterPush is the push listener for sync_on_commit: every push mirror of
// repo with SyncOnCommit is made due now and the schedulers are woken
// (Forgejo queues them). Archived repositories push nowhere. It writes no
// git data, so it needs no permission beyond the push that called it.
func (s *Service) AfterPush(ctx context.Context, repo *forge.Repository) error {
	if s.cfg.Disabled || repo.Archived {
		return nil
	}
	now := s.now()
	err := s.cfg.Store.Update(ctx, func(tx Tx) error {
		ms, _, err := tx.PushMirrors(ctx, repo.ID, forge.ListOptions{Page: 1, Limit: -1})
		if err != nil {
			return err
		}
		for _, m := range ms {
			if m.SyncOnCommit {
				m.NextUpdate = dueAgain(m.NextUpdate, now)
				if err := tx.UpdatePushMirror(ctx, m); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err == nil {
		s.wake()
	}
	return err
}

// dueAgain is the next update of a mirror asked to sync now whose next
// update was next: now, or, when it is due already (a sync may be running
// since), a second earlier than next, so that the running sync, which
// compares the value it started with (stored to the second), sees that it
// was asked again (syncPushOnce).
func dueAgain(next, now time.Time) time.Time {
	if next.IsZero() || next.After(now) {
		return now
	}
	return next.Add(-time.Second)
}

// syncPush pushes one push mirror and records the outcome. A mirror of an
// archived repository is skipped and rescheduled. A sync asked for while
// it ran (sync_on_commit after a later ref move: AfterPush made the mirror
// due again) is not lost: the push may have missed the moved refs, so it
// pushes again under the same lease, a few times at most, and otherwise
// leaves the mirror due for the scheduler.
func (s *Service) syncPush(ctx context.Context, id forge.ID) error {
	for attempt := 1; ; attempt++ {
		again, err := s.syncPushOnce(ctx, id, attempt < maxPushRounds)
		if err != nil || !again {
			return err
		}
	}
}

// maxPushRounds bounds the pushes of one syncPush.
const maxPushRounds = 3

// syncPushOnce is one push of syncPush; it reports whether the mirror was
// made due again while it ran (and, with more, it is left due).
func (s *Service) syncPushOnce(ctx context.Context, id forge.ID, more bool) (again bool, _ error) {
	var m *PushMirror
	if err := s.cfg.Store.View(ctx, func(tx Tx) error {
		var err error
		m, err = tx.PushMirrorByID(ctx, id)
		return err
	}); err != nil {
		return false, err
	}
	repo, err := s.cfg.Repos.RepoByID(ctx, m.RepoID)
	if err != nil {
		return false, err
	}
	skipped := repo.Archived
	var creds Credentials
	if !skipped {
		creds, err = s.unseal(m.SealedCreds)
		if err == nil {
			addr := RemoteAddress{URL: m.RemoteAddress, Creds: creds}
			if err = s.cfg.Policy.CheckAddress(ctx, addr); err == nil {
				pctx, cancel := context.WithTimeout(ctx, s.timeout())
				err = s.cfg.Git.Push(pctx, m.RepoID, s.remote(addr), m.BranchFilter)
				cancel()
			}
		}
	}
	if ctx.Err() != nil {
		// Shutdown, not the remote's fault: nothing is recorded and the
		// mirror stays due for the next scheduler.
		return false, ctx.Err()
	}
	now := s.now()
	serr := s.cfg.Store.Update(ctx, func(tx Tx) error {
		cur, e := tx.PushMirrorByID(ctx, id)
		if e != nil {
			return e
		}
		// Made due again while the push ran: it stays due.
		again = !skipped && !cur.NextUpdate.Equal(m.NextUpdate)
		due := cur.NextUpdate
		switch {
		case skipped:
			cur.NextUpdate = NextUpdate(now, cur.Interval)
		case err != nil:
			cur.Failures++
			cur.LastError = SanitizeMessage(err.Error(), creds.Password, string(creds.PrivateKey))
			cur.NextUpdate = s.retryAt(now, cur.Interval, cur.Failures)
		default:
			cur.Failures, cur.LastError = 0, ""
			cur.LastUpdate, cur.NextUpdate = now, NextUpdate(now, cur.Interval)
		}
		if again {
			cur.NextUpdate = due
		}
		return tx.UpdatePushMirror(ctx, cur)
	})
	if err != nil {
		msg := SanitizeMessage(err.Error(), creds.Password, string(creds.PrivateKey))
		s.log.Warn("mirror: push sync failed", "repo", repo.FullName(), "remote", m.RemoteAddress, "error", msg)
		return false, forge.Errorf(kindOr(err), "%s", msg)
	}
	return again && more && serr == nil, serr
}
