package httpapi

import (
	"net/http"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/httpapi/wire"
	"github.com/hearthforge/hearth/issues"
)

// commentID reads the `{id}` of a comment route: anything but an integer
// is a comment that does not exist (Forgejo's commentAssignment reads 0).
func (c *call) commentID() (forge.ID, bool) { return c.idParam("id") }

// commentsQuery reads the since and before bounds of a comment list's
// query, then the path's {index}.
func (c *call) commentsQuery() (int64, issues.ListCommentsOption, bool) {
	before, since, ok := c.beforeSince()
	if !ok {
		return 0, issues.ListCommentsOption{}, false
	}
	index, ok := c.indexParam()
	return index, issues.ListCommentsOption{Since: since, Before: before}, ok
}

// listIssueComments is GET /repos/{owner}/{repo}/issues/{index}/comments:
// every plain comment of the issue in the since/before bounds (Forgejo
// does not page it), with X-Total-Count.
func (a *API) listIssueComments(c *call) {
	index, opt, ok := c.commentsQuery()
	if !ok {
		return
	}
	list, total, err := a.cfg.Issues.ListComments(c.r.Context(), c.actor, c.owner(), c.repo(), index, opt)
	if err != nil {
		c.issueNotExist(err)
		return
	}
	c.setTotalCount(total)
	c.json(http.StatusOK, c.issueConv().Comments(list))
}

// listRepoComments is GET /repos/{owner}/{repo}/issues/comments: one page
// of the repository's plain comments, with X-Total-Count (Forgejo sends no
// Link header here).
func (a *API) listRepoComments(c *call) {
	before, since, ok := c.beforeSince()
	if !ok {
		return
	}
	o := c.listOptions()
	list, total, err := a.cfg.Issues.ListRepoComments(c.r.Context(), c.actor, c.owner(), c.repo(),
		issues.ListCommentsOption{Since: since, Before: before, ListOptions: o})
	totalAs(c, list, total, err, with(c.issueError), c.issueConv().Comments)
}

// getComment is GET /repos/{owner}/{repo}/issues/comments/{id}: 200, or
// 204 with no body for a timeline event (Forgejo shows plain comments
// only).
func (a *API) getComment(c *call) {
	id, ok := c.commentID()
	if !ok {
		return
	}
	v, err := a.cfg.Issues.GetComment(c.r.Context(), c.actor, c.owner(), c.repo(), id)
	if err != nil {
		c.issueError(err)
		return
	}
	if v.Comment.Type != issues.CommentPlain {
		c.noContent()
		return
	}
	c.json(http.StatusOK, c.issueConv().Comment(v))
}

// createComment is POST /repos/{owner}/{repo}/issues/{index}/comments: 201.
func (a *API) createComment(c *call) {
	index, ok := c.indexParam()
	var o wire.CreateIssueCommentOption
	if !ok || !c.decode(&o) {
		return
	}
	v, err := a.cfg.Issues.CreateComment(c.r.Context(), c.actor, c.owner(), c.repo(), index,
		issues.CreateCommentOption{Body: o.Body, UpdatedAt: o.Updated})
	if err != nil {
		c.issueNotExist(err)
		return
	}
	c.json(http.StatusCreated, c.issueConv().Comment(v))
}

// commentParams reads {id} and, on the deprecated routes below an issue,
// {index} (0 elsewhere).
func (c *call) commentParams(deprecated bool) (index int64, id forge.ID, ok bool) {
	if deprecated {
		if index, ok = c.indexParam(); !ok {
			return 0, 0, false
		}
	}
	id, ok = c.commentID()
	return index, id, ok
}

// editComment is PATCH /repos/{owner}/{repo}/issues/comments/{id} and,
// deprecated, /issues/{index}/comments/{id} (which checks the comment is
// the issue's and, as Forgejo, skips the archived check): 200, a bare 403
// to a caller who is neither poster nor writer, 204 for a comment without
// content.
func (a *API) editComment(deprecated bool) func(*call) {
	return func(c *call) {
		index, id, ok := c.commentParams(deprecated)
		var o wire.EditIssueCommentOption
		if !ok || !c.decode(&o) {
			return
		}
		v, err := a.cfg.Issues.EditComment(c.r.Context(), c.actor, c.owner(), c.repo(), id,
			issues.EditCommentOption{Body: o.Body, UpdatedAt: o.Updated, Index: index})
		jsonAs(c, http.StatusOK, v, err, with(c.issueError), c.issueConv().Comment)
	}
}

// deleteComment is DELETE /repos/{owner}/{repo}/issues/comments/{id} and,
// deprecated, /issues/{index}/comments/{id}: 204.
func (a *API) deleteComment(deprecated bool) func(*call) {
	return func(c *call) {
		index, id, ok := c.commentParams(deprecated)
		if !ok {
			return
		}
		c.noContentOr(a.cfg.Issues.DeleteComment(c.r.Context(), c.actor, c.owner(), c.repo(), index, id), with(c.issueError))
	}
}
