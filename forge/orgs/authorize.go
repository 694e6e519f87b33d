package orgs

import (
	"context"

	"github.com/hearthforge/hearth/forge"
)

// AuthorizeOwner returns nil when actor may do what the owners of org do,
// else the error the owners' writes of this package return first: the
// account-state error, *NotFoundError for an organisation the actor may
// not see, `token is required`, and ErrMustBeOwner; with memberFirst, as
// team creation, ErrMustBeMember before ErrMustBeOwner for an actor who is
// no member (Forgejo's reqOrgMembership before reqOrgOwnership).
//
// It changes nothing and the operations check it all again: it lets the
// API refuse a caller without rights before it reads the request body, as
// Forgejo's middlewares run before its binding.
func (s *Service) AuthorizeOwner(ctx context.Context, actor forge.Actor, org string, memberFirst bool) error {
	if err := actor.CheckState(); err != nil {
		return err
	}
	n := needOwner
	if memberFirst {
		n = needMember
	}
	return s.store.View(ctx, func(tx Tx) error {
		v, err := loadOrgFor(ctx, tx, actor, org, n)
		if err != nil {
			return err
		}
		return v.requireOwner()
	})
}

// AuthorizeTeamOwner returns nil when actor may do what the owners of the
// team id's organisation do, else the error EditTeam returns first: the
// account-state error, `token is required`, ErrTeamNotFound (a team the
// actor may not see, or may see but not own) or ErrMustBeTeamMember.
func (s *Service) AuthorizeTeamOwner(ctx context.Context, actor forge.Actor, id forge.ID) error {
	if err := actor.CheckState(); err != nil {
		return err
	}
	return s.store.View(ctx, func(tx Tx) error {
		v, err := loadTeam(ctx, tx, actor, id)
		if err != nil {
			return err
		}
		return v.requireOwner()
	})
}

// Authorize is the probe of the gated operation op (Requirements, Gate):
// what op checks before it reads its input, on the organisation org or,
// for the team edit, the team id. Its errors are AuthorizeOwner's (team
// creation: member first) and AuthorizeTeamOwner's; forge.ErrInvalid for
// an op that is not gated.
func (s *Service) Authorize(ctx context.Context, actor forge.Actor, op, org string, team forge.ID) error {
	switch op {
	case "orgEdit", "renameOrg", "orgUpdateAvatar":
		return s.AuthorizeOwner(ctx, actor, org, false)
	case "orgCreateTeam":
		return s.AuthorizeOwner(ctx, actor, org, true)
	case "orgEditTeam":
		return s.AuthorizeTeamOwner(ctx, actor, team)
	}
	return forge.Errorf(forge.ErrInvalid, "orgs: %q is no gated operation", op)
}
