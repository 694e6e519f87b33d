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

// CreateUser creates an account and returns it as stored, as the actor
// may see it (VisibleTo).
//
// Errors: those of its declared requirement (adminCreateUser: the actor's
// *forge.AccountStateError, forge.ErrForbidden unless its credential
// allows write:admin, forge.ErrUnauthenticated `token is required` for an
// anonymous actor, forge.ErrForbidden `user should be the site admin`);
// forge.ErrInvalid for a bad name,
// e-mail, visibility or unknown login source; forge.ErrInvalid with reason
// ErrPasswordPolicy `PasswordIsRequired` (Forgejo's message) when a local
// account's password is missing or shorter than Config.MinPasswordLength;
// forge.ErrConflict `user already exists [name: X]` or
// `e-mail already in use [email: X]`.
func (s *Service) CreateUser(ctx context.Context, actor forge.Actor, o CreateUserOptions) (*forge.User, error) {
	if err := operations["adminCreateUser"].Check(actor); err != nil {
		return nil, err
	}
	u, err := s.createUser(ctx, o, false)
	return u.VisibleTo(actor), err
}

// requireAdmin is what every administrator operation checks first, in
// Forgejo's order: the account state, the token scope (level on admin),
// then site-administrator powers.
func requireAdmin(actor forge.Actor, level forge.AccessLevel) error {
	if err := actor.Check(level, forge.CategoryAdmin); err != nil {
		return err
	}
	if !actor.IsSiteAdmin() {
		return forge.Errorf(forge.ErrForbidden, "user should be the site admin")
	}
	return nil
}

// EnsureAdmin creates an administrator from o (o.Admin is implied) unless the
// instance already has one. It reports whether it created one. Hosts call it
// at start-up, without an actor. When an administrator exists it returns at
// once: no password is hashed (nor checked against the password rules).
// Creation checks again in the writing transaction, so concurrent starts
// create one administrator.
func (s *Service) EnsureAdmin(ctx context.Context, o CreateUserOptions) (created bool, err error) {
	var n int64
	err = s.store.View(ctx, func(tx Tx) error {
		var err error
		n, err = countAdmins(ctx, tx)
		return err
	})
	if err != nil || n > 0 {
		return false, err
	}
	o.Admin = true
	_, err = s.createUser(ctx, o, true)
	if errors.Is(err, errAdminExists) {
		return false, nil
	}
	return err == nil, err
}

var errAdminExists = errors.New("an administrator exists")

// ResetPassword sets a new password for the local account called name and
// clears its must-change-password flag. It is a host operation for console
// recovery (forged's -reset-admin-password), without an actor: expose it
// to no one else. Errors: forge.ErrNotFound for an unknown user;
// forge.ErrInvalid with reason ErrPasswordPolicy for a password that breaks
// the rules. It returns the user as stored.
func (s *Service) ResetPassword(ctx context.Context, name, password string) (*forge.User, error) {
	if err := s.checkPassword(password); err != nil {
		return nil, err
	}
	hash, err := s.hashPassword(ctx, password)
	if err != nil {
		return nil, err
	}
	var out *forge.User
	err = s.store.Update(ctx, func(tx Tx) error {
		u, err := tx.UserByName(ctx, name)
		if errors.Is(err, forge.ErrNotFound) {
			return userNotFound(name)
		} else if err != nil {
			return err
		}
		u.MustChangePassword, u.Updated = false, s.clock.Now()
		if err := tx.UpdateUser(ctx, u); err != nil {
			return err
		}
		out = u
		return tx.SetPasswordHash(ctx, u.ID, hash)
	})
	return out, err
}

