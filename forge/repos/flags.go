package repos

import (
	"context"
	"slices"
	"time"

	"github.com/hearthforge/hearth/forge"
)

// Repository flags (Forgejo's models/repo/repo_flags.go and
// routers/api/v1/repo/flags.go) are names a site administrator attaches
// to a repository for the host's own use; Forgejo gives them no meaning.
// Every flag operation is for site administrators only: anyone else gets
// forge.ErrForbidden `user should be the site admin` (after the
// repository was found, as Forgejo's reqSiteAdmin follows
// repoAssignment), and the token must grant the repository scope at the
// operation's level (the route adds admin).

// ErrFlagNotFound is HasFlag's answer for a flag the repository lacks
// (Forgejo's 404 with the default body).
var ErrFlagNotFound = forge.Errorf(forge.ErrNotFound, "flag does not exist")

// flagsTx runs fn for a site administrator on owner/name, in a write
// transaction when write.
func (s *Service) flagsTx(ctx context.Context, actor forge.Actor, owner, name string, write bool, fn func(Tx, *View) error) error {
	level := forge.AccessRead
	if write {
		level = forge.AccessWrite
	}
	if err := actor.Check(level, forge.CategoryRepository); err != nil {
		return err
	}
	run := s.store.View
	if write {
		run = s.store.Update
	}
	return run(ctx, func(tx Tx) error {
		v, err := load(ctx, tx, actor, owner, name)
		if err != nil {
			return err
		}
		if !actor.IsSiteAdmin() {
			return forge.Errorf(forge.ErrForbidden, "user should be the site admin")
		}
		return fn(tx, v)
	})
}

// ListFlags returns the flags of owner/name, by name.
func (s *Service) ListFlags(ctx context.Context, actor forge.Actor, owner, name string) ([]string, error) {
	var out []string
	err := s.flagsTx(ctx, actor, owner, name, false, func(tx Tx, v *View) (err error) {
		out, err = tx.RepoFlags(ctx, v.Repo.ID)
		return err
	})
	return out, err
}

// HasFlag returns nil when owner/name has flag, ErrFlagNotFound when not.
func (s *Service) HasFlag(ctx context.Context, actor forge.Actor, owner, name, flag string) error {
	return s.flagsTx(ctx, actor, owner, name, false, func(tx Tx, v *View) error {
		flags, err := tx.RepoFlags(ctx, v.Repo.ID)
		if err != nil {
			return err
		}
		if !slices.Contains(flags, flag) {
			return ErrFlagNotFound
		}
		return nil
	})
}

// ReplaceFlags replaces the flags of owner/name with flags (repeats
// once; nil removes them all).
func (s *Service) ReplaceFlags(ctx context.Context, actor forge.Actor, owner, name string, flags []string) error {
	return s.flagsTx(ctx, actor, owner, name, true, func(tx Tx, v *View) error {
		return tx.SetRepoFlags(ctx, v.Repo.ID, cleanFlags(flags))
	})
}

// AddFlag adds flag to owner/name (nothing when it has it).
func (s *Service) AddFlag(ctx context.Context, actor forge.Actor, owner, name, flag string) error {
	return s.changeFlags(ctx, actor, owner, name, func(f []string) []string { return append(f, flag) })
}

// DeleteFlag removes flag from owner/name (nothing when it lacks it, as
// Forgejo answers 204 either way).
func (s *Service) DeleteFlag(ctx context.Context, actor forge.Actor, owner, name, flag string) error {
	return s.changeFlags(ctx, actor, owner, name, func(f []string) []string {
		return slices.DeleteFunc(f, func(x string) bool { return x == flag })
	})
}

func (s *Service) changeFlags(ctx context.Context, actor forge.Actor, owner, name string, change func([]string) []string) error {
	return s.flagsTx(ctx, actor, owner, name, true, func(tx Tx, v *View) error {
		flags, err := tx.RepoFlags(ctx, v.Repo.ID)
		if err != nil {
			return err
		}
		return tx.SetRepoFlags(ctx, v.Repo.ID, cleanFlags(change(flags)))
	})
}

// cleanFlags is flags sorted, each once, without empty names.
func cleanFlags(flags []string) []string {
	out := slices.DeleteFunc(slices.Clone(flags), func(f string) bool { return f == "" })
	slices.Sort(out)
	return slices.Compact(out)
}

// Topic is a topic with the number of repositories that have it
// (Forgejo's models/repo/topic.go Topic).
type Topic struct {
	ID        forge.ID
	Name      string
	RepoCount int64
	// Created is when a repository first had it; Updated when one last
	// took it.
	Created, Updated time.Time
}

// SearchTopics lists one page of the topics whose name contains keyword
// (Forgejo's TopicSearch), most used first, and how many match. The
// token must grant read:repository.
func (s *Service) SearchTopics(ctx context.Context, actor forge.Actor, keyword string, o forge.ListOptions) ([]Topic, int64, error) {
	if err := actor.Check(forge.AccessRead, forge.CategoryRepository); err != nil {
		return nil, 0, err
	}
	var (
		out   []Topic
		total int64
	)
	err := s.store.View(ctx, func(tx Tx) (err error) {
		out, total, err = tx.SearchTopics(ctx, keyword, o.Normalize())
		return err
	})
	return out, total, err
}

// authorizeFlags is Authorize's probe of its operations: it returns nil when actor may use the flag operations on
// owner/name, else the error they return first (the repository's
// visibility, then `user should be the site admin`). It changes nothing.
func (s *Service) authorizeFlags(ctx context.Context, actor forge.Actor, owner, name string) error {
	return s.flagsTx(ctx, actor, owner, name, false, func(Tx, *View) error { return nil })
}
