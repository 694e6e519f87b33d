package mirror

import (
	"context"
	"errors"
	"time"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/quota"
)

func (s *Service) remote(a RemoteAddress) Remote {
	return Remote{Address: a, Policy: s.cfg.Policy, MaxSize: s.cfg.MaxSize}
}

// PullMirrorReader reads the pull mirrors of repositories for the
// repository presentation (mirror, mirror_interval, mirror_updated,
// original_url): a trusted port that checks nothing, for the composition
// root, which calls it with repositories the actor has been found to see
// (repos.Service.PresentAll). The rows hold no clear credential.
type PullMirrorReader struct{ store Store }

// NewPullMirrorReader returns the PullMirrorReader of store.
func NewPullMirrorReader(store Store) PullMirrorReader { return PullMirrorReader{store: store} }

// PullMirrors returns the pull mirrors of the repositories of repoIDs
// that are mirrors, in one read transaction. Never nil.
func (r PullMirrorReader) PullMirrors(ctx context.Context, repoIDs []forge.ID) (map[forge.ID]*PullMirror, error) {
	var out map[forge.ID]*PullMirror
	err := r.store.View(ctx, func(tx Tx) error {
		var err error
		out, err = tx.PullMirrorsByRepo(ctx, repoIDs)
		return err
	})
	return out, err
}

// EditPullMirror applies the mirror fields of EditRepoOption to owner/name:
// each field alone; on a repository that is not a pull mirror both are
// silently ignored, even an unparsable interval (Forgejo). The actor must
// be a repository administrator (forge.ErrForbidden) with
// write:repository. A new interval reschedules the next sync to now +
// interval (ParseInterval's errors).
func (s *Service) EditPullMirror(ctx context.Context, actor forge.Actor, owner, name string, e PullEdit) error {
	if err := actor.Check(forge.AccessWrite, forge.CategoryRepository); err != nil {
		return err
	}
	repo, perm, err := s.cfg.Repos.RepoAccess(ctx, actor, owner, name)
	if err != nil {
		return err
	}
	if perm.Mode < forge.AccessModeAdmin {
		return forge.Errorf(forge.ErrForbidden, "user should be an administrator of the repo")
	}
	if e.Interval == nil && e.EnablePrune == nil {
		return nil
	}
	_, min := s.cfg.Intervals()
	now := s.now()
	return s.cfg.Store.Update(ctx, func(tx Tx) error {
		m, err := tx.PullMirrorByRepo(ctx, repo.ID)
		if errors.Is(err, forge.ErrNotFound) {
			return nil
		} else if err != nil {
			return err
		}
		if e.Interval != nil {
			d, err := ParseInterval(*e.Interval, min)
			if err != nil {
				return err
			}
			m.Interval, m.NextUpdate = d, NextUpdate(now, d)
		}
		if e.EnablePrune != nil {
			m.EnablePrune = *e.EnablePrune
		}
		return tx.UpdatePullMirror(ctx, m)
	})
}

// SyncNow is POST mirror-sync: the actor must be able to write to the
// repository (forge.ErrForbidden) with write:repository; ErrDisabled when
// mirrors are off; ErrNotMirror if it is not a pull mirror. It syncs at
// once; when it can't — another server holds its lease (a sync running
// there, or the lease of a server that died, which lasts at most
// Config.Lease), or this server is syncing it — the sync is queued: the
// mirror is made due now and a scheduler runs it when the lease ends (a
// sync running at that moment leaves it due). The sync's own failure is
// recorded in last_error and not returned, as Forgejo queues it.
func (s *Service) SyncNow(ctx context.Context, actor forge.Actor, owner, name string) error {
	if err := actor.Check(forge.AccessWrite, forge.CategoryRepository); err != nil {
		return err
	}
	if s.cfg.Disabled {
		return ErrDisabled
	}
	repo, perm, err := s.cfg.Repos.RepoAccess(ctx, actor, owner, name)
	if err != nil {
		return err
	}
	if perm.Unit(forge.UnitCode) < forge.AccessModeWrite {
		return forge.Errorf(forge.ErrForbidden, "user should have a permission to write to a repo")
	}
	// Forgejo's EnforceQuotaAPI(size:git:all) runs before the handler.
	if s.cfg.Quota != nil {
		if err := s.cfg.Quota.CheckGitQuota(ctx, repo); err != nil {
			return err
		}
	}
	var key Key
	err = s.cfg.Store.View(ctx, func(tx Tx) error {
		m, err := tx.PullMirrorByRepo(ctx, repo.ID)
		if errors.Is(err, forge.ErrNotFound) {
			return ErrNotMirror
		}
		if err == nil {
			key = m.Key()
		}
		return err
	})
	if err != nil {
		return err
	}
	ran, err := s.run(ctx, key, s.holderName(), false)
	if err != nil && ctx.Err() != nil {
		return ctx.Err()
	}
	if !ran && err == nil {
		// Another server's lease (or this server's running sync) holds the
		// mirror: the sync asked for is queued, not dropped.
		return s.request(ctx, key)
	}
	return nil // a failed sync is in last_error, as Forgejo's queued sync
}

