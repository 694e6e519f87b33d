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
	v, err := s.resolveViewByID(ctx, actor, id)
	if err != nil {
		return nil, forge.Permission{}, err
	}
	return v.Repo, v.Perm, nil
}

// resolveViewByID is resolveByID in a read transaction of its own.
func (s *Service) resolveViewByID(ctx context.Context, actor forge.Actor, id forge.ID) (*View, error) {
	var v *View
	err := s.store.View(ctx, func(tx Tx) error {
		var err error
		v, err = resolveByID(ctx, tx, actor, id)
		return err
	})
	return v, err
}

// resolveByID is resolve for the repository of that id, inside tx:
// ErrRepoNotFound for a missing repository and an invisible one alike.
func resolveByID(ctx context.Context, tx Tx, actor forge.Actor, id forge.ID) (*View, error) {
	r, err := tx.RepoByID(ctx, id)
	if errors.Is(err, forge.ErrNotFound) {
		return nil, ErrRepoNotFound
	} else if err != nil {
		return nil, err
	}
	owner, err := tx.UserByID(ctx, r.OwnerID)
	if errors.Is(err, forge.ErrNotFound) {
		return nil, ErrRepoNotFound
	} else if err != nil {
		return nil, err
	}
	return resolve(ctx, tx, actor, owner.Name, r.Name)
}
