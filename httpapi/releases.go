package httpapi

import (
	"io"
	"mime"
	"net/http"
	"strconv"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/httpapi/convert"
	"github.com/hearthforge/hearth/httpapi/wire"
)

// DefaultMaxUploadBytes caps uploaded files when Config.MaxUploadBytes is 0.
const DefaultMaxUploadBytes = 512 << 20

func (c *call) toAttachment(a *repos.Attachment) wire.Attachment {
	return convert.Attachment(c.rootURL(), a)
}

func (c *call) toRelease(r *forge.Repository, rel *repos.Release) wire.Release {
	var author *wire.User
	if rel.Author != nil {
		u := c.toUser(rel.Author)
		author = &u
	}
	return convert.Release(c.rootURL(), r, rel, author)
}

func (c *call) idParam(name string) (forge.ID, bool) {
	id, err := strconv.ParseInt(c.pathValue(name), 10, 64)
	if err != nil {
		c.notFound()
		return 0, false
	}
	return id, true
}

// assetParams reads a release asset's {id} and {attachment_id} (404 for a
// non-number, answered once).
func (c *call) assetParams() (forge.ID, forge.ID, bool) {
	id, ok := c.idParam("id")
	if !ok {
		return 0, 0, false
	}
	aid, ok := c.idParam("attachment_id")
	return id, aid, ok
}

// listReleases is GET /repos/{owner}/{repo}/releases.
func (a *API) listReleases(c *call) {
	q := c.r.URL.Query()
	f := repos.ReleaseFilter{Keyword: q.Get("q")}
	if v, err := strconv.ParseBool(q.Get("draft")); err == nil {
		f.Draft = &v
	}
	if v, err := strconv.ParseBool(q.Get("pre-release")); err == nil {
		f.Prerelease = &v
	}
	o := c.listOptions()
	v, list, total, err := a.cfg.Repos.ListReleases(c.r.Context(), c.actor, c.owner(), c.repo(), f, o)
	pageAs(c, list, total, o, err, with(c.repoError), each(func(rel *repos.Release) wire.Release { return c.toRelease(v.Repo, rel) }))
}

// getRelease is GET .../releases/{id}, .../releases/tags/{tag} and
// .../releases/latest.
func (a *API) getRelease(kind string) func(*call) {
	return func(c *call) {
		var id forge.ID
		if kind == "id" {
			var ok bool
			if id, ok = c.idParam("id"); !ok {
				return
			}
		}
		v, rel, err := a.cfg.Repos.GetRelease(c.r.Context(), c.actor, c.owner(), c.repo(), id, c.pathValue("tag"), kind == "latest")
		if err != nil {
			c.repoError(err)
			return
		}
		c.json(http.StatusOK, c.toRelease(v.Repo, rel))
	}
}

// releaseOptions are the service's options of Forgejo's EditReleaseOption
// (CreateReleaseOption is the same with tag_name required).
func releaseOptions(o wire.EditReleaseOption) repos.ReleaseOptions {
	return repos.ReleaseOptions{TagName: o.TagName, Target: o.Target, Name: o.Title, Body: o.Note, Draft: o.IsDraft,
		Prerelease: o.IsPrerelease, HideArchiveLinks: o.HideArchiveLinks}
}

// createRelease is POST /repos/{owner}/{repo}/releases: 201; 409 when the
// tag has a release.
func (a *API) createRelease(c *call) {
	var o wire.CreateReleaseOption
	if !c.decode(&o) {
		return
	}
	v, rel, err := a.cfg.Repos.CreateRelease(c.r.Context(), c.actor, c.owner(), c.repo(), releaseOptions(wire.EditReleaseOption{
		TagName: &o.TagName, Target: o.Target, Title: o.Title, Note: o.Note, IsDraft: o.IsDraft,
		IsPrerelease: o.IsPrerelease, HideArchiveLinks: o.HideArchiveLinks}))
	if err != nil {
		c.repoError(err)
		return
	}
	c.json(http.StatusCreated, c.toRelease(v.Repo, rel))
}

// editRelease is PATCH /repos/{owner}/{repo}/releases/{id}.
func (a *API) editRelease(c *call) {
	id, ok := c.idParam("id")
	if !ok {
		return
	}
	var o wire.EditReleaseOption
	if !c.decode(&o) {
		return
	}
	v, rel, err := a.cfg.Repos.EditRelease(c.r.Context(), c.actor, c.owner(), c.repo(), id, releaseOptions(o))
	if err != nil {
		c.repoError(err)
		return
	}
	c.json(http.StatusOK, c.toRelease(v.Repo, rel))
}

// deleteRelease is DELETE .../releases/{id} and .../releases/tags/{tag}.
func (a *API) deleteRelease(byTag bool) func(*call) {
	return func(c *call) {
		var id forge.ID
		if !byTag {
			var ok bool
			if id, ok = c.idParam("id"); !ok {
				return
			}
		}
		if err := a.cfg.Repos.DeleteRelease(c.r.Context(), c.actor, c.owner(), c.repo(), id, c.pathValue("tag")); err != nil {
			c.repoError(err)
			return
		}
		c.noContent()
	}
}

