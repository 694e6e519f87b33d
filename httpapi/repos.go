package httpapi

import (
	"errors"
	"net/http"
	"strconv"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
)

// repoError writes repository errors in Forgejo's shapes: an unknown owner
// is `{"message":"GetUserByName","errors":["user redirect does not exist
// …"]}`, an invisible or missing repository the default not-found body,
// invalid topics `{"invalidTopics":[…],"message":…}`.
func (c *call) repoError(err error, overrides ...statusFor) {
	var owner *repos.OwnerNotFoundError
	var topics *repos.InvalidTopicsError
	switch {
	case errors.As(err, &owner):
		c.json(http.StatusNotFound, notFoundBody{Message: "GetUserByName", URL: c.swaggerURL(), Errors: []string{err.Error()}})
	case errors.Is(err, repos.ErrRepoNotFound):
		c.notFound()
	case errors.As(err, &topics):
		c.json(http.StatusUnprocessableEntity, struct {
			InvalidTopics []string `json:"invalidTopics"`
			Message       string   `json:"message"`
		}{topics.Topics, "invalid topics"})
	default:
		c.writeError(err, overrides...)
	}
}

// notFoundBody is Forgejo's APINotFound.
type notFoundBody struct {
	Message string   `json:"message"`
	URL     string   `json:"url"`
	Errors  []string `json:"errors"`
}

func (c *call) owner() string { return c.pathValue("owner") }
func (c *call) repo() string  { return c.pathValue("repo") }

// createRepoOption is Forgejo's CreateRepoOption.
type createRepoOption struct {
	Name          string `json:"name"`
	Description   string `json:"description"`
	Private       bool   `json:"private"`
	IssueLabels   string `json:"issue_labels"`
	AutoInit      bool   `json:"auto_init"`
	Template      bool   `json:"template"`
	Gitignores    string `json:"gitignores"`
	License       string `json:"license"`
	Readme        string `json:"readme"`
	DefaultBranch string `json:"default_branch"`
	TrustModel    string `json:"trust_model"`
	ObjectFormat  string `json:"object_format_name"`
}

// createUserRepo is POST /user/repos.
func (a *API) createUserRepo(c *call) { a.createRepo(c, "") }

// adminCreateRepo is POST /admin/users/{username}/repos.
func (a *API) adminCreateRepo(c *call) { a.createRepo(c, c.pathValue("username")) }

func (a *API) createRepo(c *call, owner string) {
	var opt createRepoOption
	if !c.decode(&opt) {
		return
	}
	if opt.Name == "" {
		c.errorStatus(http.StatusUnprocessableEntity, "[Name]: Required")
		return
	}
	v, err := a.cfg.Repos.Create(c.r.Context(), c.actor, owner, repos.CreateOptions{
		Name: opt.Name, Description: opt.Description, Private: opt.Private, AutoInit: opt.AutoInit,
		Template: opt.Template, Gitignores: opt.Gitignores, License: opt.License, Readme: opt.Readme,
		DefaultBranch: opt.DefaultBranch, ObjectFormat: forge.ObjectFormat(opt.ObjectFormat),
	})
	if err != nil {
		c.repoError(err)
		return
	}
	c.json(http.StatusCreated, c.toRepo(v))
}

// getRepo is GET /repos/{owner}/{repo}.
func (a *API) getRepo(c *call) {
	v, err := a.cfg.Repos.Get(c.r.Context(), c.actor, c.owner(), c.repo())
	if err != nil {
		c.repoError(err)
		return
	}
	c.json(http.StatusOK, c.toRepo(v))
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
	c.json(http.StatusOK, c.toRepo(v))
}

