package httpapi

import (
	"net/http"
	"net/url"
	"strings"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/packages"
	"github.com/hearthforge/hearth/httpapi/wire"
)

// packageError answers the /api/v1/packages errors: reqPackageAccess's 403,
// 404 for a missing owner or package, 400 for a package already linked
// (LinkToRepository's ErrInvalidArgument).
func (c *call) packageError(err error) {
	c.writeError(err, on(forge.ErrInvalid, http.StatusBadRequest))
}

// pkgType is the path's package type.
func (c *call) pkgType() packages.Type { return packages.Type(c.pathValue("type")) }

// listPackages answers GET /packages/{owner}: a page of the owner's
// package versions, newest first, with X-Total-Count and Link.
func (a *API) listPackages(c *call) {
	o := c.listOptions()
	q := c.r.URL.Query()
	f := packages.Filter{Type: packages.Type(strings.TrimSpace(q.Get("type"))), Query: strings.TrimSpace(q.Get("q"))}
	list, total, err := a.cfg.Packages.List(c.r.Context(), c.actor, c.pathValue("owner"), f, o)
	pageAs(c, list, total, o, err, c.packageError, each(c.toPackage))
}

// getPackage answers GET /packages/{owner}/{type}/{name}/{version}.
func (a *API) getPackage(c *call) {
	d, err := a.cfg.Packages.Get(c.r.Context(), c.actor, c.pathValue("owner"), c.pkgType(), c.pathValue("name"), c.pathValue("version"))
	jsonAs(c, http.StatusOK, d, err, c.packageError, c.toPackage)
}

// deletePackage answers DELETE /packages/{owner}/{type}/{name}/{version}:
// 204.
func (a *API) deletePackage(c *call) {
	c.noContentOr(a.cfg.Packages.DeleteVersion(c.r.Context(), c.actor, c.pathValue("owner"), c.pkgType(), c.pathValue("name"), c.pathValue("version")), c.packageError)
}

// listPackageFiles answers GET …/{version}/files: every file, unpaginated.
func (a *API) listPackageFiles(c *call) {
	d, err := a.cfg.Packages.Get(c.r.Context(), c.actor, c.pathValue("owner"), c.pkgType(), c.pathValue("name"), c.pathValue("version"))
	if err != nil {
		c.packageError(err)
		return
	}
	out := make([]wire.PackageFile, len(d.Files))
	for i, f := range d.Files {
		out[i] = wire.PackageFile{Size: f.Size, ID: int64(f.ID), HashMD5: f.MD5, Name: f.Name, HashSHA1: f.SHA1,
			HashSHA256: f.SHA256, HashSHA512: f.SHA512}
	}
	c.json(http.StatusOK, out)
}

// linkPackage answers POST …/{name}/-/link/{repo_name}: 201 with no body.
func (a *API) linkPackage(c *call) {
	err := a.cfg.Packages.Link(c.r.Context(), c.actor, c.pathValue("owner"), c.pkgType(), c.pathValue("name"), c.pathValue("repo_name"))
	c.emptyOr(http.StatusCreated, err, c.packageError)
}

// unlinkPackage answers POST …/{name}/-/unlink: 204 (Forgejo's code; its
// document says 201).
func (a *API) unlinkPackage(c *call) {
	c.noContentOr(a.cfg.Packages.Unlink(c.r.Context(), c.actor, c.pathValue("owner"), c.pkgType(), c.pathValue("name")), c.packageError)
}

// toPackage converts a version as Forgejo's convert.ToPackage: its
// repository only when the actor may see it; a deleted creator is the
// ghost user.
func (c *call) toPackage(d *packages.Descriptor) wire.Package {
	creator := d.Creator
	if creator == nil {
		creator = &forge.User{ID: -1, Name: "Ghost", FullName: "Ghost", Visibility: forge.VisibilityPublic}
	}
	out := wire.Package{
		CreatedAt: apiTime(d.Version.Created),
		Creator:   c.toUser(creator),
		HTMLURL: c.rootURL() + url.PathEscape(d.Owner.Name) + "/-/packages/" + string(d.Package.Type) + "/" +
			url.PathEscape(d.Package.Name) + "/" + url.PathEscape(d.Version.Version),
		ID:      int64(d.Version.ID),
		Name:    d.Package.Name,
		Owner:   c.toUser(d.Owner),
		Type:    string(d.Package.Type),
		Version: d.Version.Version,
	}
	if d.Repo != nil && c.a.cfg.Repos != nil {
		if v, err := c.a.cfg.Repos.Get(c.r.Context(), c.actor, d.Owner.Name, d.Repo.Name); err == nil {
			if r, err := c.toRepo(v); err == nil {
				out.Repository = &r
			}
		}
	}
	return out
}
