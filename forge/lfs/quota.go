package lfs

import (
	"context"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/quota"
)

// checkQuota asks whether the owner of repo may grow by n bytes of LFS
// objects (size:git:lfs), changing nothing: a *quota.ExceededError if not.
func (s *Service) checkQuota(ctx context.Context, repo *forge.Repository, n int64) error {
	return s.cfg.Store.View(ctx, func(tx Tx) error {
		return quota.Check(ctx, tx, s.cfg.Quota, quota.RepoOwner(repo), quota.SubjectGitLFS, quota.BucketLFS, n)
	})
}

// charge charges n bytes of LFS objects to the owner of repo in tx.
func (s *Service) charge(ctx context.Context, tx Tx, repo *forge.Repository, n int64) error {
	return quota.Charge(ctx, tx, s.cfg.Quota, quota.RepoOwner(repo), quota.SubjectGitLFS, quota.BucketLFS, n)
}

// refund gives n bytes of LFS objects back to the owner of repo in tx.
func (s *Service) refund(ctx context.Context, tx Tx, repo *forge.Repository, n int64) error {
	return quota.Charge(ctx, tx, s.cfg.Quota, quota.RepoOwner(repo), quota.SubjectGitLFS, quota.BucketLFS, -n)
}
