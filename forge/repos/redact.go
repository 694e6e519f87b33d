package repos

import (
	"context"

	"github.com/hearthforge/hearth/forge"
)

// redactOwners replaces each view's owner by what the actor may see of it
// (forge.User.VisibleTo), after the actor's permission was computed from
// the stored owner: every View the service returns passes here or through
// resolve.
func redactOwners(actor forge.Actor, views []*View) {
	for _, v := range views {
		v.Owner = v.Owner.VisibleTo(actor)
	}
}

// redactUsers is VisibleTo for a list of users the service returns.
func redactUsers(actor forge.Actor, users []*forge.User) []*forge.User {
	out := make([]*forge.User, len(users))
	for i, u := range users {
		out[i] = u.VisibleTo(actor)
	}
	return out
}

// reread replaces, inside tx, v.Repo by the repository as stored now,
// v.Owner by its owner as the actor may see it and v.Perm by the actor's
// permission now: what a write returns, so that counters the store keeps
// (watchers, stars, forks), the owner after a transfer and the changes
// made by the write are those after it.
func reread(ctx context.Context, tx Tx, actor forge.Actor, v *View) error {
	r, err := tx.RepoByID(ctx, v.Repo.ID)
	if err != nil {
		return err
	}
	u, err := tx.UserByID(ctx, r.OwnerID)
	if err != nil {
		return err
	}
	perm, err := accessOf(ctx, tx, actor, r, u)
	if err != nil {
		return err
	}
	r.OwnerName = u.Name
	v.Repo, v.Owner, v.Perm = r, u.VisibleTo(actor), perm
	return nil
}
