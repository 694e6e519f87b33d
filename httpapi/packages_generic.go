package httpapi

import (
	"errors"
	"io"
	"mime"
	"net/http"
	"strconv"

	"github.com/go-chi/chi/v5"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/packages"
	"github.com/hearthforge/hearth/quota"
)

// mountLFSPackages mounts the routes beside /api/v1 that Hearth serves
// when their services are configured: Git LFS (lfs.go) and the generic
// package registry. A host mounts /api/packages/ on the handler too.
func (a *API) mountLFSPackages(r chi.Router) {
	if a.cfg.LFS != nil {
		a.mountLFS(r)
	}
	if a.cfg.Packages != nil {
		const g = "/api/packages/{owner}/generic/{name}/{version}"
		r.Put(g+"/{file}", a.pkgHandler(a.uploadGeneric))
		r.Get(g+"/{file}", a.pkgHandler(a.downloadGeneric))
		r.Head(g+"/{file}", a.pkgHandler(a.downloadGeneric))
		r.Delete(g+"/{file}", a.pkgHandler(a.deleteGenericFile))
		r.Delete(g, a.pkgHandler(a.deleteGeneric))
	}
}

// pkgHandler authenticates a registry request (Basic with a password or a
// token, or a token header) and runs h with the actor; bad credentials are
// 401 with the registry's challenge.
func (a *API) pkgHandler(h func(c *call)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		c := a.newCall(w, r)
		defer c.recover()
		actor, err := a.cfg.Auth.Authenticate(r.Context(), c.credentials())
		if err != nil {
			c.pkgPlainError(err)
			return
		}
		c.actor = actor
		h(c)
	}
}

// pkgPlainError answers a registry error as Forgejo's package routers do,
// in plain text: 401 with `WWW-Authenticate: Basic realm="Gitea Package
// API"` for an actor without the access (reqPackageAccess), 403 for a
// token without the scope or an account that may not act, 404, 400 for
// invalid names, 409 for a duplicate file, 413 for quota (the API's JSON
// body naming the owner: Forgejo writes the string `enforcePackagesQuota`
// there by mistake), 500.
func (c *call) pkgPlainError(err error) {
	var qe *quota.ExceededError
	status := http.StatusInternalServerError
	msg := err.Error()
	switch {
	case errors.As(err, &qe):
		c.writeQuotaExceeded(err)
		return
	case errors.Is(err, packages.ErrNoAccess), errors.Is(err, forge.ErrUnauthenticated):
		c.w.Header().Set("WWW-Authenticate", `Basic realm="Gitea Package API"`)
		status = http.StatusUnauthorized
	case errors.Is(err, forge.ErrForbidden):
		status = http.StatusForbidden
	case errors.Is(err, forge.ErrNotFound):
		status = http.StatusNotFound
	case errors.Is(err, forge.ErrInvalid):
		status = http.StatusBadRequest
	case errors.Is(err, forge.ErrConflict):
		status = http.StatusConflict
	default:
		c.a.log.ErrorContext(c.r.Context(), "packages: internal error", "path", c.r.URL.Path, "err", err)
		msg = http.StatusText(status)
	}
	http.Error(c.w, msg, status)
	c.wrote = true
}

// uploadGeneric answers PUT /api/packages/{owner}/generic/{name}/{version}/{file}:
// 201 with no body; the body streams to the blob store.
func (a *API) uploadGeneric(c *call) {
	defer c.r.Body.Close()
	_, err := a.cfg.Packages.UploadGeneric(c.r.Context(), c.actor, c.pathValue("owner"), c.pathValue("name"),
		c.pathValue("version"), c.pathValue("file"), c.r.Body)
	c.emptyOr(http.StatusCreated, err, c.pkgPlainError)
}

// downloadGeneric answers GET (and HEAD) of a generic package's file with
// its bytes, as an attachment named for the file.
func (a *API) downloadGeneric(c *call) {
	rc, f, err := a.cfg.Packages.DownloadGeneric(c.r.Context(), c.actor, c.pathValue("owner"), c.pathValue("name"),
		c.pathValue("version"), c.pathValue("file"))
	if err != nil {
		c.pkgPlainError(err)
		return
	}
	defer rc.Close()
	h := c.w.Header()
	h.Set("Content-Type", "application/octet-stream")
	h.Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": f.Name}))
	if rs, ok := rc.(io.ReadSeeker); ok {
		http.ServeContent(c.w, c.r, "", f.Created, rs)
		return
	}
	h.Set("Content-Length", strconv.FormatInt(f.Size, 10))
	c.w.WriteHeader(http.StatusOK)
	if c.r.Method != http.MethodHead {
		io.Copy(c.w, rc)
	}
}

// deleteGenericFile answers DELETE of one file: 204.
func (a *API) deleteGenericFile(c *call) {
	c.noContentOr(a.cfg.Packages.DeleteGenericFile(c.r.Context(), c.actor, c.pathValue("owner"), c.pathValue("name"),
		c.pathValue("version"), c.pathValue("file")), c.pkgPlainError)
}

// deleteGeneric answers DELETE of a whole version: 204.
func (a *API) deleteGeneric(c *call) {
	c.noContentOr(a.cfg.Packages.DeleteVersion(c.r.Context(), c.actor, c.pathValue("owner"), packages.TypeGeneric,
		c.pathValue("name"), c.pathValue("version")), c.pkgPlainError)
}
