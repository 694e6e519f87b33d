package httpapi

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/orgs"
	"github.com/hearthforge/hearth/httpapi/convert"
	"github.com/hearthforge/hearth/httpapi/wire"
)

func (c *call) toTeam(t *forge.Team, org *forge.User) wire.Team {
	return convert.Team(c.rootURL(), t, org)
}

// toTeams converts a list of teams without their organisation, as
// Forgejo's lists show them.
func (c *call) toTeams(list []*forge.Team) []wire.Team {
	out := make([]wire.Team, len(list))
	for i, t := range list {
		out[i] = c.toTeam(t, nil)
	}
	return out
}

// teamID reads {id}; ok is false, and the request answered with Forgejo's
// 404, when it is not a number (Forgejo reads it as 0, no team).
func (c *call) teamID() (forge.ID, bool) {
	id, err := strconv.ParseInt(c.pathValue("id"), 10, 64)
	if err != nil || id <= 0 {
		c.notFound()
		return 0, false
	}
	return id, true
}

// listOrgTeams is GET /orgs/{org}/teams.
func (a *API) listOrgTeams(c *call) {
	o := c.listOptions()
	list, total, err := a.cfg.Orgs.ListTeams(c.r.Context(), c.actor, c.org(), o)
	pageAs(c, list, total, o, err, with(c.orgError), c.toTeams)
}

// teamSearchResults is Forgejo's TeamSearchResults, which the document
// declares inline (no definition to generate a type from).
type teamSearchResults struct {
	OK   bool        `json:"ok"`
	Data []wire.Team `json:"data"`
}

// searchTeams is GET /orgs/{org}/teams/search: `{"ok":true,"data":[...]}`.
// include_desc defaults to true; a value that is no boolean is false
// (Forgejo's FormBool).
func (a *API) searchTeams(c *call) {
	q := c.r.URL.Query()
	includeDesc := true
	if s := q.Get("include_desc"); s != "" {
		includeDesc, _ = strconv.ParseBool(s)
	}
	o := c.listOptions()
	list, total, err := a.cfg.Orgs.SearchTeams(c.r.Context(), c.actor, c.org(), strings.TrimSpace(q.Get("q")), includeDesc, o)
	if err != nil {
		c.orgError(err)
		return
	}
	c.writePage(total, o, teamSearchResults{OK: true, Data: c.toTeams(list)})
}

// listMyTeams is GET /user/teams: each team with its organisation.
func (a *API) listMyTeams(c *call) {
	o := c.listOptions()
	list, total, err := a.cfg.Orgs.ListUserTeams(c.r.Context(), c.actor, o)
	if err != nil {
		c.orgError(err)
		return
	}
	out := make([]wire.Team, len(list))
	for i, v := range list {
		out[i] = c.toTeam(v.Team, v.Org)
	}
	c.writePage(total, o, out)
}

// createTeam is POST /orgs/{org}/teams: 201 with the team and its
// organisation.
func (a *API) createTeam(c *call) {
	var o wire.CreateTeamOption
	if !c.decode(&o) || !c.present("Name", o.Name != "") {
		return
	}
	opts := orgs.CreateTeamOptions{
		Name: o.Name, Description: valueOf(o.Description), Units: valueOf(o.Units), UnitsMap: valueOf(o.UnitsMap),
		IncludesAllRepos: valueOf(o.IncludesAllRepositories), CanCreateOrgRepo: valueOf(o.CanCreateOrgRepo),
	}
	if o.Permission != nil {
		opts.Permission = string(*o.Permission)
	}
	v, err := a.cfg.Orgs.CreateTeam(c.r.Context(), c.actor, c.org(), opts)
	if err != nil {
		c.orgError(err, on(forge.ErrConflict, http.StatusUnprocessableEntity))
		return
	}
	c.json(http.StatusCreated, c.toTeam(v.Team, v.Org))
}

// getTeam is GET /teams/{id}: the team with its organisation.
func (a *API) getTeam(c *call) {
	id, ok := c.teamID()
	if !ok {
		return
	}
	v, err := a.cfg.Orgs.GetTeam(c.r.Context(), c.actor, id)
	if err != nil {
		c.orgError(err)
		return
	}
	c.json(http.StatusOK, c.toTeam(v.Team, v.Org))
}

// editTeam is PATCH /teams/{id}: 200 with the team, its organisation null
// as in Forgejo. An empty name leaves the name unchanged.
func (a *API) editTeam(c *call) {
	id, ok := c.teamID()
	var o wire.EditTeamOption
	if !ok || !c.decode(&o) {
		return
	}
	opts := orgs.EditTeamOptions{
		Description: o.Description, Units: valueOf(o.Units), UnitsMap: valueOf(o.UnitsMap),
		IncludesAllRepos: o.IncludesAllRepositories, CanCreateOrgRepo: o.CanCreateOrgRepo,
	}
	if o.Name != "" {
		opts.Name = &o.Name
	}
	if o.Permission != nil && *o.Permission != "" {
		opts.Permission = ptrTo(string(*o.Permission))
	}
	v, err := a.cfg.Orgs.EditTeam(c.r.Context(), c.actor, id, opts)
	if err != nil {
		c.orgError(err, on(forge.ErrConflict, http.StatusUnprocessableEntity))
		return
	}
	c.json(http.StatusOK, c.toTeam(v.Team, nil))
}

// deleteTeam is DELETE /teams/{id}: 204.
func (a *API) deleteTeam(c *call) {
	id, ok := c.teamID()
	if !ok {
		return
	}
	c.noContentOr(a.cfg.Orgs.DeleteTeam(c.r.Context(), c.actor, id), with(c.orgError))
}

// listTeamMembers is GET /teams/{id}/members.
func (a *API) listTeamMembers(c *call) {
	id, ok := c.teamID()
	if !ok {
		return
	}
	o := c.listOptions()
	list, total, err := a.cfg.Orgs.ListTeamMembers(c.r.Context(), c.actor, id, o)
	pageAs(c, list, total, o, err, with(c.orgError), c.toUsers)
}

// getTeamMember is GET /teams/{id}/members/{username}: 200 with the user,
// 404 when not in the team.
func (a *API) getTeamMember(c *call) {
	id, ok := c.teamID()
	if !ok {
		return
	}
	u, err := a.cfg.Orgs.TeamMember(c.r.Context(), c.actor, id, c.pathValue("username"))
	jsonAs(c, http.StatusOK, u, err, with(c.orgError), c.toUser)
}

// addTeamMember is PUT /teams/{id}/members/{username}: 204.
func (a *API) addTeamMember(c *call) {
	id, ok := c.teamID()
	if !ok {
		return
	}
	c.noContentOr(a.cfg.Orgs.AddTeamMember(c.r.Context(), c.actor, id, c.pathValue("username")), with(c.orgError))
}

// removeTeamMember is DELETE /teams/{id}/members/{username}: 204.
func (a *API) removeTeamMember(c *call) {
	id, ok := c.teamID()
	if !ok {
		return
	}
	c.noContentOr(a.cfg.Orgs.RemoveTeamMember(c.r.Context(), c.actor, id, c.pathValue("username")), with(c.orgError))
}
