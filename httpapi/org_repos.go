package httpapi

import (
	"errors"
	"net/http"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/orgs"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/httpapi/wire"
)

// listOrgRepos is GET /orgs/{org}/repos: the organisation's repositories
// the actor may see, each with the actor's permissions. An organisation
// the actor may not see is 404, as a missing one (orgAssignment's
// GetOrgByName).
func (a *API) listOrgRepos(c *call) {
	o := c.listOptions()
	list, total, err := a.cfg.Repos.ListOrgRepos(c.r.Context(), c.actor, c.org(), o)
	var missing *repos.OrgNotFoundError
	if errors.As(err, &missing) {
		c.notFoundBody("GetOrgByName", (&orgs.NotFoundError{Name: missing.Name}).Error())
		return
	} else if err != nil {
		c.repoError(err)
		return
	}
	c.writeRepos(list, total, o)
}

// createOrgRepo is POST /orgs/{org}/repos: 201 with the repository. An
// unknown organisation is orgAssignment's 404 (GetOrgByName).
func (a *API) createOrgRepo(c *call) { a.createInOrg(c, true) }

// createOrgRepoDeprecated is the deprecated POST /org/{org}/repos, which
// Forgejo routes without orgAssignment: an unknown organisation is 422
// `org does not exist [id: 0, name: x]`.
func (a *API) createOrgRepoDeprecated(c *call) { a.createInOrg(c, false) }

// createInOrg creates a repository in {org}. Who may (owners, members of a
// team that can create repositories, site administrators) is decided by
// forge/repos; an organisation the actor may not see is Forgejo's 404
// HasOrgOrUserVisible.
func (a *API) createInOrg(c *call, assign bool) {
	var opt wire.CreateRepoOption
	if !c.decode(&opt) || !c.present("Name", opt.Name != "") {
		return
	}
	if assign {
		if _, err := a.cfg.Orgs.Get(c.r.Context(), c.actor, c.org()); err != nil {
			c.orgError(err)
			return
		}
	}
	if !c.checkIssueLabels(opt) {
		return
	}
	v, err := a.cfg.Repos.CreateInOrg(c.r.Context(), c.actor, c.org(), createOptions(opt))
	if errors.Is(err, repos.ErrOrgNotVisible) {
		c.notFoundBody(err.Error())
		return
	} else if err != nil {
		c.repoError(err)
		return
	}
	if !a.initializeLabels(c, v, opt) {
		return
	}
	c.writeRepo(http.StatusCreated, v)
}

// teamRepoViews loads the views of a team's repositories, all owned by
// the organisation org, with the actor's permission on each, in a fixed
// number of reads whatever the page's length (repos.Service.ViewsOf).
// Forgejo's team routes need the organization scope only, and ViewsOf
// checks no repository scope.
func (a *API) teamRepoViews(c *call, org *forge.User, list []*forge.Repository) ([]*repos.View, error) {
	views, err := a.cfg.Repos.ViewsOf(c.r.Context(), c.actor, list)
	if err != nil {
		return nil, err
	}
	for _, v := range views {
		v.Owner = org
	}
	return views, nil
}

// listTeamRepos is GET /teams/{id}/repos.
func (a *API) listTeamRepos(c *call) {
	id, ok := c.teamID()
	if !ok {
		return
	}
	o := c.listOptions()
	page, err := a.cfg.Orgs.ListTeamRepos(c.r.Context(), c.actor, id, o)
	if err != nil {
		c.orgError(err)
		return
	}
	if page.Org == nil || len(page.Repos) == 0 {
		c.writeRepos(nil, page.Total, o)
		return
	}
	views, err := a.teamRepoViews(c, page.Org, page.Repos)
	if err != nil {
		c.repoError(err)
		return
	}
	c.writeRepos(views, page.Total, o)
}

// getTeamRepo is GET /teams/{id}/repos/{org}/{repo}: 200 with the
// repository, 404 when the team does not have it. As in Forgejo, {org} is
// not read: the repository is the team's organisation's.
func (a *API) getTeamRepo(c *call) {
	id, ok := c.teamID()
	if !ok {
		return
	}
	r, err := a.cfg.Orgs.TeamRepo(c.r.Context(), c.actor, id, c.org(), c.repo())
	if err != nil {
		c.orgError(err)
		return
	}
	team, err := a.cfg.Orgs.GetTeam(c.r.Context(), c.actor, id)
	if err != nil {
		c.orgError(err)
		return
	}
	views, err := a.teamRepoViews(c, team.Org, []*forge.Repository{r})
	if err != nil {
		c.repoError(err)
		return
	}
	c.writeRepo(http.StatusOK, views[0])
}

// addTeamRepo is PUT /teams/{id}/repos/{org}/{repo}: 204.
func (a *API) addTeamRepo(c *call) {
	id, ok := c.teamID()
	if !ok {
		return
	}
	c.noContentOr(a.cfg.Orgs.AddTeamRepo(c.r.Context(), c.actor, id, c.org(), c.repo()), with(c.orgError))
}

// removeTeamRepo is DELETE /teams/{id}/repos/{org}/{repo}: 204.
func (a *API) removeTeamRepo(c *call) {
	id, ok := c.teamID()
	if !ok {
		return
	}
	c.noContentOr(a.cfg.Orgs.RemoveTeamRepo(c.r.Context(), c.actor, id, c.org(), c.repo()), with(c.orgError))
}

// listRepoTeams is GET /repos/{owner}/{repo}/teams: the teams that have
// the repository, without their organisation (Forgejo's).
func (a *API) listRepoTeams(c *call) {
	list, err := a.cfg.Orgs.RepoTeams(c.r.Context(), c.actor, c.owner(), c.repo())
	jsonAs(c, http.StatusOK, list, err, c.repoTeamError, c.toTeams)
}

// checkRepoTeam is GET /repos/{owner}/{repo}/teams/{team}: 200 with the
// team when it has the repository, else 404.
func (a *API) checkRepoTeam(c *call) {
	t, err := a.cfg.Orgs.RepoTeam(c.r.Context(), c.actor, c.owner(), c.repo(), c.pathValue("team"))
	if err != nil {
		c.repoTeamError(err)
		return
	}
	c.json(http.StatusOK, c.toTeam(t, nil))
}

// addRepoTeam is PUT /repos/{owner}/{repo}/teams/{team}: 204.
func (a *API) addRepoTeam(c *call) {
	c.noContentOr(a.cfg.Orgs.AddRepoTeam(c.r.Context(), c.actor, c.owner(), c.repo(), c.pathValue("team")), c.repoTeamError)
}

// removeRepoTeam is DELETE /repos/{owner}/{repo}/teams/{team}: 204.
func (a *API) removeRepoTeam(c *call) {
	c.noContentOr(a.cfg.Orgs.RemoveRepoTeam(c.r.Context(), c.actor, c.owner(), c.repo(), c.pathValue("team")), c.repoTeamError)
}
