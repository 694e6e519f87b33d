package httpapi

import (
	"context"
	"errors"
	"net/http"

	"github.com/hearthforge/hearth/forge/hooks"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/httpapi/wire"
)

// generateError writes Generate's errors: an unknown owner is a 404 with
// Forgejo's text as the message (Forgejo answers `{"error": …}`, which
// the document's notFound response does not allow), the rest as
// repository errors.
func (c *call) generateError(err error) {
	var owner *repos.GenerateOwnerNotFoundError
	if errors.As(err, &owner) {
		c.notFoundBody(err.Error())
		return
	}
	c.repoError(err)
}

// generateRepo is POST /repos/{template_owner}/{template_repo}/generate:
// the repository (forge/repos), then the template's labels (issues) and
// webhooks (hooks) when asked; when those fail the new repository is
// deleted again and the error answered.
func (a *API) generateRepo(c *call) {
	var opt wire.GenerateRepoOption
	if !c.decode(&opt) {
		return
	}
	switch {
	case opt.Owner == "":
		c.errorStatus(http.StatusUnprocessableEntity, "[Owner]: Required")
		return
	case opt.Name == "":
		c.errorStatus(http.StatusUnprocessableEntity, "[Name]: Required")
		return
	}
	tOwner, tName := c.pathValue("template_owner"), c.pathValue("template_repo")
	o := repos.GenerateOptions{Owner: opt.Owner, Name: opt.Name, Description: valueOf(opt.Description),
		DefaultBranch: valueOf(opt.DefaultBranch), Private: valueOf(opt.Private),
		GitContent: valueOf(opt.GitContent), Topics: valueOf(opt.Topics), GitHooks: valueOf(opt.GitHooks),
		Webhooks: valueOf(opt.Webhooks), Avatar: valueOf(opt.Avatar), Labels: valueOf(opt.Labels),
		ProtectedBranch: valueOf(opt.ProtectedBranch)}
	ctx := c.r.Context()
	v, err := a.cfg.Repos.Generate(ctx, c.actor, tOwner, tName, o)
	if err != nil {
		c.generateError(err)
		return
	}
	if o.Labels && a.cfg.Issues != nil {
		err = a.cfg.Issues.CopyLabels(ctx, c.actor, tOwner, tName, v.Repo.OwnerName, v.Repo.Name)
	}
	if err == nil && o.Webhooks && a.cfg.Hooks != nil {
		err = a.cfg.Hooks.CopyRepoHooks(ctx, c.actor, hooks.RepoHooks(tOwner, tName), hooks.RepoHooks(v.Repo.OwnerName, v.Repo.Name))
	}
	if err != nil {
		if derr := a.cfg.Repos.DiscardGenerated(context.WithoutCancel(ctx), c.actor, v.Repo.OwnerName, v.Repo.Name); derr != nil {
			a.log.ErrorContext(ctx, "repos: undoing a generation whose labels or webhooks failed", "repo", v.Repo.ID, "err", derr)
		}
		c.generateError(err)
		return
	}
	c.writeRepo(http.StatusCreated, v)
}
