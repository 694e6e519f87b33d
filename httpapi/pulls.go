package httpapi

import (
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/httpapi/convert"
	"github.com/hearthforge/hearth/httpapi/wire"
	"github.com/hearthforge/hearth/issues"
)

// pullError writes the errors of the pull-request routes: Forgejo's 405
// for a merge it refuses (issues.ErrMergeNotAllowed), 412 for changing
// the state of a merged pull request, then issueError.
func (c *call) pullError(err error, overrides ...statusFor) {
	overrides = append(overrides, on(issues.ErrMergeNotAllowed, http.StatusMethodNotAllowed),
		on(issues.ErrPullMergedState, http.StatusPreconditionFailed))
	c.issueError(err, overrides...)
}

// pullSort reads `sort` of GET /pulls: Forgejo's values, anything else
// its default.
func pullSort(s string) issues.PullSort {
	switch v := issues.PullSort(s); v {
	case issues.PullSortOldest, issues.PullSortRecentUpdate, issues.PullSortRecentClose, issues.PullSortLeastUpdate,
		issues.PullSortMostComment, issues.PullSortLeastComment, issues.PullSortPriority:
		return v
	}
	return ""
}

// listPulls is GET /repos/{owner}/{repo}/pulls: one page, with
// X-Total-Count and Link. `labels` are label ids (repeated); ids that are
// not numbers are 400 as Forgejo's ctx.FormStrings parsing... read as
// Forgejo reads them (unparsable ones ignored).
func (a *API) listPulls(c *call) {
	q := c.r.URL.Query()
	opt := issues.ListPullsOption{State: issueState(q.Get("state")), Sort: pullSort(q.Get("sort")),
		Poster: q.Get("poster"), ListOptions: c.listOptions()}
	if m, err := strconv.ParseInt(q.Get("milestone"), 10, 64); err == nil {
		opt.Milestone = m
	}
	for _, l := range q["labels"] {
		if id, err := strconv.ParseInt(l, 10, 64); err == nil {
			opt.Labels = append(opt.Labels, id)
		}
	}
	list, total, err := a.cfg.Issues.ListPulls(c.r.Context(), c.actor, c.owner(), c.repo(), opt)
	pageAs(c, list, total, opt.ListOptions, err, with(c.pullError), c.pullsJSON)
}

// createPull is POST /repos/{owner}/{repo}/pulls: 201. Head, base and
// title are required (Forgejo's binding, 422).
func (a *API) createPull(c *call) {
	var o wire.CreatePullRequestOption
	if !c.decode(&o) {
		return
	}
	for _, f := range []struct {
		name string
		v    *string
	}{{"Head", o.Head}, {"Base", o.Base}, {"Title", o.Title}} {
		if strings.TrimSpace(valueOf(f.v)) == "" {
			c.errorStatus(http.StatusUnprocessableEntity, "["+f.name+"]: Required")
			return
		}
	}
	opt := issues.CreatePullOption{Head: *o.Head, Base: *o.Base, Title: *o.Title, Body: valueOf(o.Body),
		Assignee: valueOf(o.Assignee), Assignees: valueOf(o.Assignees), Milestone: valueOf(o.Milestone),
		Labels: valueOf(o.Labels), Deadline: o.Deadline}
	v, err := a.cfg.Issues.CreatePull(c.r.Context(), c.actor, c.owner(), c.repo(), opt)
	jsonAs(c, http.StatusCreated, v, err, with(c.pullError), c.pullJSON)
}

// getPull is GET /repos/{owner}/{repo}/pulls/{index}.
func (a *API) getPull(c *call) {
	index, ok := c.indexParam()
	if !ok {
		return
	}
	v, err := a.cfg.Issues.GetPull(c.r.Context(), c.actor, c.owner(), c.repo(), index)
	jsonAs(c, http.StatusOK, v, err, with(c.pullError), c.pullJSON)
}

// getPullByBaseHead is GET /repos/{owner}/{repo}/pulls/{base}/{head}: the
// head ("branch" or "owner:branch") takes the rest of the path.
func (a *API) getPullByBaseHead(c *call) {
	v, err := a.cfg.Issues.GetPullByBaseHead(c.r.Context(), c.actor, c.owner(), c.repo(), c.pathValue("base"), c.pathValue("head"))
	jsonAs(c, http.StatusOK, v, err, with(c.pullError), c.pullJSON)
}

