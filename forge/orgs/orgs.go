package orgs

import (
	"context"
	"errors"

	"github.com/hearthforge/hearth/forge"
)

var errTodo = errors.New("orgs: not implemented yet")

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
// are left unchanged.
type EditOptions struct {
	FullName                  *string
	Email                     *string
	Description               *string
	Website                   *string
	Location                  *string
	Visibility                *forge.Visibility
	RepoAdminChangeTeamAccess *bool
}

// Create creates an organisation owned by opts.Owner (or the actor), with
// its Owners team holding the owner. Needs write:organization; the actor
// must be signed in (forge.ErrUnauthenticated) and allowed to create
// organisations (site administrators always; others when
// AllowCreateOrganization and not Config.DisableRegularOrgCreation:
// forge.ErrForbidden otherwise). Another Owner than the actor needs a site
// administrator (forge.ErrForbidden `user should be the site admin`) and
// must be an existing user (forge.ErrNotFound), not an organisation.
// forge.ErrInvalid for invalid names and fields (Forgejo's messages:
// `name is reserved [name: x]`, `user already exists [name: x]`…).
func (s *Service) Create(ctx context.Context, actor forge.Actor, opts CreateOptions) (*forge.User, error) {
	return nil, errTodo
}

// Get returns the organisation named org as the actor sees it: the e-mail
// is blanked for anonymous actors (Forgejo's GET /orgs/{org}). Needs
// read:organization. forge.ErrNotFound (*NotFoundError) for a missing
// organisation, a user that is no organisation, and an organisation the
// actor may not see (Visible).
func (s *Service) Get(ctx context.Context, actor forge.Actor, org string) (*forge.User, error) {
	return nil, errTodo
}

// Edit changes an organisation's fields and returns it. Needs
// write:organization and an owner (or site administrator):
// forge.ErrForbidden `Must be an organization owner`. forge.ErrInvalid for
// an invalid visibility or field.
func (s *Service) Edit(ctx context.Context, actor forge.Actor, org string, opts EditOptions) (*forge.User, error) {
	return nil, errTodo
}

// Delete removes an organisation with its teams, memberships and blocks.
// Needs write:organization and an owner. Refused while it owns
// repositories: forge.ErrInvalid (Forgejo's 422 `organization still has
// ownership of repositories [uid: N]`).
func (s *Service) Delete(ctx context.Context, actor forge.Actor, org string) error {
	return errTodo
}

// Rename renames an organisation (POST /orgs/{org}/rename) and returns it.
// Needs write:organization and an owner. forge.ErrInvalid for an invalid
// new name or one taken by any account (Forgejo's messages); renaming to
// the same name differing only in case is allowed.
func (s *Service) Rename(ctx context.Context, actor forge.Actor, org, newName string) (*forge.User, error) {
	return nil, errTodo
}

// List returns one page of the organisations the actor may list (GET
// /orgs): public ones for anonymous actors and public-only tokens, public
// and limited ones for signed-in users, every one for site
// administrators. No scope is checked (Forgejo's route never checks it).
func (s *Service) List(ctx context.Context, actor forge.Actor, o forge.ListOptions) ([]*forge.User, int64, error) {
	return nil, 0, errTodo
}

// ListAll returns one page of every organisation (GET /admin/orgs). Needs
// read:admin and a site administrator (forge.ErrForbidden `user should be
// the site admin`).
func (s *Service) ListAll(ctx context.Context, actor forge.Actor, o forge.ListOptions) ([]*forge.User, int64, error) {
	return nil, 0, errTodo
}

// ListForUser returns one page of the organisations of the user named user
// (GET /users/{username}/orgs) that the actor may see: the user's public
// memberships, and every membership when the actor is the user or a site
// administrator. Needs read:user and read:organization. forge.ErrNotFound
// for an unknown user.
func (s *Service) ListForUser(ctx context.Context, actor forge.Actor, user string, o forge.ListOptions) ([]*forge.User, int64, error) {
	return nil, 0, errTodo
}

// ListMine returns one page of the actor's organisations (GET /user/orgs).
// Needs a signed-in actor, read:user and read:organization.
func (s *Service) ListMine(ctx context.Context, actor forge.Actor, o forge.ListOptions) ([]*forge.User, int64, error) {
	return nil, 0, errTodo
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
// /users/{username}/orgs/{org}/permissions). Needs read:user and
// read:organization. forge.ErrNotFound for an unknown user, and for an
// organisation the actor or the user may not see.
func (s *Service) Permissions(ctx context.Context, actor forge.Actor, user, org string) (Permissions, error) {
	return Permissions{}, errTodo
}

// MemberRole tells other domains who the actor is in org: the
// organisation, whether the actor owns it (site administrators count as
// owners) and whether the actor is a member. forge.ErrNotFound for a
// missing organisation and one the actor may not see. It checks the
// actor's account state, not its token scope (the caller checks its own).
func (s *Service) MemberRole(ctx context.Context, actor forge.Actor, org string) (o *forge.User, owner, member bool, err error) {
	return nil, false, false, errTodo
}