// Convert turns a pull mirror into a normal repository (POST convert):
// the mirror row and its schedule go, the git data stays. The
// repository's owners only (owner mode: its owner, an owner of its
// organisation, a site administrator; an admin collaborator gets
// forge.ErrForbidden, as Forgejo's reqOwner), write:repository;
// ErrNotMirror if it is not a mirror.
func (s *Service) Convert(ctx context.Context, actor forge.Actor, owner, name string) error {
	if err := actor.Check(forge.AccessWrite, forge.CategoryRepository); err != nil {
		return err
	}
	repo, perm, err := s.cfg.Repos.RepoAccess(ctx, actor, owner, name)
	if err != nil {
		return err
	}
	if perm.Mode < forge.AccessModeOwner { // Forgejo's reqOwner: an admin collaborator may not
		return forge.Errorf(forge.ErrForbidden, "user should be the owner of the repo")
	}
	return s.cfg.Store.Update(ctx, func(tx Tx) error {
		err := tx.DeletePullMirror(ctx, repo.ID)
		if errors.Is(err, forge.ErrNotFound) {
			return ErrNotMirror
		}
		return err
	})
}

// syncPull fetches a pull mirror and records the outcome; it returns the
// sync's error (already recorded and logged). A scheduled sync of an
// owner over its size:repos:all quota is skipped (overQuota).
func (s *Service) syncPull(ctx context.Context, id forge.ID, scheduled bool) error {
	var m *PullMirror
	if err := s.cfg.Store.View(ctx, func(tx Tx) error {
		var err error
		m, err = tx.PullMirrorByID(ctx, id)
		return err
	}); err != nil {
		return err
	}
	repo, err := s.cfg.Repos.RepoByID(ctx, m.RepoID)
	if err != nil {
		return err
	}
	if scheduled {
		if skip, err := s.overQuota(ctx, repo, id); skip || err != nil {
			return err
		}
	}
	creds, err := s.unseal(m.SealedCreds)
	var updates []RefUpdate
	if err == nil {
		addr := RemoteAddress{URL: m.RemoteAddress, Creds: creds}
		if err = s.cfg.Policy.CheckAddress(ctx, addr); err == nil {
			fctx, cancel := context.WithTimeout(ctx, s.timeout())
			updates, err = s.cfg.Git.Fetch(fctx, m.RepoID, s.remote(addr), m.EnablePrune)
			cancel()
		}
	}
	if ctx.Err() != nil {
		// Shutdown, not the remote's fault: nothing is recorded and the
		// mirror stays due for the next scheduler.
		return ctx.Err()
	}
	now := s.now()
	serr := s.cfg.Store.Update(ctx, func(tx Tx) error {
		cur, e := tx.PullMirrorByID(ctx, id) // re-read: an edit during the sync is kept
		if e != nil {
			return e
		}
		if err != nil {
			cur.Failures++
			cur.LastError = SanitizeMessage(err.Error(), creds.Password, string(creds.PrivateKey))
			cur.NextUpdate = keepRequest(m.NextUpdate, cur.NextUpdate, now, s.retryAt(now, cur.Interval, cur.Failures))
		} else {
			cur.Failures, cur.LastError = 0, ""
			cur.Updated, cur.NextUpdate = now, keepRequest(m.NextUpdate, cur.NextUpdate, now, NextUpdate(now, cur.Interval))
		}
		return tx.UpdatePullMirror(ctx, cur)
	})
	if err != nil {
		msg := SanitizeMessage(err.Error(), creds.Password, string(creds.PrivateKey))
		s.log.Warn("mirror: pull sync failed", "repo", repo.FullName(), "remote", m.RemoteAddress, "error", msg)
		return forge.Errorf(kindOr(err), "%s", msg)
	}
	if serr != nil {
		return serr
	}
	if err := s.cfg.Repos.Refresh(ctx, repo.ID, updates); err != nil {
		return err
	}
	if len(updates) > 0 {
		for _, l := range s.cfg.Listeners {
			l.AfterSync(ctx, repo, updates)
		}
	}
	return nil
}

// retryAt is when a failed mirror is tried again: the back-off, or never
// on schedule when its interval is 0.
func (s *Service) retryAt(now time.Time, interval time.Duration, failures int) time.Time {
	if interval <= 0 {
		return time.Time{}
	}
	ceiling := s.cfg.RetryMax
	if ceiling <= 0 {
		ceiling = interval
	}
	return now.Add(Backoff(failures, s.cfg.RetryBase, ceiling))
}

// overQuota is Forgejo's check before a scheduled pull-mirror sync
// (services/mirror/mirror.go): when Config.Quota is a ReposQuota that
// refuses the owner's size:repos:all, the sync is skipped silently — no
// error, last_error and the failure count untouched, a log line at Info
// — and the next one is scheduled at now + interval, so that the
// scheduler does not pick the mirror up again at once. It reports whether
// it skipped.
func (s *Service) overQuota(ctx context.Context, repo *forge.Repository, id forge.ID) (bool, error) {
	q, ok := s.cfg.Quota.(ReposQuota)
	if !ok {
		return false, nil
	}
	qerr := q.CheckReposQuota(ctx, repo)
	if qerr == nil {
		return false, nil
	}
	if !errors.Is(qerr, quota.ErrExceeded) {
		return false, qerr
	}
	now := s.now()
	err := s.cfg.Store.Update(ctx, func(tx Tx) error {
		cur, err := tx.PullMirrorByID(ctx, id)
		if err != nil {
			return err
		}
		cur.NextUpdate = NextUpdate(now, cur.Interval)
		return tx.UpdatePullMirror(ctx, cur)
	})
	if err != nil {
		return false, err
	}
	s.log.Info("mirror: scheduled sync skipped, the owner is over quota", "repo", repo.FullName(), "error", qerr.Error())
	return true, nil
}
