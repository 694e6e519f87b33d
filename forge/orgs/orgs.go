package orgs

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/hearthforge/hearth/forge"
)

// CreateOptions are the fields of a new organisation (Forgejo's
// CreateOrgOption).
type CreateOptions struct {
	// Owner is the user who becomes the organisation's first owner: "" is
	// the actor; another name needs a site administrator (POST
	// /admin/users/{username}/orgs).
	Owner string
	// Name follows the user-name rules (forge.CheckUserName).
	Name        string
	FullName    string
	Email       string
	Description string
	Website     string
	Location    string
	// Visibility "" means public.
	Visibility                forge.Visibility
	RepoAdminChangeTeamAccess bool
}

// EditOptions change an organisation (Forgejo's EditOrgOption); nil fields
// are left unchanged. An empty Email removes the e-mail.
type EditOptions struct {
	FullName                  *string
	Email                     *string
	Description               *string
	Website                   *string
	Location                  *string
	Visibility                *forge.Visibility
	RepoAdminChangeTeamAccess *bool
}

// errCreateNotAllowed refuses a user who may not create organisations.
// Forgejo answers 403 with a nil message (`%!s(<nil>)`, a bug); Hearth
// with the title Forgejo gives the error.
var errCreateNotAllowed = forge.Errorf(forge.ErrForbidden, "Create organization not allowed")

// canCreateOrg is Forgejo's User.CanCreateOrganization.
func (s *Service) canCreateOrg(u *forge.User) bool {
	return u.IsAdmin || u.AllowCreateOrganization && !s.cfg.DisableRegularOrgCreation
}

// checkCreate checks the fields of a new organisation with Forgejo's
// binding rules and name rules.
func checkCreate(o CreateOptions) error {
	switch {
	case o.Name == "":
		return forge.Errorf(forge.ErrInvalid, "[UserName]: Required")
	case len(o.Name) > forge.MaxUserNameLength:
		return forge.Errorf(forge.ErrInvalid, "[UserName]: MaxSize")
	}
	if err := forge.CheckUserName(o.Name); err != nil {
		return err
	}
	if err := checkMaxSize("Email", o.Email, 255); err != nil {
		return err
	}
	if err := checkProfile(&o.FullName, &o.Description, &o.Website, &o.Location); err != nil {
		return err
	}
	return checkVisibility(o.Visibility)
}

// userExists is Forgejo's ErrUserAlreadyExist for a taken account name.
func userExists(name string) error {
	return forge.Errorf(forge.ErrInvalid, "user already exists [name: %s]", name)
}

