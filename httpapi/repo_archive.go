package httpapi

import (
	"net/http"
	"strings"
)

// getArchive is GET /repos/{owner}/{repo}/archive/{archive}: <ref>.zip or
// <ref>.tar.gz.
func (a *API) getArchive(c *call) {
	name := c.pathValue("archive")
	var ref, format, ctype string
	switch {
	case strings.HasSuffix(name, ".zip"):
		ref, format, ctype = strings.TrimSuffix(name, ".zip"), "zip", "application/zip"
	case strings.HasSuffix(name, ".tar.gz"):
		ref, format, ctype = strings.TrimSuffix(name, ".tar.gz"), "tar.gz", "application/gzip"
	}
	v, err := a.cfg.Repos.Get(c.r.Context(), c.actor, c.owner(), c.repo())
	if err != nil {
		c.repoError(err)
		return
	}
	if format == "" {
		// Forgejo's archiver.NewRequest: ErrUnknownArchiveFormat, 400, once
		// the repository is found.
		c.errorStatus(http.StatusBadRequest, "unknown format: "+name)
		return
	}
	if _, _, err := a.cfg.Repos.Commit(c.r.Context(), c.actor, c.owner(), c.repo(), ref, false); err != nil {
		c.repoError(err)
		return
	}
	w := newStreamWriter(c, map[string]string{"Content-Type": ctype,
		"Content-Disposition": "attachment; filename=\"" + v.Repo.Name + "-" + strings.ReplaceAll(ref, "/", "-") + "." + format + "\""})
	w.finish("archive", a.cfg.Repos.Archive(c.r.Context(), c.actor, c.owner(), c.repo(), ref, format, w))
}