// createUser validates o and creates the account. onlyFirstAdmin makes it
// return errAdminExists, creating nothing, when an administrator exists.
func (s *Service) createUser(ctx context.Context, o CreateUserOptions, onlyFirstAdmin bool) (*forge.User, error) {
	// Local accounts need a password (Forgejo checks it before the name and
	// answers 400 PasswordIsRequired when it is shorter than the minimum);
	// accounts of an external login source may have none (their password is
	// the source's business).
	if o.LoginSource == 0 && utf8.RuneCountInString(o.Password) < s.minPwd {
		return nil, forge.Reasonf(forge.ErrInvalid, ErrPasswordPolicy, "PasswordIsRequired")
	}
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
	if o.Password != "" {
		if err := s.checkPassword(o.Password); err != nil {
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
	// Cheap checks before the hash: a request that will be refused costs no
	// argon2id computation.
	if err := s.store.View(ctx, func(tx Tx) error { return s.checkCreate(ctx, tx, u, onlyFirstAdmin) }); err != nil {
		return nil, err
	}
	var hash string
	if o.Password != "" {
		var err error
		if hash, err = s.hashPassword(ctx, o.Password); err != nil {
			return nil, err
		}
	}
	err := s.store.Update(ctx, func(tx Tx) error {
		if err := s.checkCreate(ctx, tx, u, onlyFirstAdmin); err != nil {
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

// checkCreate applies the stored-state rules of a new account u.
func (s *Service) checkCreate(ctx context.Context, tx Tx, u *forge.User, onlyFirstAdmin bool) error {
	if err := checkSource(ctx, tx, u.LoginSource); err != nil {
		return err
	}
	if onlyFirstAdmin {
		n, err := countAdmins(ctx, tx)
		if err != nil {
			return err
		}
		if n > 0 {
			return errAdminExists
		}
	}
	return checkFree(ctx, tx, 0, u.Name, u.Email)
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
		// Another user's further address is taken as well.
		owner, err := tx.EmailAddressOwner(ctx, email)
		if err == nil && owner != self {
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

// User returns the user called name as the actor may see it (its fields
// redacted by forge.User.VisibleTo): public users to
// everyone, limited users to signed-in actors, private users to themselves
// and site administrators. Returns forge.ErrNotFound (`user redirect does
// not exist [name: <lower name>]`) otherwise, and forge.ErrForbidden
// `token scope is limited to public users` for a public-only token and a
// user who is not public but whom the actor may see.
func (s *Service) User(ctx context.Context, actor forge.Actor, name string) (*forge.User, error) {
	return s.user(ctx, actor, name, nil)
}

// OrgVisibility is the port Profile asks whether the actor may see an
// organisation's profile (orgs.ProfileVisible, with the actor's
// membership). It is
// trusted: it checks nothing else. The actor it is given never has a
// public-only credential (Profile refuses those after the visibility).
type OrgVisibility interface {
	OrgVisible(ctx context.Context, actor forge.Actor, org *forge.User) (bool, error)
}

// Profile is GET /users/{username} (Forgejo's GetInfo behind
// UserAssignmentAPI): the user or organisation called name as the actor
// may see it, redacted by forge.User.VisibleTo, under read:user alone (an
// organisation too, as Forgejo's route). A user answers to CanSee; an
// organisation to Config.Orgs (Forgejo's IsUserVisibleToViewer: public
// ones to everyone, limited ones to signed-in users who are not
// restricted, private ones to their members who are not restricted, and
// site administrators), to CanSee without it. The
// errors are User's: forge.ErrNotFound for what the actor may not see,
// then forge.ErrForbidden for a public-only token and a user or
// organisation that is not public.
func (s *Service) Profile(ctx context.Context, actor forge.Actor, name string) (*forge.User, error) {
	return s.user(ctx, actor, name, s.orgs)
}

// user is User, and Profile when orgs is set: an organisation is seen by
// orgs' rule.
func (s *Service) user(ctx context.Context, actor forge.Actor, name string, orgs OrgVisibility) (*forge.User, error) {
	if err := actor.Check(forge.AccessRead, forge.CategoryUser); err != nil {
		return nil, err
	}
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
	}
	// The visibility before the public-only refusal, so that a user the
	// actor may not see answers exactly like a missing one (Forgejo
	// answers the public-only 403 first, which tells that the user
	// exists).
	visible := CanSee(actor, u)
	if orgs != nil && u.IsOrganization() {
		seer := actor
		seer.Scope.PublicOnly = false
		if visible, err = orgs.OrgVisible(ctx, seer, u); err != nil {
			return nil, err
		}
	}
	switch {
	case !visible:
		return nil, userNotFound(name)
	case actor.Scoped && actor.Scope.PublicOnly && u.Visibility != forge.VisibilityPublic:
		return nil, forge.Errorf(forge.ErrForbidden, "token scope is limited to public users")
	}
	return u.VisibleTo(actor), nil
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
// total. It lists people only, whatever f says (organisations are listed
// by the organisation service, as Forgejo's GET /admin/users searches
// individuals). The errors of its declared requirement
// (adminSearchUsers: the actor's account state error, forge.ErrForbidden
// unless its credential allows read:admin, `token is required` for an
// anonymous actor, forge.ErrForbidden unless it is a site administrator).
func (s *Service) ListUsers(ctx context.Context, actor forge.Actor, f UserFilter, o forge.ListOptions) ([]*forge.User, int64, error) {
	if err := operations["adminSearchUsers"].Check(actor); err != nil {
		return nil, 0, err
	}
	f.IndividualsOnly = true
	var (
		users []*forge.User
		total int64
	)
	err := s.store.View(ctx, func(tx Tx) error {
		var err error
		users, total, err = tx.ListUsers(ctx, f, o.Normalize())
		return err
	})
	return visibleTo(actor, users), total, err
}

// visibleTo applies forge.User.VisibleTo to each user of list, in place.
func visibleTo(actor forge.Actor, list []*forge.User) []*forge.User {
	for i, u := range list {
		list[i] = u.VisibleTo(actor)
	}
	return list
}

// DeleteUser deletes the account called name and its tokens.
//
// Errors: those of its declared requirement (adminDeleteUser: the actor's
// account state error, `token is required` for an anonymous actor, or
// forge.ErrForbidden unless it is a site administrator whose credential
// allows write:admin);
// forge.ErrNotFound for an unknown user; forge.ErrPrecondition
// `you cannot delete yourself`, reason ErrLastAdmin for the last
// administrator, or `user still has ownership of repositories [uid: N]`
// while the user owns repositories (Forgejo's ErrUserOwnRepos), and
// `user still has membership of organizations [uid: N]` while it is a
// member of an organisation (ErrUserHasOrgs; both 422 in Forgejo);
// forge.ErrInvalid `<name> is an organization not a user` for an
// organisation (deleted through the organisation routes).
func (s *Service) DeleteUser(ctx context.Context, actor forge.Actor, name string) error {
	if err := operations["adminDeleteUser"].Check(actor); err != nil {
		return err
	}
	return s.store.Update(ctx, func(tx Tx) error {
		u, err := tx.UserByName(ctx, name)
		if errors.Is(err, forge.ErrNotFound) {
			return userNotFound(name)
		} else if err != nil {
			return err
		}
		if u.IsOrganization() {
			return forge.Errorf(forge.ErrInvalid, "%s is an organization not a user", u.Name)
		}
		if u.ID == actor.UserID() {
			return forge.Errorf(forge.ErrPrecondition, "you cannot delete yourself")
		}
		admins, err := countAdmins(ctx, tx)
		if err != nil {
			return err
		}
		if err := CheckLastAdmin(u, nil, admins); err != nil {
			return err
		}
		owns, err := tx.OwnsRepositories(ctx, u.ID)
		if err != nil {
			return err
		}
		if owns {
			return forge.Errorf(forge.ErrPrecondition, "user still has ownership of repositories [uid: %d]", u.ID)
		}
		member, err := tx.MemberOfOrgs(ctx, u.ID)
		if err != nil {
			return err
		}
		if member {
			return forge.Errorf(forge.ErrPrecondition, "user still has membership of organizations [uid: %d]", u.ID)
		}
		return tx.DeleteUser(ctx, u.ID)
	})
}

// RenameUser renames the account called name to newName (Forgejo's
// adminRenameUser) and returns it as stored, as the actor may see it.
// Errors: those of its declared requirement (adminRenameUser: the actor's
// account state error, `token is required` for an anonymous actor, or
// forge.ErrForbidden unless it is a site administrator whose credential
// allows write:admin); forge.ErrNotFound for an unknown user;
// forge.ErrInvalid for a bad new name; forge.ErrConflict
// `user already exists [name: X]` when another account has it.
func (s *Service) RenameUser(ctx context.Context, actor forge.Actor, name, newName string) (*forge.User, error) {
	if err := operations["adminRenameUser"].Check(actor); err != nil {
		return nil, err
	}
	if err := ValidateUsername(newName); err != nil {
		return nil, err
	}
	now := s.clock.Now()
	var out *forge.User
	err := s.store.Update(ctx, func(tx Tx) error {
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
		if err := tx.UpdateUser(ctx, u); err != nil {
			return err
		}
		out = u
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out.VisibleTo(actor), nil
}