// editPull is PATCH /repos/{owner}/{repo}/pulls/{index}: 201 as Forgejo
// answers it; a bare 403 for a caller neither poster nor writer; 412 for
// the state of a merged pull request; 404 `new base 'x' not exist`.
func (a *API) editPull(c *call) {
	index, ok := c.indexParam()
	var o wire.EditPullRequestOption
	if !ok || !c.decode(&o) {
		return
	}
	opt := issues.EditPullOption{Title: o.Title, Body: o.Body, Base: o.Base, Assignee: o.Assignee, Milestone: o.Milestone,
		Deadline: o.Deadline, UnsetDeadline: o.RemoveDeadline, AllowMaintainerEdit: o.AllowMaintainerEdit}
	if o.Assignees != nil {
		opt.Assignees = append([]string{}, *o.Assignees...)
	}
	if o.Labels != nil {
		opt.Labels = append([]forge.ID{}, *o.Labels...)
	}
	if o.State != nil {
		st := issues.State(*o.State)
		opt.State = &st
	}
	v, err := a.cfg.Issues.EditPull(c.r.Context(), c.actor, c.owner(), c.repo(), index, opt)
	if err != nil {
		var fe *forge.Error
		if errors.Is(err, forge.ErrNotFound) && errors.As(err, &fe) && strings.HasPrefix(fe.Message, "new base ") {
			// Forgejo: ctx.Error(404, "NewBaseBranchNotExist", err).
			c.errorStatus(http.StatusNotFound, fe.Message)
			return
		}
		c.pullError(err)
		return
	}
	c.json(http.StatusCreated, c.pullJSON(v))
}

// pullIsMerged is GET .../pulls/{index}/merge: 204 when merged, else 404.
func (a *API) pullIsMerged(c *call) {
	index, ok := c.indexParam()
	if !ok {
		return
	}
	merged, err := a.cfg.Issues.IsPullMerged(c.r.Context(), c.actor, c.owner(), c.repo(), index)
	c.presenceOr(merged, err, with(c.pullError))
}

// commitPull is GET /repos/{owner}/{repo}/commits/{sha}/pull.
func (a *API) commitPull(c *call) {
	v, err := a.cfg.Issues.CommitPull(c.r.Context(), c.actor, c.owner(), c.repo(), c.pathValue("sha"))
	jsonAs(c, http.StatusOK, v, err, with(c.pullError), c.pullJSON)
}

// candidates is GET /reviewers (reviewers) or /assignees: users, never
// null.
func (a *API) candidates(reviewers bool) func(*call) {
	return func(c *call) {
		get := a.cfg.Issues.AssigneeCandidates
		if reviewers {
			get = a.cfg.Issues.ReviewerCandidates
		}
		list, err := get(c.r.Context(), c.actor, c.owner(), c.repo())
		if err != nil {
			c.pullError(err)
			return
		}
		out := convertAll(list, c.toUser)
		c.json(http.StatusOK, out)
	}
}

// pullDiff is GET .../pulls/{index}.{diffType}: `diff` or `patch` (else
// 404), git's output streamed; `binary` adds binary hunks to a diff.
func (a *API) pullDiff(c *call) {
	index, ok := c.indexParam()
	if !ok {
		return
	}
	kind := c.pathValue("diffType")
	if kind != "diff" && kind != "patch" {
		c.notFound()
		return
	}
	binary, _ := strconv.ParseBool(c.r.URL.Query().Get("binary"))
	w := newStreamWriter(c, map[string]string{"Content-Type": "text/plain;charset=utf-8"})
	err := a.cfg.Issues.PullDiff(c.r.Context(), c.actor, c.owner(), c.repo(), index, kind, binary, w)
	if err != nil && !w.started {
		c.pullError(err)
		return
	}
	w.finish("pull diff", err)
}

// setPageHeaders sets Forgejo's X-Page, X-PerPage, X-PageCount and
// X-HasMore of the commit and file lists.
func (c *call) setPageHeaders(total int64, o forge.ListOptions) {
	pages := (total + int64(o.Limit) - 1) / int64(o.Limit)
	h := c.w.Header()
	h.Set("X-Page", strconv.Itoa(o.Page))
	h.Set("X-PerPage", strconv.Itoa(o.Limit))
	h.Set("X-PageCount", strconv.FormatInt(pages, 10))
	h.Set("X-HasMore", strconv.FormatBool(int64(o.Page) < pages))
}

// pullCommits is GET .../pulls/{index}/commits: one page of commits,
// newest first, with their stats; `files` (default true) adds their
// files, `verification` (default true) is accepted (Hearth verifies no
// signature).
func (a *API) pullCommits(c *call) {
	index, ok := c.indexParam()
	if !ok {
		return
	}
	o := c.listOptions()
	files, verification := c.boolParam("files"), c.boolParam("verification")
	v, err := a.cfg.Issues.PullCommits(c.r.Context(), c.actor, c.owner(), c.repo(), index,
		issues.PullCommitsOption{Files: files, Verification: verification, ListOptions: o})
	if err != nil {
		c.pullError(err)
		return
	}
	c.setPageHeaders(v.Total, o)
	c.writePage(v.Total, o, commitsJSON(c.rootURL(), v.Repo, v.Commits, v.Users, files, verification, c.toUser))
}

