package packages

import (
	"context"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/quota"
)

// Package files are charged to the package owner's own counter (RepoID 0):
// a package may only be linked to a repository of its owner, so the owner
// who pays is the same either way, and linking moves no usage.

// charge charges n bytes of package files to owner in tx
// (size:assets:packages:all).
func (s *Service) charge(ctx context.Context, tx Tx, owner *forge.User, n int64) error {
	return quota.Charge(ctx, tx, s.cfg.Quota, quota.OwnerOf(owner), quota.SubjectPackagesAll, quota.BucketPackages, n)
}

// refund gives n bytes of package files back to owner in tx.
func (s *Service) refund(ctx context.Context, tx Tx, owner *forge.User, n int64) error {
	return quota.Charge(ctx, tx, s.cfg.Quota, quota.OwnerOf(owner), quota.SubjectPackagesAll, quota.BucketPackages, -n)
}
