package hooks

import (
	"context"

	"github.com/hearthforge/hearth/forge"
)

// CopyRepoHooks copies the hooks of repository from into repository to,
// as a repository generated from a template takes its webhooks (Forgejo's
// GenerateWebhooks): type, URL, secret, content type, events, branch
// filter, authorization header and active state. The actor must
// administer both (resolve's errors: a template's hooks hold secrets, so
// Hearth asks what reading them asks, where Forgejo asks only to read the
// template's code); the credential must grant write:repository. All
// hooks or none are written.
func (s *Service) CopyRepoHooks(ctx context.Context, actor forge.Actor, from, to Owner) error {
	src, err := s.resolve(ctx, actor, from, forge.AccessRead)
	if err != nil {
		return err
	}
	dst, err := s.resolve(ctx, actor, to, forge.AccessWrite)
	if err != nil {
		return err
	}
	now := s.clock.Now()
	return s.store.Update(ctx, func(tx Tx) error {
		list, _, err := tx.ListHooks(ctx, src.f, forge.ListOptions{Limit: -1})
		if err != nil {
			return err
		}
		for _, h := range list {
			c := h.Clone()
			c.ID, c.RepoID, c.OwnerID, c.IsSystem, c.Created, c.Updated = 0, dst.repo.ID, 0, false, now, now
			if err := tx.CreateHook(ctx, c); err != nil {
				return err
			}
		}
		return nil
	})
}
