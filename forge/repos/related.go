package repos

import (
	"context"

	"github.com/hearthforge/hearth/forge"
)

// Related is what the API form of a repository shows beyond the repository
// and its owner: the repository a fork was made from, as the actor sees it
// (nil when it is not a fork, or the parent is gone, being created or
// deleted, or invisible to the actor), and its pending transfer (nil if
// none).
type Related struct {
	Parent   *View
	Transfer *Transfer
}

// RelatedOf loads Related for every view, by repository ID, in one read
// transaction of four store queries whatever the number of views (the
// pending transfers, the parents, the users they name, the actor's
// collaborator modes on the parents). Parents are shown as the actor may
// read them (Permission); with a credential that does not grant
// read:repository, none is. Errors are the store's.
func (s *Service) RelatedOf(ctx context.Context, actor forge.Actor, views []*View) (map[forge.ID]Related, error) {
	out := make(map[forge.ID]Related, len(views))
	if len(views) == 0 {
		return out, nil
	}
	ids, parentIDs := make([]forge.ID, 0, len(views)), []forge.ID{}
	for _, v := range views {
		ids = append(ids, v.Repo.ID)
		if v.Repo.ForkID != 0 {
			parentIDs = append(parentIDs, v.Repo.ForkID)
		}
	}
	err := s.store.View(ctx, func(tx Tx) error {
		transfers, err := tx.Transfers(ctx, ids)
		if err != nil {
			return err
		}
		found, err := tx.ReposByID(ctx, parentIDs)
		if err != nil {
			return err
		}
		var parents []*forge.Repository
		for _, p := range found {
			if p.Status == forge.RepoReady {
				parents = append(parents, p)
			}
		}
		userIDs := ownerIDs(parents)
		for _, t := range transfers {
			userIDs = append(userIDs, t.Doer.ID, t.Recipient.ID)
		}
		users, err := tx.UsersByID(ctx, userIDs)
		if err != nil {
			return err
		}
		modes, err := collaboratorModes(ctx, tx, actor, parents)
		if err != nil {
			return err
		}
		pviews, err := viewsWith(actor, parents, users, modes)
		if err != nil {
			return err
		}
		readable := actor.Check(forge.AccessRead, forge.CategoryRepository) == nil
		byID := map[forge.ID]*View{}
		for _, p := range pviews {
			if readable && p.CanRead() {
				byID[p.Repo.ID] = p
			}
		}
		for _, v := range views {
			rel := Related{Parent: byID[v.Repo.ForkID]}
			if t := transfers[v.Repo.ID]; t != nil {
				if t.Doer, t.Recipient = users[t.Doer.ID], users[t.Recipient.ID]; t.Doer == nil || t.Recipient == nil {
					return forge.Errorf(forge.ErrNotFound, "repos: transfer of repository %d names a missing user", v.Repo.ID)
				}
				rel.Transfer = t
			}
			out[v.Repo.ID] = rel
		}
		return nil
	})
	return out, err
}
