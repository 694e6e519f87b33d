package httpapi

import (
	"net/http"
	"net/url"
	"strings"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/orgs"
	"github.com/hearthforge/hearth/httpapi/wire"
)

func (c *call) toUsers(list []*forge.User) []wire.User {
	return convertAll(list, c.toUser)
}

// listOrgMembers is GET /orgs/{org}/members: members see every member,
// others the public ones (the service decides).
func (a *API) listOrgMembers(c *call) {
	o := c.listOptions()
	list, total, err := a.cfg.Orgs.ListMembers(c.r.Context(), c.actor, c.org(), o)
	pageAs(c, list, total, o, err, with(c.orgError), c.toUsers)
}

// listPublicMembers is GET /orgs/{org}/public_members.
func (a *API) listPublicMembers(c *call) {
	o := c.listOptions()
	list, total, err := a.cfg.Orgs.ListPublicMembers(c.r.Context(), c.actor, c.org(), o)
	pageAs(c, list, total, o, err, with(c.orgError), c.toUsers)
}

// isOrgMember is GET /orgs/{org}/members/{username}: 204 for a member, 404
// for a non-member, and for an actor who may only learn of public
// membership a redirect to /orgs/{org}/public_members/{username}. Forgejo
// redirects with ctx.Redirect, whose status is 303 See Other (the status
// its document declares).
func (a *API) isOrgMember(c *call) {
	m, err := a.cfg.Orgs.IsMember(c.r.Context(), c.actor, c.org(), c.pathValue("username"))
	if err != nil {
		c.orgError(err)
		return
	}
	switch m.Answer {
	case orgs.IsAMember:
		c.noContent()
	case orgs.AskPublic:
		loc := c.subPath() + "/api/v1/orgs/" + url.PathEscape(m.Org) + "/public_members/" + url.PathEscape(m.User)
		c.w.Header().Set("Location", loc)
		c.empty(http.StatusSeeOther)
	default:
		c.notFound()
	}
}

// subPath is the path of the root URL without its final slash ("" for a
// forge at the root of its host): Forgejo's AppSubURL.
func (c *call) subPath() string {
	u, err := url.Parse(c.rootURL())
	if err != nil {
		return ""
	}
	return strings.TrimSuffix(u.Path, "/")
}

// isPublicMember is GET /orgs/{org}/public_members/{username}: 204 or 404.
func (a *API) isPublicMember(c *call) {
	ok, err := a.cfg.Orgs.IsPublicMember(c.r.Context(), c.actor, c.org(), c.pathValue("username"))
	c.presenceOr(ok, err, with(c.orgError))
}

// publicizeMember is PUT /orgs/{org}/public_members/{username}: 204.
func (a *API) publicizeMember(c *call) {
	c.noContentOr(a.cfg.Orgs.Publicize(c.r.Context(), c.actor, c.org(), c.pathValue("username")), with(c.orgError))
}

// concealMember is DELETE /orgs/{org}/public_members/{username}: 204.
func (a *API) concealMember(c *call) {
	c.noContentOr(a.cfg.Orgs.Conceal(c.r.Context(), c.actor, c.org(), c.pathValue("username")), with(c.orgError))
}

// removeOrgMember is DELETE /orgs/{org}/members/{username}: 204.
func (a *API) removeOrgMember(c *call) {
	c.noContentOr(a.cfg.Orgs.RemoveMember(c.r.Context(), c.actor, c.org(), c.pathValue("username")), with(c.orgError))
}

// listOrgBlocked is GET /orgs/{org}/list_blocked: Forgejo's BlockedUser
// is the blocked user's id and when the block was made.
func (a *API) listOrgBlocked(c *call) {
	o := c.listOptions()
	list, total, err := a.cfg.Orgs.ListBlocked(c.r.Context(), c.actor, c.org(), o)
	if err != nil {
		c.orgError(err)
		return
	}
	out := make([]wire.BlockedUser, len(list))
	for i, b := range list {
		out[i] = wire.BlockedUser{BlockID: b.User.ID, Created: apiTime(b.Created)}
	}
	c.writePage(total, o, out)
}

// blockOrgUser is PUT /orgs/{org}/block/{username}: 204.
func (a *API) blockOrgUser(c *call) {
	c.noContentOr(a.cfg.Orgs.Block(c.r.Context(), c.actor, c.org(), c.pathValue("username")), with(c.orgError))
}

// unblockOrgUser is PUT /orgs/{org}/unblock/{username}: 204.
func (a *API) unblockOrgUser(c *call) {
	c.noContentOr(a.cfg.Orgs.Unblock(c.r.Context(), c.actor, c.org(), c.pathValue("username")), with(c.orgError))
}
