package repos

import (
	"context"
	"errors"

	"github.com/hearthforge/hearth/forge"
)

// AuthorizeMigrate runs the checks Forgejo's POST /repos/migrate makes
// before it reads the clone address, in its order, and changes nothing.
// The new repository's owner is owner, or the actor when owner is empty.
//
// Errors: forge.ErrUnauthenticated without a signed-in actor; the token
// scope's refusal (write:repository); forge.ErrInvalid `user does not
// exist [uid: 0, name: x]` for an unknown owner (Forgejo's 422); a
// *quota.ExceededError when the owner's size:repos:all allows no new
// repository (413, checked before the permission, as Forgejo does); and,
// unless the actor is a site administrator, forge.ErrForbidden `Given user
// is not an organization.` for another user, or `Given user is not owner
// of organization.` for an organisation the actor does not own (Forgejo
// migrates into an organisation for its owners only, not for the members
// of a team that may create repositories).
func (s *Service) AuthorizeMigrate(ctx context.Context, actor forge.Actor, owner string, private bool) error {
	if !actor.IsSignedIn() {
		return forge.Errorf(forge.ErrUnauthenticated, "token is required")
	}
	if err := actor.Check(forge.AccessWrite, forge.CategoryRepository); err != nil {
		return err
	}
	return s.store.View(ctx, func(tx Tx) error {
		u := actor.User
		if owner != "" {
			var err error
			if u, err = tx.UserByName(ctx, owner); errors.Is(err, forge.ErrNotFound) {
				return forge.Errorf(forge.ErrInvalid, "user does not exist [uid: 0, name: %s]", owner)
			} else if err != nil {
				return err
			}
		}
		if err := s.checkOwnerQuota(ctx, tx, u, private, 0); err != nil {
			return err
		}
		if actor.IsSiteAdmin() || u.ID == actor.User.ID {
			return nil
		}
		if !u.IsOrganization() {
			return forge.Errorf(forge.ErrForbidden, "Given user is not an organization.")
		}
		teams, err := tx.OrgTeams(ctx, u.ID, actor.User.ID)
		if err != nil {
			return err
		}
		for _, t := range teams {
			if t.IsOwners() {
				return nil
			}
		}
		return forge.Errorf(forge.ErrForbidden, "Given user is not owner of organization.")
	})
}