// pullFiles is GET .../pulls/{index}/files: one page of changed files.
func (a *API) pullFiles(c *call) {
	index, ok := c.indexParam()
	if !ok {
		return
	}
	q := c.r.URL.Query()
	o := c.listOptions()
	v, err := a.cfg.Issues.PullFiles(c.r.Context(), c.actor, c.owner(), c.repo(), index,
		issues.PullFilesOption{SkipTo: q.Get("skip-to"), Whitespace: q.Get("whitespace"), ListOptions: o})
	if err != nil {
		c.pullError(err)
		return
	}
	root := c.rootURL()
	out := make([]wire.ChangedFile, len(v.Files))
	for i, f := range v.Files {
		out[i] = convert.ChangedFile(root, v.Repo, v.HeadCommitID, f)
	}
	c.setPageHeaders(v.Total, o)
	c.writePage(v.Total, o, out)
}

// mergeStyles are the values Forgejo's MergePullRequestForm binds for Do
// (binding `In(...)`).
var mergeStyles = []issues.MergeStyle{issues.MergeStyleMerge, issues.MergeStyleRebase, issues.MergeStyleRebaseMerge,
	issues.MergeStyleSquash, issues.MergeStyleFastForwardOnly, issues.MergeStyleManuallyMerged}

// mergePull is POST .../pulls/{index}/merge: 200 with no body, 201 when
// scheduled (merge_when_checks_succeed with pending checks). Do is
// required and one of Forgejo's styles (422); refusals are 405, a moved
// head or a conflict 409.
func (a *API) mergePull(c *call) {
	index, ok := c.indexParam()
	var o wire.MergePullRequestForm
	if !ok || !c.decode(&o) {
		return
	}
	style := issues.MergeStyle(strings.TrimSpace(string(o.Do)))
	switch {
	case style == "":
		c.errorStatus(http.StatusUnprocessableEntity, "[Do]: Required")
		return
	case !containsStyle(style):
		c.errorStatus(http.StatusUnprocessableEntity, "[Do]: In")
		return
	}
	opt := issues.MergePullOption{Do: style, MergeCommitID: valueOf(o.MergeCommitID), MergeTitleField: valueOf(o.MergeTitleField),
		MergeMessageField: valueOf(o.MergeMessageField), DeleteBranchAfterMerge: o.DeleteBranchAfterMerge,
		ForceMerge: valueOf(o.ForceMerge), HeadCommitID: valueOf(o.HeadCommitID), MergeWhenChecksSucceed: valueOf(o.MergeWhenChecksSucceed)}
	out, err := a.cfg.Issues.MergePullDetailed(c.r.Context(), c.actor, c.owner(), c.repo(), index, opt)
	if err != nil {
		c.pullError(err)
		return
	}
	status := http.StatusOK
	if out.Scheduled {
		// Forgejo: ctx.Status(http.StatusCreated) when the merge waits for
		// the checks (the document lists no 201).
		status = http.StatusCreated
	}
	c.empty(status)
}

func containsStyle(s issues.MergeStyle) bool {
	for _, m := range mergeStyles {
		if m == s {
			return true
		}
	}
	return false
}

// cancelScheduledMerge is DELETE .../pulls/{index}/merge: 204.
func (a *API) cancelScheduledMerge(c *call) {
	index, ok := c.indexParam()
	if !ok {
		return
	}
	c.noContentOr(a.cfg.Issues.CancelScheduledMerge(c.r.Context(), c.actor, c.owner(), c.repo(), index), with(c.pullError))
}

// updatePull is POST .../pulls/{index}/update?style=merge|rebase: 200
// with no body; another style is 400 as Forgejo's
// `style` check... read as merge when empty.
func (a *API) updatePull(c *call) {
	index, ok := c.indexParam()
	if !ok {
		return
	}
	style := issues.UpdateStyle(c.r.URL.Query().Get("style"))
	if style == "" {
		style = issues.UpdateStyleMerge
	}
	if style != issues.UpdateStyleMerge && style != issues.UpdateStyleRebase {
		c.errorStatus(http.StatusUnprocessableEntity, "invalid update style: "+string(style))
		return
	}
	c.emptyOr(http.StatusOK, a.cfg.Issues.UpdatePull(c.r.Context(), c.actor, c.owner(), c.repo(), index, style), with(c.pullError))
}

// listPinnedPulls is GET /repos/{owner}/{repo}/pulls/pinned: the pinned
// pull requests in pin order, as Forgejo's PullRequest JSON (404, as every
// pull-request route, when the issues service has no pull configuration).
func (a *API) listPinnedPulls(c *call) {
	list, err := a.cfg.Issues.PinnedPulls(c.r.Context(), c.actor, c.owner(), c.repo())
	jsonAs(c, http.StatusOK, list, err, with(c.pullError), c.pullsJSON)
}
