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
					if p, err = visibleByID(ctx, tx, actor, id); err != nil {
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

// visibleByID is loadByID without the error for a repository that is gone
// or that the actor may not see: nil then.
func visibleByID(ctx context.Context, tx Tx, actor forge.Actor, id forge.ID) (*View, error) {
	v, err := loadByID(ctx, tx, actor, id)
	if errors.Is(err, forge.ErrNotFound) {
		return nil, nil
	}
	return v, err
}
