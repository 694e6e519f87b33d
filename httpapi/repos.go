package httpapi

import (
	"context"
	"errors"
	"net/http"
	"strconv"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/httpapi/wire"
	"github.com/hearthforge/hearth/issues"
)

// repoError writes repository errors in Forgejo's shapes: an unknown owner
// is `{"message":"GetUserByName","errors":["user redirect does not exist
// …"]}`, an invisible or missing repository the default not-found body,
// invalid topics `{"invalidTopics":[…],"message":…}` (a string for the one
// topic of a path, null for a list refused for its length, as Forgejo's
// topic handlers), an unknown topic the default not-found body.
func (c *call) repoError(err error, overrides ...statusFor) {
	var owner *repos.OwnerNotFoundError
	var topics *repos.InvalidTopicsError
	switch {
	case errors.As(err, &owner):
		c.notFoundBody("GetUserByName", err.Error())
	case errors.Is(err, repos.ErrRepoNotFound), errors.Is(err, repos.ErrTopicNotFound):
		c.notFound()
	case errors.As(err, &topics) && topics.Single:
		c.json(http.StatusUnprocessableEntity, invalidTopicError{InvalidTopics: topics.Name, Message: topics.Message})
	case errors.As(err, &topics):
		c.json(http.StatusUnprocessableEntity, wire.APIInvalidTopicsError{InvalidTopics: topics.Topics, Message: topics.Message})
	default:
		c.writeError(err, overrides...)
	}
}

// invalidTopicError is Forgejo's answer to an invalid topic in a path
// (AddTopic, DeleteTopic): `invalidTopics` is the name, a string, where
// the document's APIInvalidTopicsError says a list.
type invalidTopicError struct {
	InvalidTopics string `json:"invalidTopics"`
	Message       string `json:"message"`
}

func (c *call) owner() string { return c.pathValue("owner") }
func (c *call) repo() string  { return c.pathValue("repo") }

// namedRepo is the repository the path names: {owner}/{repo}, or the
// template of POST /repos/{template_owner}/{template_repo}/generate.
func (c *call) namedRepo() (owner, name string) {
	if o := c.pathValue("template_owner"); o != "" {
		return o, c.pathValue("template_repo")
	}
	return c.owner(), c.repo()
}

// createUserRepo is POST /user/repos.
func (a *API) createUserRepo(c *call) { a.createRepo(c, "") }

// adminCreateRepo is POST /admin/users/{username}/repos.
func (a *API) adminCreateRepo(c *call) { a.createRepo(c, c.pathValue("username")) }

func (a *API) createRepo(c *call, owner string) {
	var opt wire.CreateRepoOption
	if !c.decode(&opt) {
		return
	}
	if opt.Name == "" {
		c.errorStatus(http.StatusUnprocessableEntity, "[Name]: Required")
		return
	}
	if !c.checkIssueLabels(opt) {
		return
	}
	v, err := a.cfg.Repos.Create(c.r.Context(), c.actor, owner, createOptions(opt))
	if err != nil {
		c.repoError(err)
		return
	}
	if !a.initializeLabels(c, v, opt) {
		return
	}
	c.writeRepo(http.StatusCreated, v)
}

// checkIssueLabels refuses, before anything is created, a creation whose
// `issue_labels` names no label template set (Forgejo's ErrTemplateLoad,
// 422).
func (c *call) checkIssueLabels(opt wire.CreateRepoOption) bool {
	if name := valueOf(opt.IssueLabels); name != "" {
		if err := issues.CheckLabelTemplate(name); err != nil {
			c.repoError(err)
			return false
		}
	}
	return true
}

// initializeLabels adds the label set of `issue_labels` (checked by
// checkIssueLabels) to the new repository v, all or none; when that fails
// the repository is removed again and the error answered, so that no
// repository is left without the labels asked for. Without the issue
// service (no labels served) it does nothing.
func (a *API) initializeLabels(c *call, v *repos.View, opt wire.CreateRepoOption) bool {
	name := valueOf(opt.IssueLabels)
	if name == "" || a.cfg.Issues == nil {
		return true
	}
	err := a.cfg.Issues.InitializeLabels(c.r.Context(), c.actor, v.Repo.OwnerName, v.Repo.Name, name)
	if err == nil {
		return true
	}
	if derr := a.cfg.Repos.Delete(context.WithoutCancel(c.r.Context()), c.actor, v.Repo.OwnerName, v.Repo.Name); derr != nil {
		a.log.ErrorContext(c.r.Context(), "repos: undoing a creation whose labels failed", "repo", v.Repo.ID, "err", derr)
	}
	c.repoError(err)
	return false
}

