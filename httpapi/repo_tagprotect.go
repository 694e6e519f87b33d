package httpapi

import (
	"net/http"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/httpapi/wire"
)

// toTagProtection converts a tag protection as Forgejo's
// convert.ToTagProtection (lists never null).
func toTagProtection(p *repos.TagProtection) wire.TagProtection {
	return wire.TagProtection{ID: p.ID, NamePattern: p.NamePattern, WhitelistUsernames: nonNil(p.WhitelistUsernames),
		WhitelistTeams: nonNil(p.WhitelistTeams), Created: apiTime(p.Created), Updated: apiTime(p.Updated)}
}

func (c *call) tagProtectionID() (forge.ID, bool) { return c.idParam("id") }

// listTagProtections is GET /repos/{owner}/{repo}/tag_protections.
func (a *API) listTagProtections(c *call) {
	list, err := a.cfg.Repos.ListTagProtections(c.r.Context(), c.actor, c.owner(), c.repo())
	if err != nil {
		c.repoError(err)
		return
	}
	out := convertAll(list, toTagProtection)
	c.json(http.StatusOK, out)
}

// getTagProtection is GET /repos/{owner}/{repo}/tag_protections/{id}.
func (a *API) getTagProtection(c *call) {
	id, ok := c.tagProtectionID()
	if !ok {
		return
	}
	p, err := a.cfg.Repos.GetTagProtection(c.r.Context(), c.actor, c.owner(), c.repo(), id)
	jsonAs(c, http.StatusOK, p, err, with(c.repoError), toTagProtection)
}

// createTagProtection is POST /repos/{owner}/{repo}/tag_protections: 201.
func (a *API) createTagProtection(c *call) {
	var o wire.CreateTagProtectionOption
	if !c.decode(&o) {
		return
	}
	p := repos.TagProtection{}
	setp(&p.NamePattern, o.NamePattern)
	setp(&p.WhitelistUsernames, o.WhitelistUsernames)
	setp(&p.WhitelistTeams, o.WhitelistTeams)
	created, err := a.cfg.Repos.CreateTagProtection(c.r.Context(), c.actor, c.owner(), c.repo(), p)
	if err != nil {
		// Forgejo answers 400 for an empty pattern or whitelist (which its
		// document does not declare), 422 for unknown users.
		c.repoError(err, on(forge.ErrConflict, http.StatusForbidden), on(repos.ErrTagPatternEmpty, http.StatusBadRequest),
			on(repos.ErrTagWhitelistEmpty, http.StatusBadRequest))
		return
	}
	c.json(http.StatusCreated, toTagProtection(created))
}

// editTagProtection is PATCH /repos/{owner}/{repo}/tag_protections/{id}.
func (a *API) editTagProtection(c *call) {
	id, ok := c.tagProtectionID()
	var o wire.EditTagProtectionOption
	if !ok || !c.decode(&o) {
		return
	}
	p, err := a.cfg.Repos.EditTagProtection(c.r.Context(), c.actor, c.owner(), c.repo(), id, repos.TagProtectionEdit{
		NamePattern: o.NamePattern, WhitelistUsernames: o.WhitelistUsernames, WhitelistTeams: o.WhitelistTeams})
	jsonAs(c, http.StatusOK, p, err, with(c.repoError), toTagProtection)
}

// deleteTagProtection is DELETE /repos/{owner}/{repo}/tag_protections/{id}.
func (a *API) deleteTagProtection(c *call) {
	id, ok := c.tagProtectionID()
	if !ok {
		return
	}
	c.noContentOr(a.cfg.Repos.DeleteTagProtection(c.r.Context(), c.actor, c.owner(), c.repo(), id), with(c.repoError))
}
