package repos

import (
	"context"
	"fmt"

	"github.com/hearthforge/hearth/forge"
)

// viewsOf makes the actor's views of a page of repositories with a fixed
// number of store queries whatever the page's length: the owners in one
// UsersByID, the actor's collaborator modes in one CollaboratorModes. The
// batch reads are made even for an empty page, so that the cost of a page
// does not depend on what is in it.
func viewsOf(ctx context.Context, tx Tx, actor forge.Actor, list []*forge.Repository) ([]*View, error) {
	owners, err := tx.UsersByID(ctx, ownerIDs(list))
	if err != nil {
		return nil, err
	}
	modes, err := collaboratorModes(ctx, tx, actor, list)
	if err != nil {
		return nil, err
	}
	return viewsWith(actor, list, owners, modes)
}

// collaboratorModes is the actor's collaborator mode on each repository
// of list, in one query (none for anonymous actors).
func collaboratorModes(ctx context.Context, tx Tx, actor forge.Actor, list []*forge.Repository) (map[forge.ID]forge.AccessMode, error) {
	if !actor.IsSignedIn() {
		return map[forge.ID]forge.AccessMode{}, nil
	}
	ids := make([]forge.ID, 0, len(list))
	for _, r := range list {
		ids = append(ids, r.ID)
	}
	return tx.CollaboratorModes(ctx, actor.User.ID, ids)
}

func ownerIDs(list []*forge.Repository) []forge.ID {
	ids := make([]forge.ID, 0, len(list))
	for _, r := range list {
		ids = append(ids, r.OwnerID)
	}
	return ids
}

// viewsWith is the pure part of viewsOf: each repository with its owner
// (OwnerName set) and the actor's permission. A repository whose owner is
// missing from owners is an error: owners cannot be deleted while they own
// repositories.
func viewsWith(actor forge.Actor, list []*forge.Repository, owners map[forge.ID]*forge.User, modes map[forge.ID]forge.AccessMode) ([]*View, error) {
	out := make([]*View, 0, len(list))
	for _, r := range list {
		u := owners[r.OwnerID]
		if u == nil {
			return nil, fmt.Errorf("repos: repository %d has no owner %d", r.ID, r.OwnerID)
		}
		r.OwnerName = u.Name
		out = append(out, &View{Repo: r, Owner: u, Perm: Permission(actor, r, u, modes[r.ID])})
	}
	return out, nil
}
