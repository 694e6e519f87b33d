package repos

import (
	"context"
	"fmt"

	"github.com/hearthforge/hearth/forge"
)

// viewsOf makes the actor's views of a page of repositories with a fixed
// number of store queries whatever the page's length: the owners in one
// UsersByID, and for a signed-in actor its collaborator modes in one
// CollaboratorModes, its memberships of the owners in one OrgMemberships
// and its teams' grants in one TeamGrants. The batch reads are made even
// for an empty page, so that the cost of a page does not depend on what
// is in it.
func viewsOf(ctx context.Context, tx Tx, actor forge.Actor, list []*forge.Repository) ([]*View, error) {
	owners, err := tx.UsersByID(ctx, ownerIDs(list))
	if err != nil {
		return nil, err
	}
	grants, err := grantsOf(ctx, tx, actor, list)
	if err != nil {
		return nil, err
	}
	return viewsWith(actor, list, owners, grants)
}

// grantsOf is the actor's Grants on each repository of list, in three
// queries (none for anonymous actors).
func grantsOf(ctx context.Context, tx Tx, actor forge.Actor, list []*forge.Repository) (map[forge.ID]Grants, error) {
	out := make(map[forge.ID]Grants, len(list))
	if !actor.IsSignedIn() {
		return out, nil
	}
	ids := make([]forge.ID, 0, len(list))
	for _, r := range list {
		ids = append(ids, r.ID)
	}
	modes, err := tx.CollaboratorModes(ctx, actor.User.ID, ids)
	if err != nil {
		return nil, err
	}
	member, err := tx.OrgMemberships(ctx, actor.User.ID, ownerIDs(list))
	if err != nil {
		return nil, err
	}
	teams, err := tx.TeamGrants(ctx, actor.User.ID, ids)
	if err != nil {
		return nil, err
	}
	for _, r := range list {
		out[r.ID] = Grants{Collab: modes[r.ID], Member: member[r.OwnerID], Teams: teams[r.ID]}
	}
	return out, nil
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
func viewsWith(actor forge.Actor, list []*forge.Repository, owners map[forge.ID]*forge.User, grants map[forge.ID]Grants) ([]*View, error) {
	out := make([]*View, 0, len(list))
	for _, r := range list {
		u := owners[r.OwnerID]
		if u == nil {
			return nil, fmt.Errorf("repos: repository %d has no owner %d", r.ID, r.OwnerID)
		}
		r.OwnerName = u.Name
		out = append(out, &View{Repo: r, Owner: u, Perm: Access(actor, r, u, grants[r.ID])})
	}
	return out, nil
}
