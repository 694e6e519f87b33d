package httpapi

import (
	"net/http"

	"github.com/hearthforge/hearth/httpapi/convert"
	"github.com/hearthforge/hearth/httpapi/wire"
	"github.com/hearthforge/hearth/issues"
)

// listMilestones is GET /repos/{owner}/{repo}/milestones: `state` open or
// closed filters (anything else, `all` included, lists both), `name`
// filters by title; one page, with X-Total-Count (no Link, as Forgejo).
func (a *API) listMilestones(c *call) {
	q := c.r.URL.Query()
	o := c.listOptions()
	list, total, err := a.cfg.Issues.ListMilestones(c.r.Context(), c.actor, c.owner(), c.repo(),
		issues.ListMilestonesOption{State: issues.State(q.Get("state")), Name: q.Get("name"), ListOptions: o})
	totalAs(c, list, total, err, with(c.issueError), each(convert.Milestone))
}

// getMilestone is GET /repos/{owner}/{repo}/milestones/{id}: by id, else by
// title.
func (a *API) getMilestone(c *call) {
	m, err := a.cfg.Issues.GetMilestone(c.r.Context(), c.actor, c.owner(), c.repo(), c.pathValue("id"))
	jsonAs(c, http.StatusOK, m, err, with(c.issueError), convert.Milestone)
}

// createMilestone is POST /repos/{owner}/{repo}/milestones: 201.
func (a *API) createMilestone(c *call) {
	var o wire.CreateMilestoneOption
	if !c.decode(&o) {
		return
	}
	opt := issues.CreateMilestoneOption{Title: valueOf(o.Title), Description: valueOf(o.Description), Deadline: o.Deadline}
	if o.State != nil {
		opt.State = issues.State(*o.State)
	}
	m, err := a.cfg.Issues.CreateMilestone(c.r.Context(), c.actor, c.owner(), c.repo(), opt)
	jsonAs(c, http.StatusCreated, m, err, with(c.issueError), convert.Milestone)
}

// editMilestone is PATCH /repos/{owner}/{repo}/milestones/{id}: 200.
func (a *API) editMilestone(c *call) {
	var o wire.EditMilestoneOption
	if !c.decode(&o) {
		return
	}
	opt := issues.EditMilestoneOption{Title: o.Title, Description: o.Description, Deadline: o.Deadline}
	if o.State != nil {
		st := issues.State(*o.State)
		opt.State = &st
	}
	m, err := a.cfg.Issues.EditMilestone(c.r.Context(), c.actor, c.owner(), c.repo(), c.pathValue("id"), opt)
	jsonAs(c, http.StatusOK, m, err, with(c.issueError), convert.Milestone)
}

// deleteMilestone is DELETE /repos/{owner}/{repo}/milestones/{id}: 204.
func (a *API) deleteMilestone(c *call) {
	c.noContentOr(a.cfg.Issues.DeleteMilestone(c.r.Context(), c.actor, c.owner(), c.repo(), c.pathValue("id")), with(c.issueError))
}
