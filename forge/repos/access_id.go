package repos

import (
	"context"
	"errors"

	"github.com/hearthforge/hearth/forge"
)

// RepoAccessByID is RepoAccess for the repository of that id: other
// domains use it for the repositories their records name by id (the
// source of an issue's cross-reference). It checks no token scope.
// Repositories that do not exist or that the actor may not see are
// ErrRepoNotFound alike.
func (s *Service) RepoAccessByID(ctx context.Context, actor forge.Actor, id forge.ID) (*forge.Repository, forge.Permission, error) {
	var v *View
	err := s.store.View(ctx, func(tx Tx) error {
		r, err := tx.RepoByID(ctx, id)
		if errors.Is(err, forge.ErrNotFound) {
			return ErrRepoNotFound
		} else if err != nil {
			return err
		}
		owner, err := tx.UserByID(ctx, r.OwnerID)
		if errors.Is(err, forge.ErrNotFound) {
			return ErrRepoNotFound
		} else if err != nil {
			return err
		}
		v, err = resolve(ctx, tx, actor, owner.Name, r.Name)
		return err
	})
	if err != nil {
		return nil, forge.Permission{}, err
	}
	return v.Repo, v.Perm, nil
}
