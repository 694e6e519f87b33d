package repos

import (
	"context"
	"errors"

	"github.com/hearthforge/hearth/forge"
)

// Related is what the API form of a repository shows beyond the repository
// and its owner: the repository a fork was made from, as the actor sees it
// (nil when it is not a fork, or the parent is gone or invisible to the
// actor), and its pending transfer (nil if none).
type Related struct {
	Parent   *View
	Transfer *Transfer
}

// RelatedOf loads Related for every view, by repository ID, in one read
// transaction, so that a page of repositories costs a fixed number of
// transactions whatever its length. Parents are loaded once each. Errors
// are the store's.
func (s *Service) RelatedOf(ctx context.Context, actor forge.Actor, views []*View) (map[forge.ID]Related, error) {
	out := make(map[forge.ID]Related, len(views))
	if len(views) == 0 {
		return out, nil
	}
	err := s.store.View(ctx, func(tx Tx) error {
		parents := map[forge.ID]*View{}
		for _, v := range views {
			var rel Related
			var err error
			if rel.Transfer, err = loadTransfer(ctx, tx, v.Repo.ID); err != nil {
				return err
			}
			if id := v.Repo.ForkID; id != 0 {
				p, seen := parents[id]
				if !seen {
					if p, err = loadByID(ctx, tx, actor, id); err != nil {
						return err
					}
					parents[id] = p
				}
				rel.Parent = p
			}
			out[v.Repo.ID] = rel
		}
		return nil
	})
	return out, err
}

// loadByID is load by repository ID: nil, without error, when the
// repository is gone or the actor may not see it.
func loadByID(ctx context.Context, tx Tx, actor forge.Actor, id forge.ID) (*View, error) {
	r, err := tx.RepoByID(ctx, id)
	if errors.Is(err, forge.ErrNotFound) {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	u, err := tx.UserByID(ctx, r.OwnerID)
	if errors.Is(err, forge.ErrNotFound) {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	r.OwnerName = u.Name
	collab := forge.AccessNone
	if actor.IsSignedIn() {
		if collab, err = tx.CollaboratorMode(ctx, r.ID, actor.User.ID); err != nil {
			return nil, err
		}
	}
	v := &View{Repo: r, Owner: u, Perm: Permission(actor, r, u, collab)}
	if !v.CanRead() {
		return nil, nil
	}
	return v, nil
}
