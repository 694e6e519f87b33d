package repos

import (
	"context"
	"errors"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/quota"
)

// The quota enforcement points of repositories (spec/quota.md §7): a write
// that would grow what the owner stores asks quota first, inside a
// transaction, and is refused with a *quota.ExceededError naming the
// owner. The usage itself is the repositories' Size (refreshed after git
// changes) and the release attachment rows.

// checkQuota is Forgejo's check of subject for the owner of r (delta 0):
// the writes of git (branches, tags, releases, contents) whose size is
// known only once written.
func (s *Service) checkQuota(ctx context.Context, r *forge.Repository, subject quota.Subject) error {
	if !s.cfg.Quota.Enabled {
		return nil
	}
	return s.store.View(ctx, func(tx Tx) error {
		return quota.Check(ctx, tx, s.cfg.Quota, quota.RepoOwner(r), subject, quota.RepoBucket(r.Private), 0)
	})
}

// checkOwnerQuota checks size:repos:all for a repository of size bytes
// that owner is about to own (creation and migration: 0, the size is
// not known yet; a fork: its parent's size, which the fork's row carries
// from its insert; a transfer: the repository's size), in tx: the
// transaction that writes the row that makes the bytes the owner's, so
// two of them cannot both pass a check their sum fails (see
// quota.Reserve on why write transactions of one owner serialize).
func (s *Service) checkOwnerQuota(ctx context.Context, tx Tx, owner *forge.User, private bool, size int64) error {
	return quota.Check(ctx, tx, s.cfg.Quota, quota.OwnerOf(owner), quota.SubjectReposAll, quota.RepoBucket(private), size)
}

// reserveQuota reserves n bytes of the quota of r's owner for a git write
// into r whose size is measured after it lands (size:repos:all, the
// repository's bucket): the reservation's id, 0 when quota is disabled; a
// *quota.ExceededError when n bytes do not fit beside the usage and the
// reservations held. The caller releases it (releaseQuota) after the
// size was refreshed, or at once when the write failed.
func (s *Service) reserveQuota(ctx context.Context, r *forge.Repository, n int64) (forge.ID, error) {
	if !s.cfg.Quota.Enabled {
		return 0, nil
	}
	var id forge.ID
	err := s.store.Update(ctx, func(tx Tx) (err error) {
		id, err = quota.Reserve(ctx, tx, s.cfg.Quota, quota.RepoOwner(r), quota.SubjectReposAll,
			quota.RepoBucket(r.Private), n, s.clock.Now(), quota.ReservationTTL)
		return err
	})
	return id, err
}

// releaseQuota releases reservation id (0: none). A reservation already
// gone (swept, or its repository deleted) is no error; another failure is
// logged: the reservation then expires.
func (s *Service) releaseQuota(ctx context.Context, id forge.ID) {
	if id == 0 {
		return
	}
	err := s.store.Update(ctx, func(tx Tx) error { return tx.ReleaseReservation(ctx, id) })
	if err != nil && !errors.Is(err, forge.ErrNotFound) {
		s.log.ErrorContext(ctx, "release quota reservation", "reservation", id, "err", err)
	}
}

// gitEstimate is what n bytes of objects (a pack, or files a commit
// writes, files of them) are reserved as: n plus what git adds around
// them once they land (zlib framing, the pack's index, trees and the
// commit, references, the commit-graph). An estimate above the measured
// size only holds a little too much while the write is in progress.
func gitEstimate(n int64, files int) int64 {
	return n + n/64 + 4096*int64(files+1)
}

// contentsEstimate is the reservation of a contents commit of ops: the
// files it writes with git's overhead; 0 for a commit that only deletes
// or moves files (it is checked as Forgejo checks it: allowed while the
// owner is below the limit).
func contentsEstimate(ops []FileOp) int64 {
	var n int64
	files := 0
	for _, op := range ops {
		if op.Op != "delete" && (len(op.Content) > 0 || op.FromPath == "") {
			n += int64(len(op.Content))
			files++
		}
	}
	if files == 0 {
		return 0
	}
	return gitEstimate(n, files)
}

// pushAllowance is how many bytes a push of updates to r may bring:
// -1 when quota does not limit it (disabled, or the push only deletes
// references), or a *quota.ExceededError when the owner may not push at
// all (Forgejo's pre-receive check of size:repos:all, deletions always
// allowed).
func (s *Service) pushAllowance(ctx context.Context, r *forge.Repository, updates []RefUpdate) (int64, error) {
	grows := false
	for _, u := range updates {
		grows = grows || !isZeroID(u.NewID)
	}
	if !s.cfg.Quota.Enabled || !grows {
		return -1, nil
	}
	var allow int64
	err := s.store.View(ctx, func(tx Tx) error {
		owner := quota.RepoOwner(r)
		groups, _, err := quota.GroupsFor(ctx, tx, s.cfg.Quota, owner.ID)
		if err != nil {
			return err
		}
		used, err := tx.Usage(ctx, owner.ID)
		if err != nil {
			return err
		}
		var ok bool
		allow, ok = quota.Allowance(s.cfg.Quota, groups, used, quota.SubjectReposAll, quota.RepoBucket(r.Private))
		if !ok {
			return &quota.ExceededError{UserID: owner.ID, Username: owner.Name, Subject: quota.SubjectReposAll}
		}
		return nil
	})
	return allow, err
}

type pushAllowanceKey struct{}

// WithPushAllowance returns ctx carrying the PushPlan's QuotaAllowance for
// the git transport serving the push (storage/gitstore refuses a pack
// larger than it before any reference moves). n < 0: no limit.
func WithPushAllowance(ctx context.Context, n int64) context.Context {
	return context.WithValue(ctx, pushAllowanceKey{}, n)
}

// PushAllowance returns what WithPushAllowance put in ctx; ok is false
// (no limit) when nothing or a negative value was put.
func PushAllowance(ctx context.Context) (n int64, ok bool) {
	n, ok = ctx.Value(pushAllowanceKey{}).(int64)
	return n, ok && n >= 0
}

// PushReserver is how a git transport asks for quota at a push's
// pre-receive step, when the size n of the objects the push brought is
// known and no reference has moved: an error refuses the push (with
// Forgejo's "Quota exceeded"). The host builds it from Ports.ReservePush.
type PushReserver func(ctx context.Context, n int64) error

type pushReserverKey struct{}

// WithPushReserver returns ctx carrying f for the git transport serving
// the push.
func WithPushReserver(ctx context.Context, f PushReserver) context.Context {
	return context.WithValue(ctx, pushReserverKey{}, f)
}

// PushReserverOf returns what WithPushReserver put in ctx, nil if none
// (the push reserves nothing).
func PushReserverOf(ctx context.Context) PushReserver {
	f, _ := ctx.Value(pushReserverKey{}).(PushReserver)
	return f
}