// listAssets is GET /repos/{owner}/{repo}/releases/{id}/assets.
func (a *API) listAssets(c *call) {
	id, ok := c.idParam("id")
	if !ok {
		return
	}
	_, rel, err := a.cfg.Repos.GetRelease(c.r.Context(), c.actor, c.owner(), c.repo(), id, "", false)
	if err != nil {
		c.repoError(err)
		return
	}
	out := []wire.Attachment{}
	for _, at := range rel.Assets {
		out = append(out, c.toAttachment(at))
	}
	c.json(http.StatusOK, out)
}

// getAsset is GET /repos/{owner}/{repo}/releases/{id}/assets/{attachment_id}.
func (a *API) getAsset(c *call) {
	id, aid, ok := c.assetParams()
	if !ok {
		return
	}
	_, at, err := a.cfg.Repos.GetAttachment(c.r.Context(), c.actor, c.owner(), c.repo(), id, aid)
	jsonAs(c, http.StatusOK, at, err, with(c.repoError), c.toAttachment)
}

// uploadAsset is POST /repos/{owner}/{repo}/releases/{id}/assets: the file
// as multipart field `attachment` (name from `name`, else the file's), as
// a raw application/octet-stream body (name from `name`), or a link in the
// form field `external_url`. 201; 413 over Config.MaxUploadBytes.
func (a *API) uploadAsset(c *call) {
	id, ok := c.idParam("id")
	if !ok {
		return
	}
	max := a.cfg.MaxUploadBytes
	if max <= 0 {
		max = DefaultMaxUploadBytes
	}
	up := repos.AttachmentUpload{Name: c.r.URL.Query().Get("name"), Max: max}
	mt, _, _ := mime.ParseMediaType(c.r.Header.Get("Content-Type"))
	switch mt {
	case "multipart/form-data":
		mr, err := c.r.MultipartReader()
		if err != nil {
			c.errorStatus(http.StatusBadRequest, err.Error())
			return
		}
		for {
			part, err := mr.NextPart()
			if err != nil {
				break
			}
			switch part.FormName() {
			case "attachment":
				if up.Name == "" {
					up.Name = part.FileName()
				}
				up.Content = part
			case "external_url":
				b, _ := io.ReadAll(io.LimitReader(part, 4096))
				up.ExternalURL = string(b)
			}
			if up.Content != nil {
				break // the file is streamed; fields after it are ignored
			}
		}
	default:
		up.Content = c.r.Body
	}
	if up.Content == nil && up.ExternalURL == "" {
		c.errorStatus(http.StatusBadRequest, "no attachment or external_url given")
		return
	}
	if up.Content == nil {
		up.Content = http.NoBody
	}
	up.Content = &uploadReader{r: up.Content}
	_, at, err := a.cfg.Repos.AddAttachment(c.r.Context(), c.actor, c.owner(), c.repo(), id, up)
	if err != nil {
		if !c.uploadError(err) {
			c.repoError(err, on(repos.ErrAttachmentTooLarge, http.StatusRequestEntityTooLarge), on(forge.ErrInvalid, http.StatusBadRequest))
		}
		return
	}
	c.json(http.StatusCreated, c.toAttachment(at))
}

// editAsset is PATCH /repos/{owner}/{repo}/releases/{id}/assets/{attachment_id}: 201.
func (a *API) editAsset(c *call) {
	id, aid, ok := c.assetParams()
	var o wire.EditAttachmentOptions
	if !ok || !c.decode(&o) {
		return
	}
	_, at, err := a.cfg.Repos.EditAttachment(c.r.Context(), c.actor, c.owner(), c.repo(), id, aid, deref(o.Name), deref(o.DownloadURL))
	jsonAs(c, http.StatusCreated, at, err, with(c.repoError), c.toAttachment)
}

// deleteAsset is DELETE /repos/{owner}/{repo}/releases/{id}/assets/{attachment_id}.
func (a *API) deleteAsset(c *call) {
	id, aid, ok := c.assetParams()
	if !ok {
		return
	}
	c.noContentOr(a.cfg.Repos.DeleteAttachment(c.r.Context(), c.actor, c.owner(), c.repo(), id, aid), with(c.repoError))
}

// downloadAttachment serves /attachments/{uuid} (beside the API, as
// Forgejo's browser_download_url): the bytes, or a redirect for external
// links.
func (a *API) downloadAttachment(w http.ResponseWriter, r *http.Request) {
	c := a.newCall(w, r)
	defer c.recover()
	if !c.authenticate() {
		return
	}
	at, rc, err := a.cfg.Repos.OpenAttachment(r.Context(), c.actor, chiParam(r, "uuid"))
	if err != nil {
		c.repoError(err)
		return
	}
	if at.ExternalURL != "" {
		if !repos.ValidDownloadURL(at.ExternalURL) { // never redirect to javascript:, data: …
			c.notFound()
			return
		}
		http.Redirect(w, r, at.ExternalURL, http.StatusFound)
		return
	}
	if rc == nil {
		c.notFound()
		return
	}
	defer rc.Close()
	w.Header().Set("Content-Type", "application/octet-stream")
	w.Header().Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": at.Name}))
	w.Header().Set("Content-Length", strconv.FormatInt(at.Size, 10))
	io.Copy(w, rc)
}
