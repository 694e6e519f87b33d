package httpapi

import (
	"net/http"
	"strconv"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/httpapi/wire"
	"github.com/hearthforge/hearth/issues"
)

// commentID reads the `{id}` of a comment route: anything but an integer
// is a comment that does not exist (Forgejo's commentAssignment reads 0).
func (c *call) commentID() (forge.ID, bool) {
	id, err := strconv.ParseInt(c.pathValue("id"), 10, 64)
	if err != nil {
		c.notFound()
		return 0, false
	}
	return id, true
}

// listIssueComments is GET /repos/{owner}/{repo}/issues/{index}/comments:
// every plain comment of the issue in the since/before bounds (Forgejo
// does not page it), with X-Total-Count.
func (a *API) listIssueComments(c *call) {
	before, since, ok := c.beforeSince()
	if !ok {
		return
	}
	index, ok := c.indexParam()
	if !ok {
		return
	}
	list, total, err := a.cfg.Issues.ListComments(c.r.Context(), c.actor, c.owner(), c.repo(), index,
		issues.ListCommentsOption{Since: since, Before: before})
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
	if err != nil {
		c.issueError(err)
		return
	}
	c.setTotalCount(total)
	c.json(http.StatusOK, c.issueConv().Comments(list))
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
	if !ok {
		return
	}
	var o wire.CreateIssueCommentOption
	if !c.decode(&o) {
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

// editComment is PATCH /repos/{owner}/{repo}/issues/comments/{id} and,
// deprecated, /issues/{index}/comments/{id} (which checks the comment is
// the issue's and, as Forgejo, skips the archived check): 200, a bare 403
// to a caller who is neither poster nor writer, 204 for a comment without
// content.
func (a *API) editComment(deprecated bool) func(*call) {
	return func(c *call) {
		var index int64
		if deprecated {
			var ok bool
			if index, ok = c.indexParam(); !ok {
				return
			}
		}
		id, ok := c.commentID()
		if !ok {
			return
		}
		var o wire.EditIssueCommentOption
		if !c.decode(&o) {
			return
		}
		v, err := a.cfg.Issues.EditComment(c.r.Context(), c.actor, c.owner(), c.repo(), id,
			issues.EditCommentOption{Body: o.Body, UpdatedAt: o.Updated, Index: index})
		if err != nil {
			c.issueError(err)
			return
		}
		c.json(http.StatusOK, c.issueConv().Comment(v))
	}
}

// deleteComment is DELETE /repos/{owner}/{repo}/issues/comments/{id} and,
// deprecated, /issues/{index}/comments/{id}: 204.
func (a *API) deleteComment(deprecated bool) func(*call) {
	return func(c *call) {
		var index int64
		if deprecated {
			var ok bool
			if index, ok = c.indexParam(); !ok {
				return
			}
		}
		id, ok := c.commentID()
		if !ok {
			return
		}
		if err := a.cfg.Issues.DeleteComment(c.r.Context(), c.actor, c.owner(), c.repo(), index, id); err != nil {
			c.issueError(err)
			return
		}
		c.noContent()
	}
}