// Create creates an organisation owned by opts.Owner (or the actor), with
// its Owners team (owner access to every unit, every repository, may
// create repositories) holding the owner as a concealed member. Needs
// write:organization and a signed-in actor (forge.ErrUnauthenticated
// `token is required`) allowed to create organisations (site
// administrators always; others when AllowCreateOrganization and not
// Config.DisableRegularOrgCreation: forge.ErrForbidden otherwise). Another
// Owner than the actor needs write:admin and a site administrator
// (forge.ErrForbidden `user should be the site admin`), must be an
// existing user (*NotFoundError) allowed to create organisations
// (forge.ErrForbidden `user is not allowed to create organizations`).
// forge.ErrInvalid for invalid fields and names (Forgejo's messages: `name
// is reserved [name: x]`, `user already exists [name: x]`…). Nothing is
// stored on error.
func (s *Service) Create(ctx context.Context, actor forge.Actor, opts CreateOptions) (*forge.User, error) {
	if opts.Owner != "" {
		if err := operations["adminCreateOrg"].Check(actor); err != nil {
			return nil, err
		}
	} else {
		if err := operations["orgCreate"].Check(actor); err != nil {
			return nil, err
		}
		if !s.canCreateOrg(actor.User) {
			return nil, errCreateNotAllowed
		}
	}
	if err := checkCreate(opts); err != nil {
		return nil, err
	}
	now := s.clock.Now()
	var out *forge.User
	err := s.store.Update(ctx, func(tx Tx) error {
		owner := actor.User
		if opts.Owner != "" {
			u, err := loadUser(ctx, tx, actor, opts.Owner)
			if err != nil {
				return err
			}
			if u.IsOrganization() {
				return forge.Errorf(forge.ErrInvalid, "%s is an organization not a user", u.Name)
			}
			if !s.canCreateOrg(u) {
				return forge.Errorf(forge.ErrForbidden, "user is not allowed to create organizations")
			}
			owner = u
		}
		if _, err := tx.UserByName(ctx, opts.Name); err == nil {
			return userExists(opts.Name)
		} else if !errors.Is(err, forge.ErrNotFound) {
			return err
		}
		org := &forge.User{
			Type: forge.UserTypeOrganization, Name: opts.Name, FullName: opts.FullName, Email: opts.Email,
			Description: opts.Description, Website: opts.Website, Location: opts.Location,
			Visibility: opts.Visibility, RepoAdminChangeTeamAccess: opts.RepoAdminChangeTeamAccess,
			IsActive: true, MaxRepoCreation: -1, Created: now, Updated: now,
		}
		if org.Visibility == "" {
			org.Visibility = forge.VisibilityPublic
		}
		if err := tx.CreateOrg(ctx, org); errors.Is(err, forge.ErrConflict) {
			return userExists(opts.Name)
		} else if err != nil {
			return err
		}
		team := &forge.Team{OrgID: org.ID, Name: forge.OwnersTeam, Mode: forge.AccessModeOwner,
			Units: OwnerUnits(), IncludesAllRepos: true, CanCreateOrgRepo: true}
		if err := tx.CreateTeam(ctx, team); err != nil {
			return err
		}
		if err := tx.SetMember(ctx, forge.Membership{OrgID: org.ID, UserID: owner.ID}); err != nil {
			return err
		}
		if err := tx.AddTeamMember(ctx, team.ID, owner.ID); err != nil {
			return err
		}
		var err error
		out, err = tx.UserByID(ctx, org.ID)
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// Get returns the organisation named org as the actor sees it
// (OrgVisibleTo: the e-mail is blanked for anonymous actors, as Forgejo's
// GET /orgs/{org}; Hearth's lists apply the same rule, Forgejo's do not). Needs read:organization. A *NotFoundError for a missing
// organisation, a user that is no organisation, and an organisation the
// actor may not see (Visible).
func (s *Service) Get(ctx context.Context, actor forge.Actor, org string) (*forge.User, error) {
	if err := operations["orgGet"].Check(actor); err != nil {
		return nil, err
	}
	var out *forge.User
	err := s.store.View(ctx, func(tx Tx) error {
		v, err := loadOrg(ctx, tx, actor, org)
		if err != nil {
			return err
		}
		out = v.org
		return nil
	})
	if err != nil {
		return nil, err
	}
	return OrgVisibleTo(actor, out), nil
}

// updateOrg runs change on the organisation named org inside one Update,
// for an owner (or site administrator) whose credential allows
// write:organization, and stores it. change may refuse with an error; it
// validates its input first, so that, as in Forgejo (where binding runs
// after the middlewares), the account state, the scope, the
// organisation's visibility and ownership are checked before the input.
func (s *Service) updateOrg(ctx context.Context, actor forge.Actor, op, org string, change func(tx Tx, v *orgView, now time.Time) error) (*forge.User, error) {
	if err := operations[op].Check(actor); err != nil {
		return nil, err
	}
	now := s.clock.Now()
	var out *forge.User
	err := s.store.Update(ctx, func(tx Tx) error {
		v, err := loadOrgFor(ctx, tx, actor, org, needOwner)
		if err != nil {
			return err
		}
		if err := change(tx, v, now); err != nil {
			return err
		}
		v.org.Updated = now
		if err := tx.UpdateOrg(ctx, v.org); err != nil {
			return err
		}
		out, err = tx.UserByID(ctx, v.org.ID)
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// Edit changes an organisation's fields and returns it. Needs
// write:organization and an owner (or site administrator):
// forge.ErrForbidden `Must be an organization owner`. forge.ErrInvalid for
// an invalid visibility, e-mail or field (Forgejo's binding messages).
func (s *Service) Edit(ctx context.Context, actor forge.Actor, org string, opts EditOptions) (*forge.User, error) {
	return s.updateOrg(ctx, actor, "orgEdit", org, func(_ Tx, v *orgView, _ time.Time) error {
		if err := checkEdit(opts); err != nil {
			return err
		}
		o := v.org
		set(&o.FullName, opts.FullName)
		set(&o.Email, opts.Email)
		set(&o.Description, opts.Description)
		set(&o.Website, opts.Website)
		set(&o.Location, opts.Location)
		set(&o.RepoAdminChangeTeamAccess, opts.RepoAdminChangeTeamAccess)
		if opts.Visibility != nil && *opts.Visibility != "" {
			o.Visibility = *opts.Visibility
		}
		return nil
	})
}

// checkEdit checks the fields of an edit with Forgejo's binding rules.
func checkEdit(opts EditOptions) error {
	if err := checkProfile(opts.FullName, opts.Description, opts.Website, opts.Location); err != nil {
		return err
	}
	if opts.Visibility != nil {
		if err := checkVisibility(*opts.Visibility); err != nil {
			return err
		}
	}
	if opts.Email != nil && *opts.Email != "" {
		return checkEmail(*opts.Email)
	}
	return nil
}

// set stores *v in dst when v is not nil.
func set[T any](dst *T, v *T) {
	if v != nil {
		*dst = *v
	}
}

// Delete removes an organisation with its teams, memberships and blocks.
// Needs write:organization and an owner. Refused while it owns
// repositories: forge.ErrPrecondition `user still has ownership of
// repositories [uid: N]` (Forgejo's error, which its API answers with a
// 500; Hearth with 422).
func (s *Service) Delete(ctx context.Context, actor forge.Actor, org string) error {
	if err := operations["orgDelete"].Check(actor); err != nil {
		return err
	}
	var avatar string
	err := s.store.Update(ctx, func(tx Tx) error {
		v, err := loadOrgFor(ctx, tx, actor, org, needOwner)
		if err != nil {
			return err
		}
		owns, err := tx.OwnsRepositories(ctx, v.org.ID)
		if err != nil {
			return err
		}
		if owns {
			return forge.Errorf(forge.ErrPrecondition, "user still has ownership of repositories [uid: %d]", v.org.ID)
		}
		avatar = v.org.Avatar
		return tx.DeleteOrg(ctx, v.org.ID)
	})
	if err == nil && avatar != "" && s.cfg.Blobs != nil {
		if err := s.cfg.Blobs.Delete(ctx, avatar); err != nil {
			s.log.DebugContext(ctx, "organisation avatar not deleted", "key", avatar, "err", err)
		}
	}
	return err
}

// Rename renames an organisation (POST /orgs/{org}/rename) and returns it.
// Needs write:organization and an owner. forge.ErrInvalid for an invalid
// new name (`[NewName]: Required`, Forgejo's name messages) or one taken
// by any account (`user already exists [name: x]`); a name differing only
// in case is allowed, the same name changes nothing.
func (s *Service) Rename(ctx context.Context, actor forge.Actor, org, newName string) (*forge.User, error) {
	return s.updateOrg(ctx, actor, "renameOrg", org, func(tx Tx, v *orgView, _ time.Time) error {
		if err := checkNewName(newName); err != nil {
			return err
		}
		if !strings.EqualFold(newName, v.org.Name) {
			if _, err := tx.UserByName(ctx, newName); err == nil {
				return userExists(newName)
			} else if !errors.Is(err, forge.ErrNotFound) {
				return err
			}
		}
		v.org.Name = newName
		return nil
	})
}

// checkNewName checks the new name of a rename with Forgejo's binding
// (Required;MaxSize(40)) and name rules.
func checkNewName(name string) error {
	switch {
	case name == "":
		return forge.Errorf(forge.ErrInvalid, "[NewName]: Required")
	case len(name) > forge.MaxUserNameLength:
		return forge.Errorf(forge.ErrInvalid, "[NewName]: MaxSize")
	}
	return forge.CheckUserName(name)
}

// List returns one page of the organisations the actor may list (GET
// /orgs), ordered by name: public ones for anonymous actors and
// public-only tokens, public and limited ones for signed-in users, every
// one for site administrators (ListVisibilities); restricted users only
// those of them they are members of, as Forgejo's user search. No scope
// is checked (Forgejo's route never checks it); the account state is.
func (s *Service) List(ctx context.Context, actor forge.Actor, o forge.ListOptions) ([]*forge.User, int64, error) {
	if err := operations["orgGetAll"].Check(actor); err != nil {
		return nil, 0, err
	}
	return s.listOrgs(ctx, actor, OrgFilter{Visibilities: ListVisibilities(actor), ViewerMemberID: restrictedViewer(actor)}, o)
}

// listOrgs lists organisations for the actor (OrgVisibleTo).
func (s *Service) listOrgs(ctx context.Context, actor forge.Actor, f OrgFilter, o forge.ListOptions) ([]*forge.User, int64, error) {
	var (
		list  []*forge.User
		total int64
	)
	err := s.store.View(ctx, func(tx Tx) error {
		var err error
		list, total, err = tx.ListOrgs(ctx, f, o.Normalize())
		return err
	})
	orgsVisibleTo(actor, list)
	return list, total, err
}

// ListAll returns one page of every organisation ordered by name (GET
// /admin/orgs). Needs read:admin and a site administrator
// (forge.ErrForbidden `user should be the site admin`).
func (s *Service) ListAll(ctx context.Context, actor forge.Actor, o forge.ListOptions) ([]*forge.User, int64, error) {
	if err := operations["adminGetAllOrgs"].Check(actor); err != nil {
		return nil, 0, err
	}
	return s.listOrgs(ctx, actor, OrgFilter{}, o)
}

// userOrgsFilter is Forgejo's listUserOrgs: the actor sees every
// organisation of the user when it is the user or a site administrator
// (not through a public-only token), otherwise the public organisations
// the user is a public member of; a restricted actor only those of them it
// is a member of (it may see no other).
func userOrgsFilter(actor forge.Actor, userID forge.ID) OrgFilter {
	all := actor.IsSignedIn() && (actor.IsSiteAdmin() || actor.UserID() == userID) &&
		!(actor.Scoped && actor.Scope.PublicOnly)
	if all {
		return OrgFilter{MemberID: userID}
	}
	return OrgFilter{MemberID: userID, PublicMember: true, Visibilities: []forge.Visibility{forge.VisibilityPublic},
		ViewerMemberID: restrictedViewer(actor)}
}

// ListForUser returns one page of the organisations of the user named user
// (GET /users/{username}/orgs) that the actor may see (userOrgsFilter),
// ordered by name. Needs read:user and read:organization. A
// *NotFoundError for an unknown user.
func (s *Service) ListForUser(ctx context.Context, actor forge.Actor, user string, o forge.ListOptions) ([]*forge.User, int64, error) {
	// The scope only: Forgejo's reqToken of the route is the API's
	// (orgListUserOrgs); an anonymous caller here sees the public side.
	if err := actor.Check(forge.AccessRead, forge.CategoryUser, forge.CategoryOrganization); err != nil {
		return nil, 0, err
	}
	var (
		list  []*forge.User
		total int64
	)
	err := s.store.View(ctx, func(tx Tx) error {
		u, err := loadUser(ctx, tx, actor, user)
		if err != nil {
			return err
		}
		if !u.IsOrganization() && !UserVisible(actor, u) {
			return &NotFoundError{Name: user}
		}
		list, total, err = tx.ListOrgs(ctx, userOrgsFilter(actor, u.ID), o.Normalize())
		return err
	})
	orgsVisibleTo(actor, list)
	return list, total, err
}

// ListMine returns one page of the actor's organisations (GET /user/orgs),
// ordered by name. Needs a signed-in actor, read:user and
// read:organization.
func (s *Service) ListMine(ctx context.Context, actor forge.Actor, o forge.ListOptions) ([]*forge.User, int64, error) {
	if err := operations["orgListCurrentUserOrgs"].Check(actor); err != nil {
		return nil, 0, err
	}
	return s.listOrgs(ctx, actor, userOrgsFilter(actor, actor.UserID()), o)
}

// Permissions is what a user may do in an organisation (Forgejo's
// OrganizationPermissions).
type Permissions struct {
	IsOwner             bool
	IsAdmin             bool
	CanWrite            bool
	CanRead             bool
	CanCreateRepository bool
}

// Permissions returns the permissions of the user named user in org (GET
// /users/{username}/orgs/{org}/permissions) from its teams
// (OrgPermissions). Needs a signed-in actor, read:user and
// read:organization. A *NotFoundError for an unknown user or
// organisation, and for an organisation the user (Forgejo's rule) or the
// actor may not see.
func (s *Service) Permissions(ctx context.Context, actor forge.Actor, user, org string) (Permissions, error) {
	if err := operations["orgGetUserPermissions"].Check(actor); err != nil {
		return Permissions{}, err
	}
	var p Permissions
	err := s.store.View(ctx, func(tx Tx) error {
		u, err := loadUser(ctx, tx, actor, user)
		if err != nil {
			return err
		}
		if !u.IsOrganization() && !UserVisible(actor, u) {
			return &NotFoundError{Name: user}
		}
		v, err := loadOrg(ctx, tx, actor, org)
		if err != nil {
			return err
		}
		member, err := isMember(ctx, tx, v.org.ID, u.ID)
		if err != nil {
			return err
		}
		if !Visible(forge.Actor{User: u}, v.org, member) {
			return &NotFoundError{Name: org}
		}
		teams, err := all(func(o forge.ListOptions) ([]*forge.Team, int64, error) {
			return tx.ListTeams(ctx, TeamFilter{OrgID: v.org.ID, MemberID: u.ID}, o)
		})
		if err != nil {
			return err
		}
		p = OrgPermissions(teams)
		return nil
	})
	return p, err
}

// MemberRole tells other domains who the actor is in org: the
// organisation, whether the actor owns it (site administrators count as
// owners) and whether the actor is a member. A *NotFoundError
// (forge.ErrNotFound) for a missing organisation and one the actor may
// not see. It checks the actor's account state, not its token scope (the
// caller checks its own).
func (s *Service) MemberRole(ctx context.Context, actor forge.Actor, org string) (o *forge.User, owner, member bool, err error) {
	if err := actor.CheckState(); err != nil {
		return nil, false, false, err
	}
	var v *orgView
	err = s.store.View(ctx, func(tx Tx) error {
		var err error
		v, err = loadOrg(ctx, tx, actor, org)
		return err
	})
	if err != nil {
		return nil, false, false, err
	}
	return v.org, v.canOwn(), v.member, nil
}
