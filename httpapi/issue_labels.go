package httpapi

import (
	"context"
	"net/http"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/httpapi/wire"
	"github.com/hearthforge/hearth/issues"
)

// githubJSON reports whether the client asked for GitHub's media type
// (Forgejo's AcceptsGithubResponse).
func (c *call) githubJSON() bool {
	return c.r.Header.Get("Accept") == "application/vnd.github+json"
}

// listIssueLabels is GET /repos/{owner}/{repo}/issues/{index}/labels.
func (a *API) listIssueLabels(c *call) {
	index, ok := c.indexParam()
	if !ok {
		return
	}
	list, err := a.cfg.Issues.IssueLabels(c.r.Context(), c.actor, c.owner(), c.repo(), index)
	jsonAs(c, http.StatusOK, list, err, with(c.issueError), c.repoLabels)
}

// labelsOption reads an IssueLabelsOption as Forgejo's
// prepareForReplaceOrAdd: the issue is looked up first (404), then the
// labels must be all numbers or all strings (400) — for writers and
// non-writers alike, the permission coming after.
func (a *API) labelsOption(c *call, index int64) (issues.LabelsOption, bool) {
	var o wire.IssueLabelsOption
	if !c.decode(&o) {
		return issues.LabelsOption{}, false
	}
	ids, names, err := labelRefs(o.Labels)
	if err != nil {
		if _, gerr := a.cfg.Issues.Get(c.r.Context(), c.actor, c.owner(), c.repo(), index); gerr != nil {
			c.issueError(gerr)
			return issues.LabelsOption{}, false
		}
		c.errorStatus(http.StatusBadRequest, err.Error())
		return issues.LabelsOption{}, false
	}
	return issues.LabelsOption{IDs: ids, Names: names, UpdatedAt: o.Updated}, true
}

// addIssueLabels is POST /repos/{owner}/{repo}/issues/{index}/labels: 200
// with every label now on the issue (Forgejo answers 200, not 201).
// Exclusive scopes apply: the alphabetically last label of a scope stays.
func (a *API) addIssueLabels(c *call) { a.setIssueLabels(c, a.cfg.Issues.AddLabels) }

// replaceIssueLabels is PUT /repos/{owner}/{repo}/issues/{index}/labels:
// 200 with the labels now on the issue; no labels clears them.
func (a *API) replaceIssueLabels(c *call) { a.setIssueLabels(c, a.cfg.Issues.ReplaceLabels) }

// setIssueLabels answers the label-setting routes: it reads {index} and
// the labels, and answers 200 with the labels set puts on the issue.
func (a *API) setIssueLabels(c *call, set func(context.Context, forge.Actor, string, string, int64, issues.LabelsOption) ([]*issues.Label, error)) {
	index, ok := c.indexParam()
	if !ok {
		return
	}
	opt, ok := a.labelsOption(c, index)
	if !ok {
		return
	}
	list, err := set(c.r.Context(), c.actor, c.owner(), c.repo(), index, opt)
	jsonAs(c, http.StatusOK, list, err, with(c.issueError), c.repoLabels)
}

// clearIssueLabels is DELETE /repos/{owner}/{repo}/issues/{index}/labels: 204.
func (a *API) clearIssueLabels(c *call) {
	index, ok := c.indexParam()
	var o wire.DeleteLabelsOption
	if !ok || !c.decode(&o) {
		return
	}
	c.noContentOr(a.cfg.Issues.ClearLabels(c.r.Context(), c.actor, c.owner(), c.repo(), index, o.Updated), with(c.issueError))
}

// removeIssueLabel is DELETE
// /repos/{owner}/{repo}/issues/{index}/labels/{identifier}: 204 (removing
// a label the issue does not have too); 422 with the error text when the
// identifier names no label. A client asking for GitHub's media type gets
// 200 with the label, as Forgejo (also when the issue did not bear it).
func (a *API) removeIssueLabel(c *call) {
	index, ok := c.indexParam()
	var o wire.DeleteLabelsOption
	if !ok || !c.decode(&o) {
		return
	}
	removed, err := a.cfg.Issues.RemoveLabel(c.r.Context(), c.actor, c.owner(), c.repo(), index, c.pathValue("identifier"), o.Updated)
	if err != nil {
		c.issueError(err, on(issues.ErrLabelNotFound, http.StatusUnprocessableEntity))
		return
	}
	if !c.githubJSON() {
		c.noContent()
		return
	}
	c.json(http.StatusOK, c.repoLabels([]*issues.Label{removed}))
}
