package artifacts

import (
	"context"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/quota"
)

// charge charges n bytes of artifacts to the owner of repo in tx
// (size:assets:artifacts).
func (s *Service) charge(ctx context.Context, tx Tx, repo *forge.Repository, n int64) error {
	return quota.Charge(ctx, tx, s.cfg.Quota, quota.RepoOwner(repo), quota.SubjectArtifacts, quota.BucketArtifacts, n)
}

// refund gives n bytes of artifacts back to the owner of repo in tx.
func (s *Service) refund(ctx context.Context, tx Tx, repo *forge.Repository, n int64) error {
	return quota.Charge(ctx, tx, s.cfg.Quota, quota.RepoOwner(repo), quota.SubjectArtifacts, quota.BucketArtifacts, -n)
}
