package repos

import (
	"context"
)

// refreshed is refresh (the repository's cached size, emptiness, default
// branch and update time after a write) that then returns v with the
// repository as stored, so a write returns the state after it, not the one
// read before. v itself is not changed.
func (s *Service) refreshed(ctx context.Context, v *View) (*View, error) {
	if err := s.refresh(ctx, v.Repo.ID); err != nil {
		return v, err
	}
	return s.reloaded(ctx, v)
}

// reloaded returns v with the repository as stored now (after a write that
// refreshed it). v itself is not changed.
func (s *Service) reloaded(ctx context.Context, v *View) (*View, error) {
	out := *v
	err := s.store.View(ctx, func(tx Tx) error {
		r, err := tx.RepoByID(ctx, v.Repo.ID)
		if err != nil {
			return err
		}
		r.OwnerName = v.Owner.Name // as load sets it
		out.Repo = r
		return nil
	})
	if err != nil {
		return v, err
	}
	return &out, nil
}
