package orgs

import (
	"net/mail"
	"net/url"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/hearthforge/hearth/forge"
)

// Visible is who may see an organisation (Forgejo's HasOrgOrUserVisible,
// with public-only tokens limited to public organisations): public ones
// everyone; limited ones signed-in users; private ones their members and
// site administrators. Restricted users see only the organisations they
// are members of. member tells whether the actor is a member of org.
func Visible(actor forge.Actor, org *forge.User, member bool) bool {
	public := org.Visibility == forge.VisibilityPublic || org.Visibility == ""
	switch {
	case actor.Scoped && actor.Scope.PublicOnly:
		return public
	case !actor.IsSignedIn():
		return public
	case actor.IsSiteAdmin() || actor.UserID() == org.ID || member:
		return true
	case actor.User.Restricted || org.Visibility == forge.VisibilityPrivate:
		return false
	}
	return true
}

// ProfileVisible is who may see an organisation's profile under
// /users/{username} (Forgejo's IsUserVisibleToViewer, which that route
// applies rather than Visible): site administrators and the organisation
// itself always; public ones everyone, restricted users and anonymous
// actors included; limited ones signed-in users who are not restricted;
// private ones their members who are not restricted. member tells whether
// the actor is a member of org. Public-only tokens are the caller's rule.
func ProfileVisible(actor forge.Actor, org *forge.User, member bool) bool {
	switch {
	case actor.IsSiteAdmin() || actor.IsSignedIn() && actor.UserID() == org.ID:
		return true
	case org.Visibility == forge.VisibilityPublic || org.Visibility == "":
		return true
	case !actor.IsSignedIn() || actor.User.Restricted:
		return false
	case org.Visibility == forge.VisibilityLimited:
		return true
	}
	return member
}

// UserVisible is who may see an individual user under /users/{username}
// (Forgejo's individualPermsChecker, with public-only tokens limited to
// public users as its checkTokenPublicOnly): public users everyone;
// limited ones signed-in users; private ones themselves and site
// administrators. Organisations answer to Visible instead.
func UserVisible(actor forge.Actor, u *forge.User) bool {
	switch {
	case u.Visibility == forge.VisibilityPublic || u.Visibility == "":
		return true
	case actor.Scoped && actor.Scope.PublicOnly:
		return false
	case u.Visibility == forge.VisibilityLimited:
		return actor.IsSignedIn()
	}
	return actor.IsSiteAdmin() || actor.UserID() == u.ID
}

// ListVisibilities is the visibility filter of GET /orgs (Forgejo's
// GetAll): public organisations for anonymous actors and public-only
// tokens, public and limited ones for signed-in users, and private ones
// too for site administrators.
func ListVisibilities(actor forge.Actor) []forge.Visibility {
	v := []forge.Visibility{forge.VisibilityPublic}
	if actor.IsSignedIn() && !(actor.Scoped && actor.Scope.PublicOnly) {
		v = append(v, forge.VisibilityLimited)
		if actor.IsSiteAdmin() {
			v = append(v, forge.VisibilityPrivate)
		}
	}
	return v
}

// restrictedViewer is the user a restricted actor is: such an actor sees
// only the organisations it is a member of (Forgejo's HasOrgOrUserVisible
// and its user search), so lists keep those (OrgFilter.ViewerMemberID).
// 0 for every other actor.
func restrictedViewer(actor forge.Actor) forge.ID {
	if actor.IsSignedIn() && actor.User.Restricted && !actor.IsSiteAdmin() {
		return actor.UserID()
	}
	return 0
}

// PublicMembersOnly reports whether the actor sees only the public members
// of an organisation (Forgejo's FindOrgMembersOpts.PublicOnly): everyone
// but its members and site administrators.
func PublicMembersOnly(actor forge.Actor, member bool) bool {
	return !(member || actor.IsSiteAdmin())
}

// CheckMember answers GET /orgs/{org}/members/{username} as Forgejo's
// orgIsMember: members and site administrators learn whether the user is a
// member; a non-member asking about themself learns they are not; anyone
// else is sent to the public membership check.
func CheckMember(actor forge.Actor, actorMember, self, targetMember bool) MemberAnswer {
	switch {
	case !actor.IsSignedIn():
		return AskPublic
	case actorMember || actor.IsSiteAdmin():
		if targetMember {
			return IsAMember
		}
		return NotAMember
	case self:
		return NotAMember
	}
	return AskPublic
}

