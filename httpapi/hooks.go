package httpapi

import (
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/hooks"
	"github.com/hearthforge/hearth/httpapi/wire"
)

// hookOwner is whose hooks the request's path names.
func (c *call) hookOwner() hooks.Owner {
	p := c.r.URL.Path
	switch {
	case c.pathValue("owner") != "":
		return hooks.RepoHooks(c.owner(), c.repo())
	case c.pathValue("org") != "":
		return hooks.OrgHooks(c.pathValue("org"))
	case strings.Contains(p, "/admin/hooks"):
		return hooks.AdminHooks()
	}
	return hooks.UserHooks()
}

// hookError maps the hook service's errors: an unknown hook is Forgejo's
// bare 404, a bad slack channel 400, repository and organisation lookups
// as their routes answer them.
func (c *call) hookError(err error) {
	var bad *hooks.BadRequestError
	switch {
	case errors.Is(err, hooks.ErrHookNotFound):
		c.notFound()
	case errors.As(err, &bad):
		c.errorStatus(http.StatusBadRequest, bad.Msg)
	case c.pathValue("owner") != "":
		c.repoError(err)
	case c.pathValue("org") != "":
		c.orgError(err)
	default:
		c.writeError(err)
	}
}

// hookID reads {id}; a value that is no number names no hook (404), as
// Forgejo's ctx.PathParamInt64 reads it as 0.
func (c *call) hookID() (forge.ID, bool) {
	id, err := strconv.ParseInt(c.pathValue("id"), 10, 64)
	if err != nil || id <= 0 {
		c.notFound()
		return 0, false
	}
	return forge.ID(id), true
}

// toHook is Forgejo's convert.ToHook: the secret is never shown.
func toHook(h *hooks.Hook) wire.Hook {
	return wire.Hook{
		ID: int64(h.ID), Type: string(h.Type), URL: h.URL, Config: hooks.HookConfig(h), ContentType: string(h.ContentType),
		Events: hooks.ShownEvents(h.Events), BranchFilter: h.BranchFilter, AuthorizationHeader: h.AuthorizationHeader,
		Active: h.Active, Created: h.Created, Updated: h.Updated,
	}
}

func toHooks(list []*hooks.Hook) []wire.Hook {
	return convertAll(list, toHook)
}

// listHooks is GET …/hooks of a repository, organisation or the user.
func (a *API) listHooks(c *call) {
	o := c.listOptions()
	list, total, err := a.cfg.Hooks.List(c.r.Context(), c.actor, c.hookOwner(), o)
	pageAs(c, list, total, o, err, c.hookError, toHooks)
}

// adminListHooks is GET /admin/hooks: system hooks only, all of them
// unless `page` is given (Forgejo applies `limit` only with `page`).
func (a *API) adminListHooks(c *call) {
	o := forge.ListOptions{Limit: -1}
	if p, _ := strconv.Atoi(c.r.URL.Query().Get("page")); p > 0 {
		o = c.listOptions()
	}
	list, total, err := a.cfg.Hooks.List(c.r.Context(), c.actor, hooks.AdminHooks(), o)
	if err != nil {
		c.hookError(err)
		return
	}
	if o.Limit < 0 {
		c.setTotalCount(total)
		c.json(http.StatusOK, toHooks(list))
		return
	}
	c.writePage(total, o, toHooks(list))
}

// createHook is POST …/hooks: 201 with the hook.
func (a *API) createHook(c *call) {
	var o wire.CreateHookOption
	if !c.decode(&o) {
		return
	}
	switch {
	case o.Type == "":
		c.errorStatus(http.StatusUnprocessableEntity, "[Type]: Required")
		return
	case o.Config == nil:
		c.errorStatus(http.StatusUnprocessableEntity, "[Config]: Required")
		return
	}
	h, err := a.cfg.Hooks.Create(c.r.Context(), c.actor, c.hookOwner(), hooks.CreateOptions{
		Type: hooks.Type(o.Type), Config: hooks.Settings(o.Config), Events: valueOf(o.Events),
		BranchFilter: valueOf(o.BranchFilter), AuthorizationHeader: valueOf(o.AuthorizationHeader), Active: valueOf(o.Active),
	})
	jsonAs(c, http.StatusCreated, h, err, c.hookError, toHook)
}

// getHook is GET …/hooks/{id}.
func (a *API) getHook(c *call) {
	id, ok := c.hookID()
	if !ok {
		return
	}
	h, err := a.cfg.Hooks.Get(c.r.Context(), c.actor, c.hookOwner(), id)
	jsonAs(c, http.StatusOK, h, err, c.hookError, toHook)
}

// editHook is PATCH …/hooks/{id}: 200 with the hook. Forgejo answers an
// unknown id under /admin/hooks with 500 (a bug); Hearth answers 404.
func (a *API) editHook(c *call) {
	id, ok := c.hookID()
	var o wire.EditHookOption
	if !ok || !c.decode(&o) {
		return
	}
	h, err := a.cfg.Hooks.Edit(c.r.Context(), c.actor, c.hookOwner(), id, hooks.EditOptions{
		Config: hooks.Settings(valueOf(o.Config)), Events: valueOf(o.Events), BranchFilter: valueOf(o.BranchFilter),
		AuthorizationHeader: valueOf(o.AuthorizationHeader), Active: o.Active,
	})
	jsonAs(c, http.StatusOK, h, err, c.hookError, toHook)
}

// deleteHook is DELETE …/hooks/{id}: 204.
func (a *API) deleteHook(c *call) {
	id, ok := c.hookID()
	if !ok {
		return
	}
	c.noContentOr(a.cfg.Hooks.Delete(c.r.Context(), c.actor, c.hookOwner(), id), c.hookError)
}

// testHook is POST /repos/{owner}/{repo}/hooks/{id}/tests[?ref=]: a test
// push delivery of the ref's head commit is queued (hooks.Service.Test);
// 204.
func (a *API) testHook(c *call) {
	id, ok := c.hookID()
	if !ok {
		return
	}
	c.noContentOr(a.cfg.Hooks.Test(c.r.Context(), c.actor, c.owner(), c.repo(), id, strings.TrimSpace(c.r.URL.Query().Get("ref"))), c.hookError)
}

// gitHooks answers every /hooks/git route as Forgejo with git hooks
// disabled.
func (a *API) gitHooks(c *call) {
	err := a.cfg.Hooks.GitHooks(c.r.Context(), c.actor, c.owner(), c.repo(), forge.LevelForMethod(c.r.Method))
	c.hookError(err)
}
