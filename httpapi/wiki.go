package httpapi

import (
	"encoding/base64"
	"errors"
	"net/http"
	"strconv"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/httpapi/wire"
)

// wikiError writes the wiki operations' errors in Forgejo's shapes: a
// missing wiki, branch or page is the default 404 body, with the detail
// Forgejo lists in its errors; reserved names and existing pages are 400.
func (c *call) wikiError(err error) {
	var nf *repos.WikiNotFoundError
	var reserved *repos.WikiReservedNameError
	var exists *repos.WikiAlreadyExistError
	switch {
	case errors.As(err, &nf) && nf.Detail != "":
		c.notFoundBody("The target couldn't be found.", nf.Detail)
	case errors.As(err, &nf):
		c.notFound()
	case errors.As(err, &reserved), errors.As(err, &exists):
		c.errorStatus(http.StatusBadRequest, err.Error())
	default:
		c.repoError(err, on(forge.ErrInvalid, http.StatusBadRequest))
	}
}

// wikiCommit is Forgejo's convert.ToWikiCommit.
func wikiCommit(cm *repos.Commit) wire.WikiCommit {
	if cm == nil {
		return wire.WikiCommit{}
	}
	return wire.WikiCommit{ID: cm.ID, Message: cm.Message, Author: *commitUser(cm.Author), Commiter: *commitUser(cm.Committer)}
}

// wikiMeta is Forgejo's ToWikiPageMetaData.
func (c *call) wikiMeta(v *repos.View, p repos.WikiPageMeta) wire.WikiPageMetaData {
	return wire.WikiPageMetaData{Title: p.Title, SubURL: p.WebPath, HTMLURL: c.repoURL(v.Repo) + "/wiki/" + p.WebPath,
		LastCommit: wikiCommit(p.LastCommit)}
}

// wikiPage is Forgejo's WikiPage answer: contents base64-encoded, ""
// for a missing sidebar or footer.
func (c *call) wikiPage(v *repos.View, p *repos.WikiPage) wire.WikiPage {
	m := c.wikiMeta(v, p.WikiPageMeta)
	enc := base64.StdEncoding.EncodeToString
	return wire.WikiPage{Title: m.Title, SubURL: m.SubURL, HTMLURL: m.HTMLURL, LastCommit: m.LastCommit,
		ContentBase64: enc(p.Content), Sidebar: enc(p.Sidebar), Footer: enc(p.Footer), CommitCount: int64(p.CommitCount)}
}

// listWikiPages is GET /repos/{owner}/{repo}/wiki/pages: X-Total-Count
// counts every entry of the wiki's root, as Forgejo's.
func (a *API) listWikiPages(c *call) {
	o := c.listOptions()
	v, pages, total, err := a.cfg.Repos.WikiPages(c.r.Context(), c.actor, c.owner(), c.repo(), o)
	if err != nil {
		c.wikiError(err)
		return
	}
	out := make([]wire.WikiPageMetaData, len(pages))
	for i, p := range pages {
		out[i] = c.wikiMeta(v, p)
	}
	c.setTotalCount(int64(total))
	c.json(http.StatusOK, out)
}

// getWikiPage is GET /repos/{owner}/{repo}/wiki/page/{pageName}.
func (a *API) getWikiPage(c *call) {
	v, p, err := a.cfg.Repos.GetWikiPage(c.r.Context(), c.actor, c.owner(), c.repo(), c.pathValue("pageName"))
	if err != nil {
		c.wikiError(err)
		return
	}
	c.json(http.StatusOK, c.wikiPage(v, p))
}

// wikiOptions reads a CreateWikiPageOptions body; false when it answered
// (a body that is no JSON, content that is no base64: 400 with the
// decoder's message, as Forgejo's).
func (c *call) wikiOptions() (repos.WikiPageOptions, bool) {
	var opt wire.CreateWikiPageOptions
	if !c.decode(&opt) {
		return repos.WikiPageOptions{}, false
	}
	content, err := base64.StdEncoding.DecodeString(valueOf(opt.ContentBase64))
	if err != nil {
		c.errorStatus(http.StatusBadRequest, err.Error())
		return repos.WikiPageOptions{}, false
	}
	return repos.WikiPageOptions{Title: valueOf(opt.Title), Content: content, Message: valueOf(opt.Message)}, true
}

// createWikiPage is POST /repos/{owner}/{repo}/wiki/new.
func (a *API) createWikiPage(c *call) {
	o, ok := c.wikiOptions()
	if !ok {
		return
	}
	v, p, err := a.cfg.Repos.CreateWikiPage(c.r.Context(), c.actor, c.owner(), c.repo(), o)
	if err != nil {
		c.wikiError(err)
		return
	}
	c.json(http.StatusCreated, c.wikiPage(v, p))
}

// editWikiPage is PATCH /repos/{owner}/{repo}/wiki/page/{pageName}.
func (a *API) editWikiPage(c *call) {
	o, ok := c.wikiOptions()
	if !ok {
		return
	}
	v, p, err := a.cfg.Repos.EditWikiPage(c.r.Context(), c.actor, c.owner(), c.repo(), c.pathValue("pageName"), o)
	if err != nil {
		c.wikiError(err)
		return
	}
	c.json(http.StatusOK, c.wikiPage(v, p))
}

// deleteWikiPage is DELETE /repos/{owner}/{repo}/wiki/page/{pageName}.
func (a *API) deleteWikiPage(c *call) {
	if err := a.cfg.Repos.DeleteWikiPage(c.r.Context(), c.actor, c.owner(), c.repo(), c.pathValue("pageName")); err != nil {
		c.wikiError(err)
		return
	}
	c.noContent()
}

// listWikiRevisions is GET /repos/{owner}/{repo}/wiki/revisions/{pageName}.
func (a *API) listWikiRevisions(c *call) {
	page, _ := strconv.Atoi(c.r.URL.Query().Get("page"))
	_, list, total, err := a.cfg.Repos.WikiRevisions(c.r.Context(), c.actor, c.owner(), c.repo(), c.pathValue("pageName"), page)
	if err != nil {
		c.wikiError(err)
		return
	}
	out := wire.WikiCommitList{WikiCommits: make([]wire.WikiCommit, len(list)), Count: int64(total)}
	for i, cm := range list {
		out.WikiCommits[i] = wikiCommit(cm)
	}
	c.setTotalCount(int64(total))
	c.json(http.StatusOK, out)
}
