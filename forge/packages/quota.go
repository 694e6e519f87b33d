package packages

import (
	"context"

	"github.com/hearthforge/hearth/forge"
)

// charge charges n bytes of package files to owner in tx.
func (s *Service) charge(ctx context.Context, tx Tx, owner *forge.User, n int64) error {
	return nil
}

// refund gives n bytes of package files back to owner in tx.
func (s *Service) refund(ctx context.Context, tx Tx, owner *forge.User, n int64) error {
	return nil
}
