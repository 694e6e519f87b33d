package repos

import (
	"context"

	"github.com/hearthforge/hearth/forge"
)

// Need is what an operation on a repository requires of its actor, named
// after Forgejo's route middlewares.
type Need int

// Needs.
const (
	// NeedVisible: the actor may see the repository (Forgejo's
	// repoAssignment).
	NeedVisible Need = iota
	// NeedWrite: write access to the unit (reqRepoWriter), or
	// administration.
	NeedWrite
	// NeedAdmin: administration of the repository (reqAdmin).
	NeedAdmin
	// NeedOwner: ownership of the repository (reqOwner), as a transfer
	// needs.
	NeedOwner
)

// Authorize returns nil when actor may act on owner/name as the gated
// operation op (Forgejo's operationId, a key of gated) requires of it
// before its body is read (the probe's need, for NeedWrite on its unit),
// else the error the operation returns first for such an actor:
// ErrRepoNotFound or *OwnerNotFoundError for a repository the actor may
// not see, and forge.ErrForbidden with Forgejo's message (`user should
// have a permission to write to a repo`, `user should be an owner or a
// collaborator with admin write of a repository`, `user should be the
// owner of the repo`). It checks the account state but neither the token
// scope nor whether the repository is archived. forge.ErrInvalid for an
// op this package does not probe.
//
// It changes nothing and decides nothing the operations do not decide
// again: it lets the API refuse a caller without rights before it reads
// the request body, as Forgejo's middlewares run before its binding.
func (s *Service) Authorize(ctx context.Context, actor forge.Actor, op, owner, name string) error {
	p, ok := gated[op]
	if !ok || op == "createOrgRepo" {
		return forge.Errorf(forge.ErrInvalid, "repos: %q is no operation probed on a repository", op)
	}
	if p.check != nil {
		return p.check(s, ctx, actor, owner, name)
	}
	v, err := s.resolveView(ctx, actor, owner, name)
	if err != nil {
		return err
	}
	switch p.need {
	case NeedWrite:
		return requireUnitWrite(v, p.unit)
	case NeedAdmin:
		return requireAdmin(v)
	case NeedOwner:
		if !v.IsOwner() {
			return forge.Errorf(forge.ErrForbidden, "user should be the owner of the repo")
		}
	}
	return nil
}