// ParseAccessMode reads a team permission as Forgejo's
// perm.ParseAccessMode: "read", "write" and "admin"; anything else
// (including "owner") is none.
func ParseAccessMode(s string) forge.AccessMode {
	switch s {
	case "read":
		return forge.AccessModeRead
	case "write":
		return forge.AccessModeWrite
	case "admin":
		return forge.AccessModeAdmin
	}
	return forge.AccessNone
}

// MinUnitAccessMode is the smallest access above none among units
// (external units excluded: they only ever have read), none if there is
// none (Forgejo's unit.MinUnitAccessMode).
func MinUnitAccessMode(units map[forge.Unit]forge.AccessMode) forge.AccessMode {
	res := forge.AccessNone
	for u, m := range units {
		if u.External() {
			continue
		}
		if m > forge.AccessNone && (res == forge.AccessNone || m < res) {
			res = m
		}
	}
	return res
}

// ParseUnitsMap reads a units_map: known unit keys (ignoring case) to
// their access (ParseAccessMode); unknown keys are ignored, as Forgejo
// ignores them.
func ParseUnitsMap(m map[string]string) map[forge.Unit]forge.AccessMode {
	out := make(map[forge.Unit]forge.AccessMode, len(m))
	for k, v := range m {
		if u, ok := forge.ParseUnit(k); ok {
			out[u] = ParseAccessMode(v)
		}
	}
	return out
}

// AdminUnits are the units of an admin team: every unit at admin, the
// external ones at read.
func AdminUnits() map[forge.Unit]forge.AccessMode { return allUnits(forge.AccessModeAdmin) }

// OwnerUnits are the units of the Owners team: every unit at owner, the
// external ones at read (Forgejo's CreateOrganization).
func OwnerUnits() map[forge.Unit]forge.AccessMode { return allUnits(forge.AccessModeOwner) }

func allUnits(m forge.AccessMode) map[forge.Unit]forge.AccessMode {
	out := make(map[forge.Unit]forge.AccessMode, len(forge.Units))
	for _, u := range forge.Units {
		out[u] = m
		if u.External() {
			out[u] = forge.AccessModeRead
		}
	}
	return out
}

// errUnitsEmpty refuses a team without units. Forgejo answers it with a
// 500 (a bug: it is the client's input); Hearth with 422 and the same
// message.
var errUnitsEmpty = forge.Errorf(forge.ErrInvalid, "units permission should not be empty")

// TeamAccess is the access of a new team from its options (Forgejo's
// CreateTeam, spec orgs §2 rules 1–4): "admin" gives every unit at admin
// (external units at read) whatever units say; otherwise a non-empty
// unitsMap makes the mode the minimum access above none among its values
// (external units excluded) and gives the units it lists; otherwise each
// unit of the deprecated units list gets the mode of permission (none when
// absent or unknown); with neither, forge.ErrInvalid `units permission
// should not be empty`. Unknown unit keys are ignored.
func TeamAccess(permission string, units []string, unitsMap map[string]string) (forge.AccessMode, map[forge.Unit]forge.AccessMode, error) {
	p := ParseAccessMode(permission)
	parsed := ParseUnitsMap(unitsMap)
	if p < forge.AccessModeAdmin && len(unitsMap) > 0 {
		p = MinUnitAccessMode(parsed)
	}
	if p >= forge.AccessModeAdmin {
		return forge.AccessModeAdmin, AdminUnits(), nil
	}
	switch {
	case len(unitsMap) > 0:
		return p, parsed, nil
	case len(units) > 0:
		return p, unitsAt(units, p), nil
	}
	return 0, nil, errUnitsEmpty
}

// unitsAt gives each known unit of keys the access m.
func unitsAt(keys []string, m forge.AccessMode) map[forge.Unit]forge.AccessMode {
	out := make(map[forge.Unit]forge.AccessMode, len(keys))
	for _, k := range keys {
		if u, ok := forge.ParseUnit(k); ok {
			out[u] = m
		}
	}
	return out
}

var alphaDashDot = regexp.MustCompile(`^[-.\w]+$`)

