package httpapi

import (
	"errors"
	"net/http"
	"strings"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/httpapi/wire"
	"github.com/hearthforge/hearth/issues"
)

// issueError writes the errors of package issues in Forgejo's shapes: the
// overrides first; an unknown owner or an invisible repository as
// repoError; a refusal Forgejo answers with a bare status (ctx.Status(403)
// of issue and comment edits) with no body; a comment without content
// (204); anything else not found as ctx.NotFound(); the rest as writeError.
func (c *call) issueError(err error, overrides ...statusFor) {
	for _, s := range overrides {
		if errors.Is(err, s.Err) {
			c.errorStatus(s.Status, err.Error())
			return
		}
	}
	var owner *repos.OwnerNotFoundError
	switch {
	case errors.As(err, &owner), errors.Is(err, repos.ErrRepoNotFound):
		c.repoError(err)
	case errors.Is(err, issues.ErrNotPoster):
		// Forgejo: ctx.Status(http.StatusForbidden), an empty body.
		c.empty(http.StatusForbidden)
	case errors.Is(err, issues.ErrNotEditable):
		c.noContent()
	case errors.Is(err, forge.ErrNotFound):
		c.notFound()
	default:
		c.writeError(err)
	}
}

// issueNotExist is the 404 of the comment routes that name the failed
// lookup (Forgejo's ctx.NotFound("IsErrIssueNotExist", err)).
func (c *call) issueNotExist(err error) {
	if errors.Is(err, issues.ErrIssueNotFound) {
		c.notFoundBody("IsErrIssueNotExist", err.Error())
		return
	}
	c.issueError(err)
}

// listIssuesOption reads the filters of GET /repos/{owner}/{repo}/issues
// as Forgejo's ListIssues: unknown states are open, unknown types both,
// a keyword holding NUL is no keyword, `per_page` is not read.
func (c *call) listIssuesOption() (issues.ListIssuesOption, bool) {
	before, since, ok := c.beforeSince()
	if !ok {
		return issues.ListIssuesOption{}, false
	}
	q := c.r.URL.Query()
	opt := issues.ListIssuesOption{
		State: issueState(q.Get("state")), Type: issueType(q.Get("type")),
		Labels: splitList(q.Get("labels")), Milestones: splitList(q.Get("milestones")),
		Keyword: strings.TrimSpace(q.Get("q")), Since: since, Before: before,
		CreatedBy: q.Get("created_by"), AssignedTo: q.Get("assigned_by"), MentionedBy: q.Get("mentioned_by"),
		ListOptions: c.listOptions(),
	}
	if strings.IndexByte(opt.Keyword, 0) >= 0 {
		opt.Keyword = ""
	}
	return opt, true
}

// issueState is the `state` filter: closed, all, or else open.
func issueState(s string) issues.State {
	switch s {
	case "closed":
		return issues.StateClosed
	case "all":
		return issues.StateAll
	}
	return issues.StateOpen
}

// issueType is the `type` filter: issues, pulls, or else both.
func issueType(s string) issues.IssueType {
	switch t := issues.IssueType(s); t {
	case issues.TypeIssues, issues.TypePulls:
		return t
	}
	return ""
}

// listIssues is GET /repos/{owner}/{repo}/issues: one page, with
// X-Total-Count and Link.
func (a *API) listIssues(c *call) {
	opt, ok := c.listIssuesOption()
	if !ok {
		return
	}
	list, total, err := a.cfg.Issues.List(c.r.Context(), c.actor, c.owner(), c.repo(), opt)
	if err != nil {
		c.issueError(err)
		return
	}
	if total == 0 && !c.filterUsersExist(opt.CreatedBy, opt.AssignedTo, opt.MentionedBy) {
		return
	}
	c.writePage(total, opt.ListOptions, c.issueConv().Issues(list))
}

