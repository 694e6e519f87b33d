package httpapi

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/orgs"
	"github.com/hearthforge/hearth/httpapi/convert"
	"github.com/hearthforge/hearth/httpapi/wire"
)

func (c *call) toOrg(u *forge.User) wire.Organization { return convert.Org(c.rootURL(), u) }

func (c *call) toOrgs(list []*forge.User) []wire.Organization {
	return convertAll(list, c.toOrg)
}

func (c *call) org() string { return c.pathValue("org") }

// visibilityIn is Forgejo's binding rule In(,public,limited,private) of
// the organisation options: a value outside it answers 422
// `[Visibility]: In` (before anything else is read) and is not ok.
func visibilityIn[S ~string](c *call, v *S) (*forge.Visibility, bool) {
	if v == nil {
		return nil, true
	}
	vis := forge.Visibility(*v)
	if vis != "" && !vis.Valid() {
		c.errorStatus(http.StatusUnprocessableEntity, "[Visibility]: In")
		return nil, false
	}
	return &vis, true
}

// listOrgs is GET /orgs (orgGetAll).
func (a *API) listOrgs(c *call) {
	o := c.listOptions()
	list, total, err := a.cfg.Orgs.List(c.r.Context(), c.actor, o)
	pageAs(c, list, total, o, err, with(c.orgError), c.toOrgs)
}

// adminListOrgs is GET /admin/orgs.
func (a *API) adminListOrgs(c *call) {
	o := c.listOptions()
	list, total, err := a.cfg.Orgs.ListAll(c.r.Context(), c.actor, o)
	pageAs(c, list, total, o, err, with(c.orgError), c.toOrgs)
}

// listMyOrgs is GET /user/orgs.
func (a *API) listMyOrgs(c *call) {
	o := c.listOptions()
	list, total, err := a.cfg.Orgs.ListMine(c.r.Context(), c.actor, o)
	pageAs(c, list, total, o, err, with(c.orgError), c.toOrgs)
}

// listUserOrgs is GET /users/{username}/orgs.
func (a *API) listUserOrgs(c *call) {
	o := c.listOptions()
	list, total, err := a.cfg.Orgs.ListForUser(c.r.Context(), c.actor, c.pathValue("username"), o)
	pageAs(c, list, total, o, err, with(c.userLookupError), c.toOrgs)
}

// orgPermissions is GET /users/{username}/orgs/{org}/permissions.
func (a *API) orgPermissions(c *call) {
	p, err := a.cfg.Orgs.Permissions(c.r.Context(), c.actor, c.pathValue("username"), c.org())
	var name *orgs.NotFoundError
	switch {
	case errors.As(err, &name) && strings.EqualFold(name.Name, c.org()):
		// Forgejo looks {org} up with GetUserByParamsName.
		c.notFoundBody("GetUserByName", err.Error())
		return
	case err != nil:
		c.userLookupError(err)
		return
	}
	c.json(http.StatusOK, wire.OrganizationPermissions{
		IsOwner: p.IsOwner, IsAdmin: p.IsAdmin, CanWrite: p.CanWrite, CanRead: p.CanRead,
		CanCreateRepository: p.CanCreateRepository,
	})
}

// createOrg is POST /orgs: 201 with the organisation.
func (a *API) createOrg(c *call) { a.createOrgFor(c, "") }

// adminCreateOrg is POST /admin/users/{username}/orgs: the organisation is
// owned by the named user.
func (a *API) adminCreateOrg(c *call) { a.createOrgFor(c, c.pathValue("username")) }

