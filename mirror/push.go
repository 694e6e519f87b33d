package mirror

import (
	"context"
	"strings"

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
// first failure is returned, sanitised. A mirror another server holds (or
// this one is pushing) is queued as SyncNow's.
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
		ran, err := s.run(ctx, m.Key(), s.holderName(), false)
		if !ran && err == nil {
			err = s.request(ctx, m.Key()) // leased: queued, not dropped
		}
		if err != nil && first == nil {
			first = err
		}
	}
	return first
}

// syncPush pushes one push mirror and records the outcome. A mirror of an
// archived repository is skipped and rescheduled.
func (s *Service) syncPush(ctx context.Context, id forge.ID) error {
	var m *PushMirror
	if err := s.cfg.Store.View(ctx, func(tx Tx) error {
		var err error
		m, err = tx.PushMirrorByID(ctx, id)
		return err
	}); err != nil {
		return err
	}
	repo, err := s.cfg.Repos.RepoByID(ctx, m.RepoID)
	if err != nil {
		return err
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
		return ctx.Err()
	}
	now := s.now()
	serr := s.cfg.Store.Update(ctx, func(tx Tx) error {
		cur, e := tx.PushMirrorByID(ctx, id)
		if e != nil {
			return e
		}
		switch {
		case skipped:
			cur.NextUpdate = NextUpdate(now, cur.Interval)
		case err != nil:
			cur.Failures++
			cur.LastError = SanitizeMessage(err.Error(), creds.Password, string(creds.PrivateKey))
			cur.NextUpdate = keepRequest(m.NextUpdate, cur.NextUpdate, now, s.retryAt(now, cur.Interval, cur.Failures))
		default:
			cur.Failures, cur.LastError = 0, ""
			cur.LastUpdate, cur.NextUpdate = now, keepRequest(m.NextUpdate, cur.NextUpdate, now, NextUpdate(now, cur.Interval))
		}
		return tx.UpdatePushMirror(ctx, cur)
	})
	if err != nil {
		msg := SanitizeMessage(err.Error(), creds.Password, string(creds.PrivateKey))
		s.log.Warn("mirror: push sync failed", "repo", repo.FullName(), "remote", m.RemoteAddress, "error", msg)
		return forge.Errorf(kindOr(err), "%s", msg)
	}
	return serr
}
