package issues

import (
	"context"

	"github.com/hearthforge/hearth/forge"
)

// CopyLabels copies every label of the repository fromOwner/fromName
// into toOwner/toName, as a repository generated from a template takes
// them (Forgejo's GenerateIssueLabels): name, colour, description,
// exclusivity and archival, no issue counts. It runs under the generate
// operation's scope: the credential must grant write:repository; the
// actor must see the template (its repository's errors otherwise) and
// write the labels of the new repository (forge.ErrForbidden `user
// should have a permission to write to a repo`). All labels or none are
// written.
func (s *Service) CopyLabels(ctx context.Context, actor forge.Actor, fromOwner, fromName, toOwner, toName string) error {
	if err := actor.Check(forge.AccessWrite, forge.CategoryRepository); err != nil {
		return err
	}
	if !actor.IsSignedIn() {
		return tokenRequired()
	}
	from, _, err := s.repos.RepoAccess(ctx, actor, fromOwner, fromName)
	if err != nil {
		return err
	}
	repo, perm, err := s.repos.RepoAccess(ctx, actor, toOwner, toName)
	if err != nil {
		return err
	}
	to := &access{actor: actor, repo: repo, perm: perm}
	if err := to.requireWriter(); err != nil {
		return err
	}
	return s.store.Update(ctx, func(tx Tx) error {
		labels, _, err := tx.ListLabels(ctx, LabelFilter{RepoID: from.ID}, all)
		if err != nil {
			return err
		}
		for _, l := range labels {
			c := &Label{RepoID: to.repo.ID, Name: l.Name, Color: l.Color, Description: l.Description,
				Exclusive: l.Exclusive, Archived: l.Archived}
			if err := tx.CreateLabel(ctx, c); err != nil {
				return err
			}
		}
		return nil
	})
}