func (a *API) createOrgFor(c *call, owner string) {
	var o wire.CreateOrgOption
	if !c.decode(&o) || !c.present("UserName", o.UserName != "") {
		return
	}
	v, ok := visibilityIn(c, o.Visibility)
	if !ok {
		return
	}
	opts := orgs.CreateOptions{
		Owner: owner, Name: o.UserName, FullName: valueOf(o.FullName), Email: valueOf(o.Email),
		Description: valueOf(o.Description), Website: valueOf(o.Website), Location: valueOf(o.Location),
		Visibility: valueOf(v), RepoAdminChangeTeamAccess: valueOf(o.RepoAdminChangeTeamAccess),
	}
	u, err := a.cfg.Orgs.Create(c.r.Context(), c.actor, opts)
	if err != nil {
		// Forgejo answers an existing name with 422, as every refusal of
		// the name.
		c.userLookupError(err, on(forge.ErrConflict, http.StatusUnprocessableEntity))
		return
	}
	c.json(http.StatusCreated, c.toOrg(u))
}

// getOrg is GET /orgs/{org}; the service blanks the e-mail for anonymous
// readers.
func (a *API) getOrg(c *call) {
	u, err := a.cfg.Orgs.Get(c.r.Context(), c.actor, c.org())
	jsonAs(c, http.StatusOK, u, err, with(c.orgError), c.toOrg)
}

// editOrg is PATCH /orgs/{org}: 200 with the organisation.
func (a *API) editOrg(c *call) {
	var o wire.EditOrgOption
	if !c.decode(&o) {
		return
	}
	v, ok := visibilityIn(c, o.Visibility)
	if !ok {
		return
	}
	if v != nil && *v == "" {
		v = nil // Forgejo: an empty visibility leaves it unchanged
	}
	opts := orgs.EditOptions{
		FullName: o.FullName, Email: o.Email, Description: o.Description, Website: o.Website,
		Location: o.Location, Visibility: v, RepoAdminChangeTeamAccess: o.RepoAdminChangeTeamAccess,
	}
	u, err := a.cfg.Orgs.Edit(c.r.Context(), c.actor, c.org(), opts)
	jsonAs(c, http.StatusOK, u, err, with(c.orgError), c.toOrg)
}

// deleteOrg is DELETE /orgs/{org}: 204.
func (a *API) deleteOrg(c *call) {
	c.noContentOr(a.cfg.Orgs.Delete(c.r.Context(), c.actor, c.org()), with(c.orgError))
}

// renameOrg is POST /orgs/{org}/rename: 204.
func (a *API) renameOrg(c *call) {
	var o wire.RenameOrgOption
	if !c.decode(&o) || !c.present("NewName", o.NewName != "") {
		return
	}
	if _, err := a.cfg.Orgs.Rename(c.r.Context(), c.actor, c.org(), o.NewName); err != nil {
		c.orgError(err, on(forge.ErrConflict, http.StatusUnprocessableEntity))
		return
	}
	c.noContent()
}

// setOrgAvatar is POST /orgs/{org}/avatar: `{"image": <base64>}`, 204.
func (a *API) setOrgAvatar(c *call) {
	var o wire.UpdateUserAvatarOption
	img, ok := c.avatarImage(&o, &o.Image)
	if !ok {
		return
	}
	c.noContentOr(a.cfg.Orgs.SetAvatar(c.r.Context(), c.actor, c.org(), img), with(c.orgError))
}

// deleteOrgAvatar is DELETE /orgs/{org}/avatar: 204.
func (a *API) deleteOrgAvatar(c *call) {
	c.noContentOr(a.cfg.Orgs.DeleteAvatar(c.r.Context(), c.actor, c.org()), with(c.orgError))
}

// serveAccountAvatar serves /avatars/{key}, the avatar_url of a user or
// an organisation with an uploaded avatar: the key's prefix tells whose
// (auth's user-avatar-, forge/orgs' org-avatar-); 404 for any other.
func (a *API) serveAccountAvatar(w http.ResponseWriter, r *http.Request) {
	a.serveStoredAvatar(w, r, func(ctx context.Context, key string) (io.ReadCloser, error) {
		rc, err := a.cfg.Auth.OpenAvatar(ctx, key)
		if errors.Is(err, forge.ErrNotFound) && a.cfg.Orgs != nil {
			return a.cfg.Orgs.OpenAvatar(ctx, key)
		}
		return rc, err
	})
}
