package httpapi

import (
	"net/http"
	"strings"

	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/httpapi/wire"
)

// toTag converts a tag as Forgejo's convert.ToTag; api and html are the
// repository's API and web URLs. Hearth counts no archive downloads, so
// archive_download_count is zeros. The message is strings.TrimSpace of the
// tag's (a lightweight tag's: its commit's), as Forgejo's ToTag.
func toTag(api, html string, t *repos.Tag) wire.Tag {
	return wire.Tag{Name: t.Name, Message: strings.TrimSpace(t.Message), ID: t.ID,
		Commit:               &wire.CommitMeta{URL: api + "/git/commits/" + t.Commit, SHA: t.Commit},
		ZipballURL:           html + "/archive/" + t.Name + ".zip",
		TarballURL:           html + "/archive/" + t.Name + ".tar.gz",
		ArchiveDownloadCount: &wire.TagArchiveDownloadCount{}}
}

// listTags is GET /repos/{owner}/{repo}/tags.
func (a *API) listTags(c *call) {
	o := c.listOptions()
	v, tags, total, err := a.cfg.Repos.ListTags(c.r.Context(), c.actor, c.owner(), c.repo(), o)
	if err != nil {
		c.repoError(err)
		return
	}
	api, html := c.repoAPIURL(v.Repo), c.repoURL(v.Repo)
	out := make([]wire.Tag, len(tags))
	for i, t := range tags {
		out[i] = toTag(api, html, t)
	}
	c.writePage(total, o, out)
}

// getTag is GET /repos/{owner}/{repo}/tags/{tag}.
func (a *API) getTag(c *call) {
	v, t, err := a.cfg.Repos.GetTag(c.r.Context(), c.actor, c.owner(), c.repo(), c.pathValue("tag"))
	if err != nil {
		c.repoError(err)
		return
	}
	c.json(http.StatusOK, toTag(c.repoAPIURL(v.Repo), c.repoURL(v.Repo), t))
}

// createTag is POST /repos/{owner}/{repo}/tags: 201; 409 when it exists.
func (a *API) createTag(c *call) {
	var o wire.CreateTagOption
	if !c.decode(&o) {
		return
	}
	v, t, err := a.cfg.Repos.CreateTag(c.r.Context(), c.actor, c.owner(), c.repo(), o.TagName, deref(o.Target), deref(o.Message))
	if err != nil {
		c.repoError(err)
		return
	}
	c.json(http.StatusCreated, toTag(c.repoAPIURL(v.Repo), c.repoURL(v.Repo), t))
}

// deleteTag is DELETE /repos/{owner}/{repo}/tags/{tag}.
func (a *API) deleteTag(c *call) {
	c.noContentOr(a.cfg.Repos.DeleteTag(c.r.Context(), c.actor, c.owner(), c.repo(), c.pathValue("tag")), with(c.repoError))
}
