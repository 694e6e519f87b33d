package repos

import (
	"cmp"
	"context"
	"slices"

	"github.com/hearthforge/hearth/forge"
)

// ViewsByID returns the actor's views of the repositories of ids that
// exist, are ready and that it may see (forge.Permission.HasAccess), by
// ID, in one read transaction of a fixed number of queries whatever the
// number of ids. Owners are redacted for the actor. It checks the
// actor's account state (forge.Actor.CheckState's error) but no token
// scope: it is for services of other scopes (notifications) that list
// repositories they have already authorised.
func (s *Service) ViewsByID(ctx context.Context, actor forge.Actor, ids []forge.ID) (map[forge.ID]*View, error) {
	if err := actor.CheckState(); err != nil {
		return nil, err
	}
	out := make(map[forge.ID]*View, len(ids))
	err := s.store.View(ctx, func(tx Tx) error {
		found, err := tx.ReposByID(ctx, ids)
		if err != nil {
			return err
		}
		list := make([]*forge.Repository, 0, len(found))
		for _, r := range found {
			if r.Status == forge.RepoReady {
				list = append(list, r)
			}
		}
		slices.SortFunc(list, func(a, b *forge.Repository) int { return cmp.Compare(a.ID, b.ID) })
		views, err := viewsOf(ctx, tx, actor, list)
		if err != nil {
			return err
		}
		for _, v := range views {
			if v.Perm.HasAccess() {
				v.Owner = v.Owner.VisibleTo(actor)
				out[v.Repo.ID] = v
			}
		}
		return nil
	})
	return out, err
}

// PermissionsByID returns the actor's permission on each repository of ids
// that exists and is ready, by ID (ViewsByID's permissions, including
// none). It checks no token scope and no account state: notify asks it for
// the users it may notify.
func (s *Service) PermissionsByID(ctx context.Context, actor forge.Actor, ids []forge.ID) (map[forge.ID]forge.Permission, error) {
	out := make(map[forge.ID]forge.Permission, len(ids))
	err := s.store.View(ctx, func(tx Tx) error {
		found, err := tx.ReposByID(ctx, ids)
		if err != nil {
			return err
		}
		list := make([]*forge.Repository, 0, len(found))
		for _, r := range found {
			if r.Status == forge.RepoReady {
				list = append(list, r)
			}
		}
		views, err := viewsOf(ctx, tx, actor, list)
		if err != nil {
			return err
		}
		for _, v := range views {
			out[v.Repo.ID] = v.Perm
		}
		return nil
	})
	return out, err
}
