package repos

import (
	"context"

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

// checkOwnerQuota checks size:repos:all for a new repository of owner
// (creation, fork, transfer), in tx.
func (s *Service) checkOwnerQuota(ctx context.Context, tx Tx, owner *forge.User, private bool) error {
	return quota.Check(ctx, tx, s.cfg.Quota, quota.OwnerOf(owner), quota.SubjectReposAll, quota.RepoBucket(private), 0)
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

// CheckGitQuota is Forgejo's EnforceQuotaAPI(size:git:all) for the owner
// of r, for the git writes of other domains (mirror sync): nil when quota
// is disabled or allows it, else a *quota.ExceededError naming the owner.
func (s *Service) CheckGitQuota(ctx context.Context, r *forge.Repository) error {
	return s.checkQuota(ctx, r, quota.SubjectGitAll)
}

// CheckReposQuota is the size:repos:all check of the owner of r for the
// git writes of other domains (a scheduled pull-mirror sync is skipped
// when it refuses): nil when quota is disabled or allows it, else a
// *quota.ExceededError naming the owner.
func (s *Service) CheckReposQuota(ctx context.Context, r *forge.Repository) error {
	return s.checkQuota(ctx, r, quota.SubjectReposAll)
}