// filterUsersExist checks, for an empty result, that the users the filters
// name exist: Forgejo's getUserIDForFilter answers an unknown one with
// ctx.NotFound(err) (404, the lookup error in `errors`), where the service
// answers an empty page. It answers the request itself and returns false
// when one does not; the lookup is the caller's own (unscoped, so that an
// issue token may name users).
func (c *call) filterUsersExist(names ...string) bool {
	who := forge.Actor{User: c.actor.User}
	for _, name := range names {
		if name == "" {
			continue
		}
		if _, err := c.a.cfg.Auth.User(c.r.Context(), who, name); err != nil {
			if errors.Is(err, forge.ErrNotFound) {
				c.notFoundBody("The target couldn't be found.", err.Error())
			} else {
				c.writeError(err)
			}
			return false
		}
	}
	return true
}

// getIssue is GET /repos/{owner}/{repo}/issues/{index}.
func (a *API) getIssue(c *call) {
	index, ok := c.indexParam()
	if !ok {
		return
	}
	v, err := a.cfg.Issues.Get(c.r.Context(), c.actor, c.owner(), c.repo(), index)
	jsonAs(c, http.StatusOK, v, err, with(c.issueError), c.issueConv().Issue)
}

// createIssue is POST /repos/{owner}/{repo}/issues: 201.
func (a *API) createIssue(c *call) {
	var o wire.CreateIssueOption
	if !c.decode(&o) || !c.present("Title", o.Title != "") {
		return
	}
	opt := issues.CreateIssueOption{Title: o.Title, Body: valueOf(o.Body), Ref: valueOf(o.Ref), Assignees: valueOf(o.Assignees),
		Milestone: valueOf(o.Milestone), Labels: valueOf(o.Labels), Closed: valueOf(o.Closed), Deadline: o.Deadline}
	if one := valueOf(o.Assignee); one != "" {
		// Forgejo's MakeIDsFromAPIAssigneesToAdd: the deprecated single
		// assignee joins the list.
		opt.Assignees = append([]string{one}, opt.Assignees...)
	}
	v, err := a.cfg.Issues.Create(c.r.Context(), c.actor, c.owner(), c.repo(), opt)
	jsonAs(c, http.StatusCreated, v, err, with(c.issueError, on(forge.ErrPrecondition, http.StatusPreconditionFailed)), c.issueConv().Issue)
}

// editIssue is PATCH /repos/{owner}/{repo}/issues/{index}. Forgejo answers
// it with 201, not 200, and with a bare 403 to a caller who is neither
// the poster nor a writer.
func (a *API) editIssue(c *call) {
	index, ok := c.indexParam()
	var o wire.EditIssueOption
	if !ok || !c.decode(&o) {
		return
	}
	opt := issues.EditIssueOption{Title: o.Title, Body: o.Body, Ref: o.Ref, Milestone: o.Milestone,
		Deadline: o.Deadline, UnsetDeadline: o.RemoveDeadline, UpdatedAt: o.Updated}
	if o.State != nil {
		st := issues.State(*o.State)
		opt.State = &st
	}
	if o.Assignees != nil || o.Assignee != nil {
		// Forgejo's UpdateAssignees: the deprecated single assignee joins
		// the list; a non-nil empty list clears.
		opt.Assignees = append([]string{}, valueOf(o.Assignees)...)
		if one := valueOf(o.Assignee); one != "" {
			opt.Assignees = append([]string{one}, opt.Assignees...)
		}
	}
	v, err := a.cfg.Issues.Edit(c.r.Context(), c.actor, c.owner(), c.repo(), index, opt)
	jsonAs(c, http.StatusCreated, v, err, with(c.issueError, on(forge.ErrInvalid, http.StatusBadRequest), on(forge.ErrPrecondition, http.StatusPreconditionFailed)), c.issueConv().Issue)
}

// deleteIssue is DELETE /repos/{owner}/{repo}/issues/{index}: 204.
func (a *API) deleteIssue(c *call) {
	index, ok := c.indexParam()
	if !ok {
		return
	}
	c.noContentOr(a.cfg.Issues.Delete(c.r.Context(), c.actor, c.owner(), c.repo(), index), with(c.issueError))
}