// CheckTeamName checks a team name as Forgejo's binding
// (Required;AlphaDashDot;MaxSize(255)) and IsUsableTeamName ("new" is
// reserved). Returns forge.ErrInvalid with Forgejo's messages.
func CheckTeamName(name string) error {
	switch {
	case name == "":
		return forge.Errorf(forge.ErrInvalid, "[Name]: Required")
	case utf8.RuneCountInString(name) > 255:
		return forge.Errorf(forge.ErrInvalid, "[Name]: MaxSize")
	case !alphaDashDot.MatchString(name):
		return forge.Errorf(forge.ErrInvalid, "[Name]: AlphaDashDot")
	case strings.EqualFold(name, "new"):
		return forge.Errorf(forge.ErrInvalid, "name is reserved [name: %s]", name)
	}
	return nil
}

// checkMaxSize refuses a field longer than max characters with Forgejo's
// binding message `[Field]: MaxSize`.
func checkMaxSize(field, v string, max int) error {
	if utf8.RuneCountInString(v) > max {
		return forge.Errorf(forge.ErrInvalid, "[%s]: MaxSize", field)
	}
	return nil
}

// checkWebsite is Forgejo's ValidUrl binding (empty is allowed) with
// MaxSize(255).
func checkWebsite(v string) error {
	if v == "" {
		return nil
	}
	if u, err := url.Parse(v); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return forge.Errorf(forge.ErrInvalid, "[Website]: ValidUrl")
	}
	return checkMaxSize("Website", v, 255)
}

// checkEmail checks an organisation e-mail given to Edit: one bare
// address (Forgejo's `e-mail invalid [email: x]`), at most 255 characters.
func checkEmail(v string) error {
	if err := checkMaxSize("Email", v, 255); err != nil {
		return err
	}
	a, err := mail.ParseAddress(v)
	if err != nil || a.Address != v || a.Name != "" {
		return forge.Errorf(forge.ErrInvalid, "e-mail invalid [email: %s]", v)
	}
	return nil
}

// checkVisibility refuses values other than "", public, limited and
// private (Forgejo's binding `[Visibility]: In`).
func checkVisibility(v forge.Visibility) error {
	if v != "" && !v.Valid() {
		return forge.Errorf(forge.ErrInvalid, "[Visibility]: In")
	}
	return nil
}

// checkProfile checks the free fields of an organisation with Forgejo's
// limits (CreateOrgOption / EditOrgOption bindings). Nil fields are not
// checked.
func checkProfile(fullName, description, website, location *string) error {
	checks := []struct {
		field string
		v     *string
		max   int
	}{{"FullName", fullName, 100}, {"Description", description, 255}, {"Location", location, 50}}
	for _, c := range checks {
		if c.v != nil {
			if err := checkMaxSize(c.field, *c.v, c.max); err != nil {
				return err
			}
		}
	}
	if website != nil {
		return checkWebsite(*website)
	}
	return nil
}

// OrgPermissions are a user's permissions in an organisation from the
// teams of it they are in (Forgejo's GetUserOrgsPermissions): the highest
// team mode gives can_read (above none), can_write (above read), is_admin
// (above write) and is_owner (owner); can_create_repository comes from the
// Owners team or any team that can create repositories.
func OrgPermissions(teams []*forge.Team) Permissions {
	var p Permissions
	best := forge.AccessNone
	for _, t := range teams {
		best = max(best, t.Mode)
		p.CanCreateRepository = p.CanCreateRepository || t.CanCreateOrgRepo || t.IsOwners()
	}
	p.CanRead = best > forge.AccessNone
	p.CanWrite = best > forge.AccessModeRead
	p.IsAdmin = best > forge.AccessModeWrite
	p.IsOwner = best > forge.AccessModeAdmin
	return p
}

// OrgVisibleTo returns the organisation org as actor may see it: the one
// rule of every organisation a service answers (Forgejo's GET
// /orgs/{org}), applied to every list and view of organisations too: its
// e-mail is shown to signed-in actors only. A copy; nil for nil.
func OrgVisibleTo(actor forge.Actor, org *forge.User) *forge.User {
	if org == nil {
		return nil
	}
	c := *org
	if !actor.IsSignedIn() {
		c.Email = ""
	}
	return &c
}

// orgsVisibleTo applies OrgVisibleTo to each organisation of list, in place.
func orgsVisibleTo(actor forge.Actor, list []*forge.User) {
	for i, o := range list {
		list[i] = OrgVisibleTo(actor, o)
	}
}