// editRepoOption is Forgejo's EditRepoOption.
type editRepoOption struct {
	Name                          *string                `json:"name"`
	Description                   *string                `json:"description"`
	Website                       *string                `json:"website"`
	Private                       *bool                  `json:"private"`
	Template                      *bool                  `json:"template"`
	HasIssues                     *bool                  `json:"has_issues"`
	InternalTracker               *forge.InternalTracker `json:"internal_tracker"`
	ExternalTracker               *forge.ExternalTracker `json:"external_tracker"`
	HasWiki                       *bool                  `json:"has_wiki"`
	ExternalWiki                  *forge.ExternalWiki    `json:"external_wiki"`
	GloballyEditableWiki          *bool                  `json:"globally_editable_wiki"`
	DefaultBranch                 *string                `json:"default_branch"`
	WikiBranch                    *string                `json:"wiki_branch"`
	HasPullRequests               *bool                  `json:"has_pull_requests"`
	HasProjects                   *bool                  `json:"has_projects"`
	HasReleases                   *bool                  `json:"has_releases"`
	HasPackages                   *bool                  `json:"has_packages"`
	HasActions                    *bool                  `json:"has_actions"`
	IgnoreWhitespaceConflicts     *bool                  `json:"ignore_whitespace_conflicts"`
	AllowMerge                    *bool                  `json:"allow_merge_commits"`
	AllowRebase                   *bool                  `json:"allow_rebase"`
	AllowRebaseMerge              *bool                  `json:"allow_rebase_explicit"`
	AllowSquash                   *bool                  `json:"allow_squash_merge"`
	AllowFastForwardOnly          *bool                  `json:"allow_fast_forward_only_merge"`
	AllowManualMerge              *bool                  `json:"allow_manual_merge"`
	AutodetectManualMerge         *bool                  `json:"autodetect_manual_merge"`
	AllowRebaseUpdate             *bool                  `json:"allow_rebase_update"`
	DefaultDeleteBranchAfterMerge *bool                  `json:"default_delete_branch_after_merge"`
	DefaultMergeStyle             *string                `json:"default_merge_style"`
	DefaultUpdateStyle            *string                `json:"default_update_style"`
	DefaultAllowMaintainerEdit    *bool                  `json:"default_allow_maintainer_edit"`
	Archived                      *bool                  `json:"archived"`
	MirrorInterval                *string                `json:"mirror_interval"`
	EnablePrune                   *bool                  `json:"enable_prune"`
}

// editRepo is PATCH /repos/{owner}/{repo}: 200 with the re-read repository.
func (a *API) editRepo(c *call) {
	var o editRepoOption
	if !c.decode(&o) {
		return
	}
	v, err := a.cfg.Repos.Edit(c.r.Context(), c.actor, c.owner(), c.repo(), repos.EditOptions{
		Name: o.Name, Description: o.Description, Website: o.Website, Private: o.Private, Template: o.Template,
		HasIssues: o.HasIssues, InternalTracker: o.InternalTracker, ExternalTracker: o.ExternalTracker,
		HasWiki: o.HasWiki, ExternalWiki: o.ExternalWiki, GloballyEditableWiki: o.GloballyEditableWiki,
		DefaultBranch: o.DefaultBranch, WikiBranch: o.WikiBranch, HasPullRequests: o.HasPullRequests,
		HasProjects: o.HasProjects, HasReleases: o.HasReleases, HasPackages: o.HasPackages, HasActions: o.HasActions,
		IgnoreWhitespaceConflicts: o.IgnoreWhitespaceConflicts, AllowMerge: o.AllowMerge, AllowRebase: o.AllowRebase,
		AllowRebaseExplicit: o.AllowRebaseMerge, AllowSquash: o.AllowSquash, AllowFastForwardOnly: o.AllowFastForwardOnly,
		AllowManualMerge: o.AllowManualMerge, AutodetectManualMerge: o.AutodetectManualMerge,
		AllowRebaseUpdate: o.AllowRebaseUpdate, DefaultDeleteBranchAfterMerge: o.DefaultDeleteBranchAfterMerge,
		DefaultMergeStyle: o.DefaultMergeStyle, DefaultUpdateStyle: o.DefaultUpdateStyle,
		DefaultAllowMaintainerEdit: o.DefaultAllowMaintainerEdit, Archived: o.Archived,
		MirrorInterval: o.MirrorInterval, EnablePrune: o.EnablePrune,
	})
	if err != nil {
		c.repoError(err, on(forge.ErrConflict, http.StatusUnprocessableEntity))
		return
	}
	c.json(http.StatusOK, c.toRepo(v))
}

// deleteRepo is DELETE /repos/{owner}/{repo}.
func (a *API) deleteRepo(c *call) {
	if err := a.cfg.Repos.Delete(c.r.Context(), c.actor, c.owner(), c.repo()); err != nil {
		c.repoError(err)
		return
	}
	c.noContent()
}

func (c *call) writeRepos(list []*repos.View, total int64, o forge.ListOptions) {
	out := make([]repositoryJSON, len(list))
	for i, v := range list {
		out[i] = c.toRepo(v)
	}
	c.setLinkHeader(total, o)
	c.setTotalCount(total)
	c.json(http.StatusOK, out)
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
	out := make([]repositoryJSON, len(list))
	for i, v := range list {
		out[i] = c.toRepo(v)
	}
	c.setLinkHeader(total, o)
	c.setTotalCount(total)
	c.json(http.StatusOK, struct {
		OK   bool             `json:"ok"`
		Data []repositoryJSON `json:"data"`
	}{true, out})
}
