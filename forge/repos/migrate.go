package repos

import (
	"context"
	"errors"
	"strings"

	"github.com/hearthforge/hearth/forge"
)

// MigrationTarget is the repository a migration creates (Forgejo's
// MigrateRepoOptions: repo_name, description, private).
type MigrationTarget struct {
	Name        string
	Description string
	Private     bool
}

// BeginMigration is the first step of a migration's creation (package
// mirror's Migrate runs it after AuthorizeMigrate and its own checks of
// the source): it writes the new repository's row in the
// forge.RepoCreating state, without a git directory, and returns the
// Creation whose Repo.ID names the directory the migration makes (its
// clone). The caller then calls FinishMigration, or AbortMigration on any
// failure; a crash before either leaves a row that Recover removes with
// the directory.
//
// owner is the new repository's owner ("" for the actor). An
// organisation the actor may see is created in with CreateInOrg's rules,
// anything else with Create's; size:repos:all of the owner is checked in
// every case (Forgejo checks the quota of repo_owner, also for a site
// administrator). Errors: those of Create and CreateInOrg.
func (s *Service) BeginMigration(ctx context.Context, actor forge.Actor, owner string, t MigrationTarget) (*Creation, error) {
	if !actor.IsSignedIn() {
		return nil, forge.Errorf(forge.ErrUnauthenticated, "token is required")
	}
	o := CreateOptions{Name: t.Name, Description: t.Description, Private: t.Private, OwnerQuota: true}
	inOrg, err := s.isVisibleOrg(ctx, actor, owner)
	if err != nil {
		return nil, err
	}
	if inOrg {
		if err := checkCreateInOrg(actor); err != nil {
			return nil, err
		}
		return s.begin(ctx, actor, owner, false, true, o)
	}
	forOther, err := checkCreate(actor, owner)
	if err != nil {
		return nil, err
	}
	return s.begin(ctx, actor, owner, forOther, false, o)
}

// isVisibleOrg reports whether owner names, other than the actor, an
// organisation the actor may see.
func (s *Service) isVisibleOrg(ctx context.Context, actor forge.Actor, owner string) (bool, error) {
	if owner == "" || strings.EqualFold(owner, actor.User.Name) {
		return false, nil
	}
	var ok bool
	err := s.store.View(ctx, func(tx Tx) error {
		u, err := tx.UserByName(ctx, owner)
		if errors.Is(err, forge.ErrNotFound) {
			return nil
		} else if err != nil || !u.IsOrganization() {
			return err
		}
		member, err := isMember(ctx, tx, actor, u)
		ok = err == nil && OwnerVisibleTo(actor, u, member)
		return err
	})
	return ok, err
}

// FinishMigration makes the migration's repository whole once its git
// directory exists: the stored state read from git (size, emptiness,
// default branch), format (the clone's object format; "" keeps SHA-1)
// recorded, the row marked ready, the organisation's teams and the
// creator's watch added and the creation's event written, as Create does.
// actor must be the one that began it (forge.ErrForbidden). On failure
// the creation is undone (row and directory). forge.ErrConflict when the
// creation is no longer pending (finished or aborted, or taken as stale
// by a creation of the same name after StaleCreation).
func (s *Service) FinishMigration(ctx context.Context, actor forge.Actor, c *Creation, format forge.ObjectFormat) (*View, error) {
	if err := c.check(actor); err != nil {
		return nil, err
	}
	if format.Valid() {
		c.Repo.ObjectFormat = format
	}
	return s.finish(ctx, c)
}

// AbortMigration undoes a migration's creation: the row and whatever git
// directory was made go, in the recoverable order (a crash in between is
// finished by Recover). actor must be the one that began it
// (forge.ErrForbidden); an undo already done is no error; a finished
// creation is forge.ErrConflict (its repository is deleted with Delete).
func (s *Service) AbortMigration(ctx context.Context, actor forge.Actor, c *Creation) error {
	if err := c.check(actor); err != nil {
		return err
	}
	err := s.store.View(ctx, func(tx Tx) error {
		r, err := tx.RepoByID(ctx, c.Repo.ID)
		if err == nil && r.Status == forge.RepoReady {
			return forge.Errorf(forge.ErrConflict, "the creation is finished: delete the repository instead")
		}
		return err
	})
	if err == nil {
		err = s.removeRepo(context.WithoutCancel(ctx), c.Repo.ID)
	}
	if errors.Is(err, forge.ErrNotFound) {
		return nil
	}
	return err
}

// check refuses a creation to anyone but its creator.
func (c *Creation) check(actor forge.Actor) error {
	if c == nil || c.Repo == nil || !actor.IsSignedIn() || actor.User.ID != c.actor.User.ID {
		return forge.Errorf(forge.ErrForbidden, "the creation belongs to another actor")
	}
	return nil
}