// getRepo is GET /repos/{owner}/{repo}.
func (a *API) getRepo(c *call) {
	// One domain read: the repository and what it relates to in one
	// read transaction, its counters and mirror fields.
	p, err := a.cfg.Repos.Present(c.r.Context(), c.actor, c.owner(), c.repo())
	if err != nil {
		c.repoError(err)
		return
	}
	out := c.presented(c.rootURL(), p)
	c.jsonRepository(http.StatusOK, &out)
}

// getRepoByID is GET /repositories/{id}.
func (a *API) getRepoByID(c *call) {
	id, err := strconv.ParseInt(c.pathValue("id"), 10, 64)
	if err != nil {
		c.notFound()
		return
	}
	v, err := a.cfg.Repos.GetByID(c.r.Context(), c.actor, id)
	if err != nil {
		c.repoError(err)
		return
	}
	c.writeRepo(http.StatusOK, v)
}

// editRepo is PATCH /repos/{owner}/{repo}: 200 with the re-read repository.
func (a *API) editRepo(c *call) {
	var o wire.EditRepoOption
	if !c.decode(&o) || !a.editMirrorFields(c, &o) {
		return
	}
	v, err := a.cfg.Repos.Edit(c.r.Context(), c.actor, c.owner(), c.repo(), editOptions(o))
	if err != nil {
		c.repoError(err, on(forge.ErrConflict, http.StatusUnprocessableEntity))
		return
	}
	c.writeRepo(http.StatusOK, v)
}

// deleteRepo is DELETE /repos/{owner}/{repo}.
func (a *API) deleteRepo(c *call) {
	if err := a.cfg.Repos.Delete(c.r.Context(), c.actor, c.owner(), c.repo()); err != nil {
		c.repoError(err)
		return
	}
	c.noContent()
}

// writeRepos answers a page of repositories: one presentation read for the
// page (toRepos), whatever its length.
func (c *call) writeRepos(list []*repos.View, total int64, o forge.ListOptions) {
	out, err := c.toRepos(list)
	if err != nil {
		c.writeError(err)
		return
	}
	c.writePage(total, o, out)
}

// listMyRepos is GET /user/repos: what the actor owns or collaborates on.
func (a *API) listMyRepos(c *call) {
	o := c.listOptions()
	list, total, err := a.cfg.Repos.List(c.r.Context(), c.actor, repos.RepoFilter{CollaboratorOf: c.actor.UserID()}, o)
	if err != nil {
		c.repoError(err)
		return
	}
	c.writeRepos(list, total, o)
}

// listUserRepos is GET /users/{username}/repos.
func (a *API) listUserRepos(c *call) {
	u, err := a.cfg.Auth.User(c.r.Context(), c.actor, c.pathValue("username"))
	if err != nil {
		c.writeError(err)
		return
	}
	o := c.listOptions()
	list, total, err := a.cfg.Repos.List(c.r.Context(), c.actor, repos.RepoFilter{OwnerID: u.ID}, o)
	if err != nil {
		c.repoError(err)
		return
	}
	c.writeRepos(list, total, o)
}

