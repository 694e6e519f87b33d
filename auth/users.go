package auth

import (
	"context"
	"errors"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/hearthforge/hearth/forge"
)

// ErrPasswordPolicy is the reason of the forge.ErrInvalid error for a
// password that breaks the password rules (Forgejo answers 400).
var ErrPasswordPolicy = forge.Errorf(forge.ErrInvalid, "password policy")

// CreateUserOptions are the fields of a new account (Forgejo's
// CreateUserOption plus Admin for bootstrapping).
type CreateUserOptions struct {
	Name     string
	Email    string
	FullName string
	// Password is required for local accounts (LoginSource 0) and may be
	// empty for accounts of an external source.
	Password    string
	LoginSource forge.ID
	LoginName   string
	// MustChangePassword defaults to true when nil, as in Forgejo's admin API.
	MustChangePassword *bool
	Restricted         *bool
	// Visibility "" means public.
	Visibility forge.Visibility
	// Created overrides the creation (and update) time, for migrations.
	Created *time.Time
	// Admin makes the account a site administrator.
	Admin bool
}

// CreateUser creates an account. Only site administrators may (the actor is
// forge.ErrForbidden otherwise), except through EnsureAdmin.
//
// Errors: forge.ErrInvalid for a bad name, e-mail, visibility or unknown
// login source; forge.ErrInvalid with reason ErrPasswordPolicy for a too
// short password; forge.ErrConflict `user already exists [name: X]` or
// `e-mail already in use [email: X]`.
func (s *Service) CreateUser(ctx context.Context, actor forge.Actor, o CreateUserOptions) (*forge.User, error) {
	if !actor.IsSiteAdmin() {
		return nil, forge.Errorf(forge.ErrForbidden, "user should be the site admin")
	}
	return s.createUser(ctx, o, nil)
}

// EnsureAdmin creates an administrator from o (o.Admin is implied) unless the
// instance already has an effective administrator, in one transaction. It
// reports whether it created one. Hosts call it at start-up.
func (s *Service) EnsureAdmin(ctx context.Context, o CreateUserOptions) (created bool, err error) {
	o.Admin = true
	_, err = s.createUser(ctx, o, func(tx Tx) (bool, error) {
		n, err := tx.CountAdmins(ctx)
		return n == 0, err
	})
	if errors.Is(err, errSkip) {
		return false, nil
	}
	return err == nil, err
}

var errSkip = errors.New("skip")

func (s *Service) createUser(ctx context.Context, o CreateUserOptions, precheck func(Tx) (bool, error)) (*forge.User, error) {
	if err := ValidateUsername(o.Name); err != nil {
		return nil, err
	}
	if err := ValidateEmail(o.Email); err != nil {
		return nil, err
	}
	if utf8.RuneCountInString(o.FullName) > 100 {
		return nil, forge.Errorf(forge.ErrInvalid, "full name is too long")
	}
	if o.Visibility == "" {
		o.Visibility = forge.VisibilityPublic
	}
	if !o.Visibility.Valid() {
		return nil, forge.Errorf(forge.ErrInvalid, "invalid visibility %q", string(o.Visibility))
	}
	// Local accounts need a password; accounts of an external login source
	// may have none (their password is the source's business).
	var hash string
	if o.LoginSource == 0 || o.Password != "" {
		if err := s.checkPassword(o.Password); err != nil {
			return nil, err
		}
		var err error
		if hash, err = HashPassword(o.Password, s.pwd); err != nil {
			return nil, err
		}
	}
	now := s.clock.Now()
	if o.Created != nil {
		now = o.Created.UTC().Truncate(time.Second)
	}
	u := &forge.User{
		Name:                    o.Name,
		Email:                   o.Email,
		FullName:                o.FullName,
		Visibility:              o.Visibility,
		IsAdmin:                 o.Admin,
		IsActive:                true,
		MustChangePassword:      o.MustChangePassword == nil || *o.MustChangePassword,
		Restricted:              o.Restricted != nil && *o.Restricted,
		LoginSource:             o.LoginSource,
		LoginName:               o.LoginName,
		MaxRepoCreation:         -1,
		AllowCreateOrganization: true,
		Created:                 now,
		Updated:                 now,
	}
	err := s.store.Update(ctx, func(tx Tx) error {
		if err := checkSource(ctx, tx, o.LoginSource); err != nil {
			return err
		}
		if precheck != nil {
			ok, err := precheck(tx)
			if err != nil {
				return err
			}
			if !ok {
				return errSkip
			}
		}
		if err := checkFree(ctx, tx, 0, u.Name, u.Email); err != nil {
			return err
		}
		return tx.CreateUser(ctx, u, hash)
	})
	if err != nil {
		return nil, err
	}
	s.log.DebugContext(ctx, "user created", "user", u.Name, "id", u.ID)
	return u, nil
}

// checkFree returns Forgejo's conflict errors if name or email belongs to a
// user other than self.
func checkFree(ctx context.Context, tx Tx, self forge.ID, name, email string) error {
	if name != "" {
		other, err := tx.UserByName(ctx, name)
		if err == nil && other.ID != self {
			return forge.Errorf(forge.ErrConflict, "user already exists [name: %s]", name)
		} else if err != nil && !errors.Is(err, forge.ErrNotFound) {
			return err
		}
	}
	if email != "" {
		other, err := tx.UserByEmail(ctx, email)
		if err == nil && other.ID != self {
			return forge.Errorf(forge.ErrConflict, "e-mail already in use [email: %s]", email)
		} else if err != nil && !errors.Is(err, forge.ErrNotFound) {
			return err
		}
	}
	return nil
}

