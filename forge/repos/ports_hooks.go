package repos

import (
	"context"
	"errors"

	"github.com/hearthforge/hearth/forge"
)

// RepoByID returns repository id with its owner's name, whoever asks (the
// head repository of a pull request, which Forgejo's webhook payloads show
// even when the event's actor may not see it); forge.ErrNotFound if none.
func (p *Ports) RepoByID(ctx context.Context, id forge.ID) (*forge.Repository, error) {
	var r *forge.Repository
	err := p.s.store.View(ctx, func(tx Tx) error {
		var err error
		if r, err = tx.RepoByID(ctx, id); err != nil {
			return err
		}
		u, err := tx.UserByID(ctx, r.OwnerID)
		if err != nil {
			return err
		}
		r.OwnerName = u.Name
		return nil
	})
	return r, err
}

// UsersByID returns the accounts of ids that exist, by id, in full (not
// redacted: the caller converts them for their reader), in one read
// transaction: the users webhook payloads show (owners, posters,
// reviewers). Never nil.
func (p *Ports) UsersByID(ctx context.Context, ids []forge.ID) (map[forge.ID]*forge.User, error) {
	out := make(map[forge.ID]*forge.User, len(ids))
	err := p.s.store.View(ctx, func(tx Tx) error {
		for _, id := range ids {
			if _, ok := out[id]; ok || id == 0 {
				continue
			}
			u, err := tx.UserByID(ctx, id)
			if errors.Is(err, forge.ErrNotFound) {
				continue
			} else if err != nil {
				return err
			}
			out[id] = u
		}
		return nil
	})
	return out, err
}

// Present is the presentation of v with rel (its parent, its pending
// transfer) as the repository answer shows it, for the webhook payloads
// that carry the repository as Forgejo's convert.ToRepo with the owner's
// access: its issue and pull request counters (and its parent's) and its
// pull-mirror fields. It checks nothing: v is a repository an event of
// its own named.
func (p *Ports) Present(ctx context.Context, v *View, rel Related) (*Presentation, error) {
	out, err := p.s.present(ctx, []*View{v}, map[forge.ID]Related{v.Repo.ID: rel})
	if err != nil {
		return nil, err
	}
	return &out[0], nil
}