// searchRepos is GET /repos/search: `{"ok": true, "data": [...]}`.
func (a *API) searchRepos(c *call) {
	q := c.r.URL.Query()
	f := repos.RepoFilter{Keyword: q.Get("q"), Sort: q.Get("sort"), Order: q.Get("order")}
	f.Topic, _ = strconv.ParseBool(q.Get("topic"))
	f.IncludeDesc, _ = strconv.ParseBool(q.Get("includeDesc"))
	if uid, err := strconv.ParseInt(q.Get("uid"), 10, 64); err == nil && uid > 0 {
		if q.Get("exclusive") == "true" {
			f.OwnerID = uid
		} else {
			f.CollaboratorOf = uid
		}
	}
	if sb, err := strconv.ParseInt(q.Get("starredBy"), 10, 64); err == nil && sb > 0 {
		f.StarredBy = sb
	}
	for _, b := range []struct {
		name string
		dst  **bool
	}{{"is_private", &f.Private}, {"archived", &f.Archived}, {"template", &f.Template}} {
		if v, err := strconv.ParseBool(q.Get(b.name)); err == nil {
			*b.dst = &v
		}
	}
	if v, err := strconv.ParseBool(q.Get("private")); err == nil && !v {
		f.Private = &v
	}
	o := c.listOptions()
	list, total, err := a.cfg.Repos.List(c.r.Context(), c.actor, f, o)
	if err != nil {
		c.repoError(err)
		return
	}
	out, err := c.toRepos(list)
	if err != nil {
		c.writeError(err)
		return
	}
	c.writePage(total, o, wire.SearchResults{OK: true, Data: out})
}

// createOptions converts Forgejo's CreateRepoOption: a field left out is
// its zero value, as Forgejo's binding reads it. issue_labels is applied
// after the creation (checkIssueLabels, initializeLabels); trust_model is
// read and not applied (Hearth has no signing yet).
func createOptions(o wire.CreateRepoOption) repos.CreateOptions {
	return repos.CreateOptions{
		Name: o.Name, Description: valueOf(o.Description), Private: valueOf(o.Private),
		AutoInit: valueOf(o.AutoInit), Template: valueOf(o.Template), Gitignores: valueOf(o.Gitignores),
		License: valueOf(o.License), Readme: valueOf(o.Readme), DefaultBranch: valueOf(o.DefaultBranch),
		ObjectFormat: forge.ObjectFormat(valueOf(o.ObjectFormatName)),
	}
}

// editOptions converts Forgejo's EditRepoOption field by field: a field
// left out (nil) stays nil, so the edit changes only what the request
// names.
func editOptions(o wire.EditRepoOption) repos.EditOptions {
	e := repos.EditOptions{
		Name: o.Name, Description: o.Description, Website: o.Website, Private: o.Private, Template: o.Template,
		HasIssues: o.HasIssues, HasWiki: o.HasWiki, GloballyEditableWiki: o.GloballyEditableWiki,
		DefaultBranch: o.DefaultBranch, WikiBranch: o.WikiBranch, HasPullRequests: o.HasPullRequests,
		HasProjects: o.HasProjects, HasReleases: o.HasReleases, HasPackages: o.HasPackages, HasActions: o.HasActions,
		IgnoreWhitespaceConflicts: o.IgnoreWhitespaceConflicts, AllowMerge: o.AllowMerge, AllowRebase: o.AllowRebase,
		AllowRebaseExplicit: o.AllowRebaseMerge, AllowSquash: o.AllowSquash, AllowFastForwardOnly: o.AllowFastForwardOnly,
		AllowManualMerge: o.AllowManualMerge, AutodetectManualMerge: o.AutodetectManualMerge,
		AllowRebaseUpdate: o.AllowRebaseUpdate, DefaultDeleteBranchAfterMerge: o.DefaultDeleteBranchAfterMerge,
		DefaultMergeStyle: o.DefaultMergeStyle, DefaultUpdateStyle: o.DefaultUpdateStyle,
		DefaultAllowMaintainerEdit: o.DefaultAllowMaintainerEdit, Archived: o.Archived,
		MirrorInterval: o.MirrorInterval, EnablePrune: o.EnablePrune,
	}
	if t := o.InternalTracker; t != nil {
		e.InternalTracker = &forge.InternalTracker{EnableTimeTracker: t.EnableTimeTracker,
			AllowOnlyContributorsToTrackTime: t.AllowOnlyContributorsToTrackTime, EnableIssueDependencies: t.EnableIssueDependencies}
	}
	if t := o.ExternalTracker; t != nil {
		e.ExternalTracker = &forge.ExternalTracker{URL: t.ExternalTrackerURL, Format: t.ExternalTrackerFormat,
			Style: t.ExternalTrackerStyle, RegexpPattern: t.ExternalTrackerRegexpPattern}
	}
	if w := o.ExternalWiki; w != nil {
		e.ExternalWiki = &forge.ExternalWiki{URL: w.ExternalWikiURL}
	}
	return e
}
