package lfs

import (
	"context"

	"github.com/hearthforge/hearth/forge"
)

// checkQuota asks whether the owner of repo may grow by n bytes of LFS
// objects, changing nothing.
func (s *Service) checkQuota(ctx context.Context, repo *forge.Repository, n int64) error {
	return nil
}

// charge charges n bytes of LFS objects to the owner of repo in tx.
func (s *Service) charge(ctx context.Context, tx Tx, repo *forge.Repository, n int64) error {
	return nil
}

// refund gives n bytes of LFS objects back to the owner of repo in tx.
func (s *Service) refund(ctx context.Context, tx Tx, repo *forge.Repository, n int64) error {
	return nil
}
