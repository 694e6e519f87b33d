package issues

import (
	"context"
	"errors"
	"slices"

	"github.com/hearthforge/hearth/forge"
)

// assignable resolves assignee names (each once, in order) and checks
// that each may be assigned in a's repository (Forgejo's CanBeAssigned: an
// active individual account with write access to issues or pull
// requests). Unknown names are forge.ErrInvalid `Assignee does not exist:
// [name: user does not exist [uid: 0, name: x]]` (Forgejo formats the
// lookup error into it); others forge.ErrInvalid `user doesn't have access
// to repo [user_id: n, repo_name: r]`.
func (s *Service) assignable(ctx context.Context, a *access, names []string) ([]*forge.User, error) {
	var out []*forge.User
	err := s.store.View(ctx, func(tx Tx) error {
		for _, n := range names {
			u, err := tx.UserByName(ctx, n)
			if errors.Is(err, forge.ErrNotFound) {
				return forge.Errorf(forge.ErrInvalid, "Assignee does not exist: [name: user does not exist [uid: 0, name: %s]]", n)
			} else if err != nil {
				return err
			}
			if !slices.ContainsFunc(out, func(x *forge.User) bool { return x.ID == u.ID }) {
				out = append(out, u)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	for _, u := range out {
		if !s.canBeAssigned(ctx, a, u) {
			return nil, forge.Errorf(forge.ErrInvalid, "user doesn't have access to repo [user_id: %d, repo_name: %s]", u.ID, a.repo.Name)
		}
	}
	return out, nil
}

func (s *Service) canBeAssigned(ctx context.Context, a *access, u *forge.User) bool {
	if u.IsOrganization() || !u.IsActive || u.ProhibitLogin {
		return false
	}
	if a.actor.IsSignedIn() && a.actor.User.ID == u.ID {
		return a.canWriteAny()
	}
	as := forge.Actor{User: u, Method: forge.AuthPassword}
	_, perm, err := s.repos.RepoAccess(ctx, as, a.repo.OwnerName, a.repo.Name)
	if err != nil {
		return false
	}
	b := &access{actor: as, repo: a.repo, perm: perm}
	return b.canWriteAny()
}

// setAssignees replaces the issue's assignees with users and writes an
// assignee comment per user removed, then per user added.
func (c *change) setAssignees(ctx context.Context, users []*forge.User) error {
	cur, err := c.tx.Assignees(ctx, []forge.ID{c.issue.ID})
	if err != nil {
		return err
	}
	old := cur[c.issue.ID]
	ids := make([]forge.ID, 0, len(users))
	for _, u := range users {
		ids = append(ids, u.ID)
	}
	changed := false
	for _, id := range old {
		if !slices.Contains(ids, id) {
			changed = true
			if err := c.comment(ctx, &Comment{Type: CommentAssignees, AssigneeID: id, RemovedAssignee: true}); err != nil {
				return err
			}
		}
	}
	for _, id := range ids {
		if !slices.Contains(old, id) {
			changed = true
			if err := c.comment(ctx, &Comment{Type: CommentAssignees, AssigneeID: id}); err != nil {
				return err
			}
		}
	}
	if !changed {
		return nil
	}
	return c.tx.SetAssignees(ctx, c.issue.ID, ids)
}
