package httpapi

import (
	"errors"
	"net/http"
	"strconv"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/httpapi/convert"
	"github.com/hearthforge/hearth/httpapi/wire"
	"github.com/hearthforge/hearth/issues"
)

// pathRepo is the repository of the request's path, for the URLs of
// labels the service returns without their repository.
func (c *call) pathRepo() *forge.Repository {
	return &forge.Repository{OwnerName: c.owner(), Name: c.repo()}
}

// repoLabels converts labels of the path's repository (and of its owner,
// when an organisation).
func (c *call) repoLabels(list []*issues.Label) []wire.Label {
	return convert.Labels(c.rootURL(), c.pathRepo(), c.owner(), list)
}

// repoLabel converts a label of the path's repository (or of its owner,
// when an organisation).
func (c *call) repoLabel(l *issues.Label) wire.Label {
	return convert.Label(c.rootURL(), c.pathRepo(), c.owner(), l)
}

// labelListOptions reads `page` and `limit` of a label list: Forgejo pages
// labels only when `page` is a positive number; otherwise every label is
// listed (Page 0).
func (c *call) labelListOptions() forge.ListOptions {
	if page, _ := strconv.Atoi(c.r.URL.Query().Get("page")); page > 0 {
		return c.listOptions()
	}
	return forge.ListOptions{}
}

// labelID reads a numeric `{id}`: anything else is a label that does not
// exist (Forgejo's ParamsInt64 reads 0).
func (c *call) labelID() (forge.ID, bool) { return c.idParam("id") }

func createLabelOption(o wire.CreateLabelOption) issues.CreateLabelOption {
	return issues.CreateLabelOption{Name: o.Name, Color: o.Color, Exclusive: valueOf(o.Exclusive),
		Description: valueOf(o.Description), IsArchived: valueOf(o.IsArchived)}
}

func editLabelOption(o wire.EditLabelOption) issues.EditLabelOption {
	return issues.EditLabelOption{Name: o.Name, Color: o.Color, Exclusive: o.Exclusive,
		Description: o.Description, IsArchived: o.IsArchived}
}

// listRepoLabels is GET /repos/{owner}/{repo}/labels, with X-Total-Count
// (no Link header, as Forgejo).
func (a *API) listRepoLabels(c *call) {
	list, total, err := a.cfg.Issues.ListLabels(c.r.Context(), c.actor, c.owner(), c.repo(),
		issues.LabelSort(c.r.URL.Query().Get("sort")), c.labelListOptions())
	totalAs(c, list, total, err, with(c.issueError), c.repoLabels)
}

// getRepoLabel is GET /repos/{owner}/{repo}/labels/{id}: by id, or by name
// when {id} is not a number.
func (a *API) getRepoLabel(c *call) {
	l, err := a.cfg.Issues.GetLabel(c.r.Context(), c.actor, c.owner(), c.repo(), c.pathValue("id"))
	jsonAs(c, http.StatusOK, l, err, with(c.issueError), c.repoLabel)
}

// createRepoLabel is POST /repos/{owner}/{repo}/labels: 201; a bad colour
// is 422 `bad color code: <c>`.
func (a *API) createRepoLabel(c *call) {
	var o wire.CreateLabelOption
	if !c.decode(&o) {
		return
	}
	l, err := a.cfg.Issues.CreateLabel(c.r.Context(), c.actor, c.owner(), c.repo(), createLabelOption(o))
	jsonAs(c, http.StatusCreated, l, err, with(c.issueError), c.repoLabel)
}

// editRepoLabel is PATCH /repos/{owner}/{repo}/labels/{id}: 200. As
// Forgejo, an edit without is_archived un-archives the label.
func (a *API) editRepoLabel(c *call) {
	id, ok := c.labelID()
	var o wire.EditLabelOption
	if !ok || !c.decode(&o) {
		return
	}
	l, err := a.cfg.Issues.EditLabel(c.r.Context(), c.actor, c.owner(), c.repo(), id, editLabelOption(o))
	jsonAs(c, http.StatusOK, l, err, with(c.issueError), c.repoLabel)
}

// deleteRepoLabel is DELETE /repos/{owner}/{repo}/labels/{id}: 204. As
// Forgejo's issues_model.DeleteLabel, a label that does not exist (or
// belongs elsewhere) is deleted already: 204 too.
func (a *API) deleteRepoLabel(c *call) {
	id, ok := c.labelID()
	if !ok {
		return
	}
	err := a.cfg.Issues.DeleteLabel(c.r.Context(), c.actor, c.owner(), c.repo(), id)
	if err != nil && !errors.Is(err, issues.ErrLabelNotFound) {
		c.issueError(err)
		return
	}
	c.noContent()
}

// orgLabels converts labels of the path's organisation.
func (c *call) orgLabel(l *issues.Label) wire.Label {
	return convert.Label(c.rootURL(), nil, c.pathValue("org"), l)
}

// orgLabelError writes organisation-label errors: unknown organisations
// and labels are Forgejo's default not-found body.
func (c *call) orgLabelError(err error) {
	if errors.Is(err, forge.ErrNotFound) {
		c.notFound()
		return
	}
	c.writeError(err)
}

// listOrgLabels is GET /orgs/{org}/labels, with X-Total-Count.
func (a *API) listOrgLabels(c *call) {
	list, total, err := a.cfg.Issues.ListOrgLabels(c.r.Context(), c.actor, c.pathValue("org"),
		issues.LabelSort(c.r.URL.Query().Get("sort")), c.listOptions())
	totalAs(c, list, total, err, c.orgLabelError, each(c.orgLabel))
}

// getOrgLabel is GET /orgs/{org}/labels/{id}: by id, or by name when
// {id} is not a number.
func (a *API) getOrgLabel(c *call) {
	l, err := a.cfg.Issues.GetOrgLabel(c.r.Context(), c.actor, c.pathValue("org"), c.pathValue("id"))
	jsonAs(c, http.StatusOK, l, err, c.orgLabelError, c.orgLabel)
}

// createOrgLabel is POST /orgs/{org}/labels: 201.
func (a *API) createOrgLabel(c *call) {
	var o wire.CreateLabelOption
	if !c.decode(&o) {
		return
	}
	l, err := a.cfg.Issues.CreateOrgLabel(c.r.Context(), c.actor, c.pathValue("org"), createLabelOption(o))
	jsonAs(c, http.StatusCreated, l, err, c.orgLabelError, c.orgLabel)
}

// editOrgLabel is PATCH /orgs/{org}/labels/{id}: 200 (an absent
// is_archived un-archives, as for repository labels).
func (a *API) editOrgLabel(c *call) {
	id, ok := c.labelID()
	var o wire.EditLabelOption
	if !ok || !c.decode(&o) {
		return
	}
	l, err := a.cfg.Issues.EditOrgLabel(c.r.Context(), c.actor, c.pathValue("org"), id, editLabelOption(o))
	jsonAs(c, http.StatusOK, l, err, c.orgLabelError, c.orgLabel)
}

// deleteOrgLabel is DELETE /orgs/{org}/labels/{id}: 204 (an unknown label
// too, as Forgejo).
func (a *API) deleteOrgLabel(c *call) {
	id, ok := c.labelID()
	if !ok {
		return
	}
	err := a.cfg.Issues.DeleteOrgLabel(c.r.Context(), c.actor, c.pathValue("org"), id)
	if err != nil && !errors.Is(err, issues.ErrLabelNotFound) {
		c.orgLabelError(err)
		return
	}
	c.noContent()
}
