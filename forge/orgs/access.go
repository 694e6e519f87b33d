package orgs

import (
	"context"
	"errors"
	"strings"

	"github.com/hearthforge/hearth/forge"
)

// Refusals with Forgejo's messages (its API middlewares reqToken,
// reqSiteAdmin, reqOrgOwnership, reqOrgMembership, reqTeamMembership).
var (
	errTokenRequired = forge.Errorf(forge.ErrUnauthenticated, "token is required")
	errSiteAdmin     = forge.Errorf(forge.ErrForbidden, "user should be the site admin")
	// ErrMustBeOwner refuses an action reserved to the organisation's
	// owners.
	ErrMustBeOwner = forge.Errorf(forge.ErrForbidden, "Must be an organization owner")
	// ErrMustBeMember refuses an action reserved to its members.
	ErrMustBeMember = forge.Errorf(forge.ErrForbidden, "Must be an organization member")
	// ErrMustBeTeamMember refuses a team route to an organisation member
	// who is not in the team.
	ErrMustBeTeamMember = forge.Errorf(forge.ErrForbidden, "Must be a team member")
	// ErrTeamNotFound is a team that does not exist or that the actor may
	// not see (Forgejo's bare 404).
	ErrTeamNotFound = forge.Errorf(forge.ErrNotFound, "The target couldn't be found.")
	// ErrNotOrgRepo refuses the /repos/{owner}/{repo}/teams routes for a
	// repository a user owns. Forgejo answers it with 405: the handler
	// maps it (errors.Is).
	ErrNotOrgRepo = forge.Errorf(forge.ErrInvalid, "repo is not owned by an organization")
)

// NotFoundError is a user or organisation name that names nothing the
// actor may see (Forgejo's 404 `user redirect does not exist [name: x]`).
// Organisations the actor may not see answer with it exactly as missing
// ones.
type NotFoundError struct{ Name string }

func (e *NotFoundError) Error() string {
	return "user redirect does not exist [name: " + strings.ToLower(e.Name) + "]"
}

// Is makes it a forge.ErrNotFound.
func (e *NotFoundError) Is(target error) bool { return target == forge.ErrNotFound }

// orgView is an organisation and who the actor is in it.
type orgView struct {
	org    *forge.User
	member bool
	// owner: a member of the Owners team.
	owner bool
	// admin: a site administrator (whose credential allows it).
	admin bool
}

// canOwn reports whether the actor may do what owners do.
func (v *orgView) canOwn() bool { return v.owner || v.admin }

// requireOwner is Forgejo's reqOrgOwnership on /orgs/{org}.
func (v *orgView) requireOwner() error {
	if v.canOwn() {
		return nil
	}
	return ErrMustBeOwner
}

// requireMember is Forgejo's reqOrgMembership on /orgs/{org}.
func (v *orgView) requireMember() error {
	if v.member || v.admin {
		return nil
	}
	return ErrMustBeMember
}

// loadOrg resolves the organisation named name for the actor: forge's
// account name, an organisation, visible to the actor (Visible); a
// *NotFoundError otherwise.
func loadOrg(ctx context.Context, tx Tx, actor forge.Actor, name string) (*orgView, error) {
	u, err := tx.UserByName(ctx, name)
	if errors.Is(err, forge.ErrNotFound) || err == nil && !u.IsOrganization() {
		return nil, &NotFoundError{Name: name}
	} else if err != nil {
		return nil, err
	}
	v, visible, err := seen(ctx, tx, actor, u)
	if err != nil {
		return nil, err
	}
	if !visible {
		return nil, &NotFoundError{Name: name}
	}
	return v, nil
}

// need is what a route requires of the actor in an organisation once it
// is found and seen: Forgejo's reqToken, then reqOrgMembership or
// reqOrgOwnership.
type need int

const (
	needSignedIn need = iota
	needMember
	needOwner
)

// loadOrgFor is loadOrg then what the route needs: errTokenRequired for
// anonymous actors, ErrMustBeMember, ErrMustBeOwner (site administrators
// pass both).
func loadOrgFor(ctx context.Context, tx Tx, actor forge.Actor, name string, n need) (*orgView, error) {
	v, err := loadOrg(ctx, tx, actor, name)
	if err != nil {
		return nil, err
	}
	if err := signedIn(actor); err != nil {
		return nil, err
	}
	switch n {
	case needMember:
		err = v.requireMember()
	case needOwner:
		err = v.requireOwner()
	}
	if err != nil {
		return nil, err
	}
	return v, nil
}

// seen returns who the actor is in org and whether the actor may see it
// (Visible).
func seen(ctx context.Context, tx Tx, actor forge.Actor, org *forge.User) (*orgView, bool, error) {
	v, err := roleIn(ctx, tx, actor, org)
	if err != nil {
		return nil, false, err
	}
	return v, Visible(actor, org, v.member), nil
}

// roleIn finds who the actor is in org.
func roleIn(ctx context.Context, tx Tx, actor forge.Actor, org *forge.User) (*orgView, error) {
	v := &orgView{org: org, admin: actor.IsSiteAdmin()}
	if !actor.IsSignedIn() {
		return v, nil
	}
	var err error
	if v.member, err = isMember(ctx, tx, org.ID, actor.UserID()); err != nil || !v.member {
		return v, err
	}
	v.owner, err = isOwner(ctx, tx, org.ID, actor.UserID())
	return v, err
}

