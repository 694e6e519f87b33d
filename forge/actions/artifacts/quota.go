package artifacts

import (
	"context"

	"github.com/hearthforge/hearth/forge"
)

// charge charges n bytes of artifacts to the owner of repo in tx.
func (s *Service) charge(ctx context.Context, tx Tx, repo *forge.Repository, n int64) error {
	return nil
}

// refund gives n bytes of artifacts back to the owner of repo in tx.
func (s *Service) refund(ctx context.Context, tx Tx, repo *forge.Repository, n int64) error {
	return nil
}
