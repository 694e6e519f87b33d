package auth

import (
	"context"
	"errors"
	"net/url"
	"unicode/utf8"

	"github.com/hearthforge/hearth/forge"
)

// EditUserOptions is a partial update of an account (Forgejo's
// EditUserOption). A nil field is left alone; every non-nil field is applied.
type EditUserOptions struct {
	// LoginSource and LoginName must be given together.
	LoginSource *forge.ID
	LoginName   *string
	Email       *string
	FullName    *string
	// Password, when non-nil and non-empty, replaces the password.
	Password                *string
	MustChangePassword      *bool
	Website                 *string
	Location                *string
	Pronouns                *string
	Description             *string
	Active                  *bool
	Admin                   *bool
	AllowGitHook            *bool
	AllowImportLocal        *bool
	MaxRepoCreation         *int64
	ProhibitLogin           *bool
	AllowCreateOrganization *bool
	Restricted              *bool
	Visibility              *forge.Visibility
	HideEmail               *bool
}

// EditUser applies o to the account called name, in one transaction: either
// every change is stored or none (Forgejo saves credentials before the
// last-admin check and keeps them when it fails; Hearth does not).
//
// It returns the user as stored, as the actor may see it (VisibleTo).
//
// Errors: those of its declared requirement (adminEditUser: the actor's
// account state error, `token is required` for an anonymous actor, or
// forge.ErrForbidden unless it is a site administrator whose credential
// allows write:admin); forge.ErrNotFound for an unknown user; forge.ErrInvalid
// `source_id and login_name must be specified together`, or with reason
// ErrPasswordPolicy or ErrEmailInvalid; forge.ErrConflict for an e-mail in
// use; forge.ErrPrecondition with reason ErrLastAdmin when the change would
// leave no administrator who can sign in.
func (s *Service) EditUser(ctx context.Context, actor forge.Actor, name string, o EditUserOptions) (*forge.User, error) {
	if err := operations["adminEditUser"].Check(actor); err != nil {
		return nil, err
	}
	if (o.LoginSource == nil) != (o.LoginName == nil) {
		return nil, forge.Errorf(forge.ErrInvalid, "source_id and login_name must be specified together")
	}
	var hash string
	if o.Password != nil && *o.Password != "" {
		if err := s.checkPassword(*o.Password); err != nil {
			return nil, err
		}
		var err error
		if hash, err = s.hashPassword(ctx, *o.Password); err != nil {
			return nil, err
		}
	}
	if o.Email != nil {
		if err := ValidateEmail(*o.Email); err != nil {
			return nil, err
		}
	}
	if o.Visibility != nil && !o.Visibility.Valid() {
		return nil, forge.Errorf(forge.ErrInvalid, "invalid visibility %q", string(*o.Visibility))
	}
	if err := checkProfile(o.FullName, o.Website); err != nil {
		return nil, err
	}
	now := s.clock.Now()
	var out *forge.User
	err := s.store.Update(ctx, func(tx Tx) error {
		before, err := tx.UserByName(ctx, name)
		if errors.Is(err, forge.ErrNotFound) {
			return userNotFound(name)
		} else if err != nil {
			return err
		}
		if o.LoginSource != nil {
			if err := checkSource(ctx, tx, *o.LoginSource); err != nil {
				return err
			}
		}
		u := *before
		o.Apply(&u)
		admins, err := countAdmins(ctx, tx)
		if err != nil {
			return err
		}
		if err := CheckLastAdmin(before, &u, admins); err != nil {
			return err
		}
		if o.Email != nil {
			if err := checkFree(ctx, tx, u.ID, "", u.Email); err != nil {
				return err
			}
			if err := swapPrimaryEmail(ctx, tx, before, u.Email); err != nil {
				return err
			}
		}
		u.Updated = now
		if err := tx.UpdateUser(ctx, &u); err != nil {
			return err
		}
		if hash != "" {
			if err := tx.SetPasswordHash(ctx, u.ID, hash); err != nil {
				return err
			}
		}
		out = &u
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out.VisibleTo(actor), nil
}

// Apply sets the non-nil fields of o on u.
func (o EditUserOptions) Apply(u *forge.User) {
	set(&u.LoginSource, o.LoginSource)
	set(&u.LoginName, o.LoginName)
	set(&u.Email, o.Email)
	set(&u.FullName, o.FullName)
	set(&u.MustChangePassword, o.MustChangePassword)
	set(&u.Website, o.Website)
	set(&u.Location, o.Location)
	set(&u.Pronouns, o.Pronouns)
	set(&u.Description, o.Description)
	set(&u.IsActive, o.Active)
	set(&u.IsAdmin, o.Admin)
	set(&u.AllowGitHook, o.AllowGitHook)
	set(&u.AllowImportLocal, o.AllowImportLocal)
	set(&u.MaxRepoCreation, o.MaxRepoCreation)
	set(&u.ProhibitLogin, o.ProhibitLogin)
	set(&u.AllowCreateOrganization, o.AllowCreateOrganization)
	set(&u.Restricted, o.Restricted)
	set(&u.Visibility, o.Visibility)
	set(&u.HideEmail, o.HideEmail)
}

func set[T any](dst *T, v *T) {
	if v != nil {
		*dst = *v
	}
}

// checkProfile checks the profile fields an edit sets (nil: not set):
// forge.ErrInvalid `full name is too long` over 100 characters,
// `[Website]: ValidUrl` for a website that is not an http(s) URL.
func checkProfile(fullName, website *string) error {
	if fullName != nil && utf8.RuneCountInString(*fullName) > 100 {
		return forge.Errorf(forge.ErrInvalid, "full name is too long")
	}
	if website != nil && *website != "" {
		if u, err := url.Parse(*website); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return forge.Errorf(forge.ErrInvalid, "[Website]: ValidUrl")
		}
	}
	return nil
}