// isMember reports whether the user is a member of the organisation.
func isMember(ctx context.Context, tx Tx, orgID, userID forge.ID) (bool, error) {
	_, err := tx.Member(ctx, orgID, userID)
	if errors.Is(err, forge.ErrNotFound) {
		return false, nil
	}
	return err == nil, err
}

// ownersTeam returns the organisation's Owners team; nil if it has none
// (only an inconsistent store has none).
func ownersTeam(ctx context.Context, tx Tx, orgID forge.ID) (*forge.Team, error) {
	t, err := tx.TeamByName(ctx, orgID, forge.OwnersTeam)
	if errors.Is(err, forge.ErrNotFound) || err == nil && !t.IsOwners() {
		return nil, nil
	}
	return t, err
}

// isOwner reports whether the user is in the organisation's Owners team
// (Forgejo's IsOrganizationOwner).
func isOwner(ctx context.Context, tx Tx, orgID, userID forge.ID) (bool, error) {
	t, err := ownersTeam(ctx, tx, orgID)
	if err != nil || t == nil {
		return false, err
	}
	return tx.IsTeamMember(ctx, t.ID, userID)
}

// loadUser resolves an account named by a route ({username}) for the
// actor: a *NotFoundError if there is none, and for an organisation the
// actor may not see (Visible), so that no answer (`x is an organization
// not a user`, a canonical name in a redirect) tells a hidden
// organisation from a missing name.
func loadUser(ctx context.Context, tx Tx, actor forge.Actor, name string) (*forge.User, error) {
	u, err := tx.UserByName(ctx, name)
	if errors.Is(err, forge.ErrNotFound) {
		return nil, &NotFoundError{Name: name}
	} else if err != nil || !u.IsOrganization() {
		return u, err
	}
	_, visible, err := seen(ctx, tx, actor, u)
	switch {
	case err != nil:
		return nil, err
	case !visible:
		return nil, &NotFoundError{Name: name}
	}
	return u, nil
}

// teamView is a team, its organisation and who the actor is in them.
type teamView struct {
	*orgView
	team       *forge.Team
	teamMember bool
}

// loadTeam resolves team id for the actor as Forgejo's /teams/{id} routes
// do (reqToken, orgAssignment then reqTeamMembership): anonymous actors
// get errTokenRequired, whatever the id (so that no answer tells which
// ids exist); site administrators, owners of its organisation and the
// team's members pass; other members of the organisation get
// ErrMustBeTeamMember; everyone else ErrTeamNotFound, as for a missing
// team. Public-only tokens see teams of public organisations only.
func loadTeam(ctx context.Context, tx Tx, actor forge.Actor, id forge.ID) (*teamView, error) {
	if err := signedIn(actor); err != nil {
		return nil, err
	}
	t, err := tx.Team(ctx, id)
	if errors.Is(err, forge.ErrNotFound) {
		return nil, ErrTeamNotFound
	} else if err != nil {
		return nil, err
	}
	org, err := tx.UserByID(ctx, t.OrgID)
	if errors.Is(err, forge.ErrNotFound) {
		return nil, ErrTeamNotFound
	} else if err != nil {
		return nil, err
	}
	ov, visible, err := seen(ctx, tx, actor, org)
	if err != nil {
		return nil, err
	}
	v := &teamView{orgView: ov, team: t}
	if actor.IsSignedIn() {
		if v.teamMember, err = tx.IsTeamMember(ctx, t.ID, actor.UserID()); err != nil {
			return nil, err
		}
	}
	switch {
	case !visible:
		return nil, ErrTeamNotFound
	case v.canOwn() || v.teamMember:
		return v, nil
	case v.member:
		return nil, ErrMustBeTeamMember
	}
	return nil, ErrTeamNotFound
}

// requireOwner is Forgejo's reqOrgOwnership reached through a team: 404
// for those who are not owners.
func (v *teamView) requireOwner() error {
	if v.canOwn() {
		return nil
	}
	return ErrTeamNotFound
}

// signedIn is Forgejo's reqToken.
func signedIn(actor forge.Actor) error {
	if !actor.IsSignedIn() {
		return errTokenRequired
	}
	return nil
}

func isNotFound(err error) bool { return errors.Is(err, forge.ErrNotFound) }

// Visibility answers whether an actor may see an organisation's profile
// (ProfileVisible, with the actor's membership read from the store when
// the rule needs it), for auth.Service.Profile (auth.Config.Orgs): a
// trusted port that checks nothing else, for the composition root.
type Visibility struct{ store Store }

// NewVisibility returns the Visibility of store.
func NewVisibility(store Store) Visibility { return Visibility{store: store} }

// OrgVisible reports whether actor may see org's profile
// (ProfileVisible); one read transaction when the answer depends on the
// actor's membership, none otherwise.
func (v Visibility) OrgVisible(ctx context.Context, actor forge.Actor, org *forge.User) (bool, error) {
	// Membership decides only when a member would see it and a
	// non-member would not.
	if asStranger := ProfileVisible(actor, org, false); asStranger || !ProfileVisible(actor, org, true) {
		return asStranger, nil
	}
	var member bool
	err := v.store.View(ctx, func(tx Tx) error {
		var err error
		member, err = isMember(ctx, tx, org.ID, actor.UserID())
		return err
	})
	return member, err
}