func (s *Service) checkPassword(pw string) error {
	if utf8.RuneCountInString(pw) < s.minPwd {
		return forge.Reasonf(forge.ErrInvalid, ErrPasswordPolicy,
			"password must be at least %d characters", s.minPwd)
	}
	if len(pw) > 255 {
		return forge.Reasonf(forge.ErrInvalid, ErrPasswordPolicy, "password must be at most 255 characters")
	}
	return nil
}

// User returns the user called name as the actor may see it: public users to
// everyone, limited users to signed-in actors, private users to themselves
// and site administrators. Returns forge.ErrNotFound (`user redirect does
// not exist [name: <lower name>]`) otherwise, and forge.ErrForbidden
// `token scope is limited to public users` for a public-only token and a
// user who is not public.
func (s *Service) User(ctx context.Context, actor forge.Actor, name string) (*forge.User, error) {
	var u *forge.User
	err := s.store.View(ctx, func(tx Tx) error {
		var err error
		u, err = tx.UserByName(ctx, name)
		return err
	})
	switch {
	case errors.Is(err, forge.ErrNotFound):
		return nil, userNotFound(name)
	case err != nil:
		return nil, err
	case actor.Scoped && actor.Scope.PublicOnly && u.Visibility != forge.VisibilityPublic:
		return nil, forge.Errorf(forge.ErrForbidden, "token scope is limited to public users")
	case !CanSee(actor, u):
		return nil, userNotFound(name)
	}
	return u, nil
}

func userNotFound(name string) error {
	return forge.Errorf(forge.ErrNotFound, "user redirect does not exist [name: %s]", strings.ToLower(name))
}

// CanSee is the user visibility rule: may actor see u?
func CanSee(actor forge.Actor, u *forge.User) bool {
	switch u.Visibility {
	case forge.VisibilityLimited:
		return actor.IsSignedIn()
	case forge.VisibilityPrivate:
		return actor.UserID() == u.ID || actor.IsSiteAdmin()
	}
	return true
}

// ListUsers is the administrators' user search. Returns one page and the
// total. forge.ErrForbidden unless the actor is a site administrator.
func (s *Service) ListUsers(ctx context.Context, actor forge.Actor, f UserFilter, o forge.ListOptions) ([]*forge.User, int64, error) {
	if !actor.IsSiteAdmin() {
		return nil, 0, forge.Errorf(forge.ErrForbidden, "user should be the site admin")
	}
	var (
		users []*forge.User
		total int64
	)
	err := s.store.View(ctx, func(tx Tx) error {
		var err error
		users, total, err = tx.ListUsers(ctx, f, o.Normalize())
		return err
	})
	return users, total, err
}

// DeleteUser deletes the account called name and its tokens.
//
// Errors: forge.ErrForbidden unless the actor is a site administrator;
// forge.ErrNotFound for an unknown user; forge.ErrPrecondition
// `you cannot delete yourself`, or reason ErrLastAdmin for the last
// administrator.
func (s *Service) DeleteUser(ctx context.Context, actor forge.Actor, name string) error {
	if !actor.IsSiteAdmin() {
		return forge.Errorf(forge.ErrForbidden, "user should be the site admin")
	}
	return s.store.Update(ctx, func(tx Tx) error {
		u, err := tx.UserByName(ctx, name)
		if errors.Is(err, forge.ErrNotFound) {
			return userNotFound(name)
		} else if err != nil {
			return err
		}
		if u.ID == actor.UserID() {
			return forge.Errorf(forge.ErrPrecondition, "you cannot delete yourself")
		}
		admins, err := tx.CountAdmins(ctx)
		if err != nil {
			return err
		}
		if err := CheckLastAdmin(u, nil, admins); err != nil {
			return err
		}
		return tx.DeleteUser(ctx, u.ID)
	})
}

// RenameUser renames the account called name to newName (Forgejo's
// adminRenameUser). Site administrators only. Errors: forge.ErrNotFound for
// an unknown user; forge.ErrInvalid for a bad new name; forge.ErrConflict
// `user already exists [name: X]` when another account has it.
func (s *Service) RenameUser(ctx context.Context, actor forge.Actor, name, newName string) error {
	if !actor.IsSiteAdmin() {
		return forge.Errorf(forge.ErrForbidden, "user should be the site admin")
	}
	if err := ValidateUsername(newName); err != nil {
		return err
	}
	now := s.clock.Now()
	return s.store.Update(ctx, func(tx Tx) error {
		u, err := tx.UserByName(ctx, name)
		if errors.Is(err, forge.ErrNotFound) {
			return userNotFound(name)
		} else if err != nil {
			return err
		}
		if err := checkFree(ctx, tx, u.ID, newName, ""); err != nil {
			return err
		}
		u.Name, u.Updated = newName, now
		return tx.UpdateUser(ctx, u)
	})
}
