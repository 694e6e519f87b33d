package repos

import (
	"context"

	"github.com/hearthforge/hearth/forge"
)

// ViewsOf returns the actor's views of repositories the caller already
// holds (a page of a team's repositories that forge/orgs listed, say),
// in their order, with each one's owner and the actor's permission, in a
// fixed number of store queries whatever the length of list (viewsOf).
// It reads nothing the caller does not already hold but the owners and the
// actor's own grants, and so needs no scope: the caller has decided who
// may list them. A repository the actor may not read is answered with
// its permission of none, as Forgejo's ListTeamRepos answers every
// repository of the team with the actor's permission. forge.ErrForbidden
// for an account that may not act.
func (s *Service) ViewsOf(ctx context.Context, actor forge.Actor, list []*forge.Repository) ([]*View, error) {
	if err := actor.CheckState(); err != nil {
		return nil, err
	}
	var out []*View
	err := s.store.View(ctx, func(tx Tx) error {
		held := make([]*forge.Repository, len(list))
		for i, r := range list {
			c := *r
			held[i] = &c
		}
		var err error
		out, err = viewsOf(ctx, tx, actor, held)
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
