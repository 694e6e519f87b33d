package httpapi

import (
	"context"
	"errors"
	"net/http"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/httpapi/wire"
	"github.com/hearthforge/hearth/issues"
)

// reviewParams reads {index} and {id}.
func (c *call) reviewParams() (int64, forge.ID, bool) {
	index, ok := c.indexParam()
	if !ok {
		return 0, 0, false
	}
	id, ok := c.idParam("id")
	return index, id, ok
}

// reviewCommentParams reads {index}, {id} and {comment}.
func (c *call) reviewCommentParams() (int64, forge.ID, forge.ID, bool) {
	index, id, ok := c.reviewParams()
	if !ok {
		return 0, 0, 0, false
	}
	cid, ok := c.idParam("comment")
	return index, id, cid, ok
}

// listReviews is GET .../pulls/{index}/reviews: one page, with
// X-Total-Count (Forgejo sets no Link here).
func (a *API) listReviews(c *call) {
	index, ok := c.indexParam()
	if !ok {
		return
	}
	o := c.listOptions()
	list, total, err := a.cfg.Issues.ListReviews(c.r.Context(), c.actor, c.owner(), c.repo(), index, o)
	totalAs(c, list, total, err, with(c.pullError), c.issueConv().Reviews)
}

// reviewOp is an operation on review {id} of pull request {index} that
// takes nothing else and answers the review.
type reviewOp func(ctx context.Context, actor forge.Actor, owner, repo string, index int64, id forge.ID) (*issues.ReviewView, error)

// onReview reads {index} and {id}, runs op and answers 200 with the review.
func (c *call) onReview(op reviewOp) {
	index, id, ok := c.reviewParams()
	if !ok {
		return
	}
	c.answerReview(op(c.r.Context(), c.actor, c.owner(), c.repo(), index, id))
}

// getReview is GET .../reviews/{id}.
func (a *API) getReview(c *call) {
	c.onReview(a.cfg.Issues.GetReview)
}

// createReview is POST .../pulls/{index}/reviews: 200 (not 201) with the
// review, as Forgejo answers it.
func (a *API) createReview(c *call) {
	index, ok := c.indexParam()
	var o wire.CreatePullReviewOptions
	if !ok || !c.decode(&o) {
		return
	}
	opt := issues.CreateReviewOption{Event: issues.ReviewState(valueOf(o.Event)), Body: valueOf(o.Body), CommitID: valueOf(o.CommitID)}
	for _, cm := range valueOf(o.Comments) {
		opt.Comments = append(opt.Comments, issues.CreateReviewCommentOption{Path: valueOf(cm.Path), Body: valueOf(cm.Body),
			OldLineNum: valueOf(cm.OldLineNum), NewLineNum: valueOf(cm.NewLineNum)})
	}
	c.answerReview(a.cfg.Issues.CreateReview(c.r.Context(), c.actor, c.owner(), c.repo(), index, opt))
}

// submitReview is POST .../reviews/{id}: 200 with the submitted review.
func (a *API) submitReview(c *call) {
	index, id, ok := c.reviewParams()
	var o wire.SubmitPullReviewOptions
	if !ok || !c.decode(&o) {
		return
	}
	c.answerReview(a.cfg.Issues.SubmitReview(c.r.Context(), c.actor, c.owner(), c.repo(), index, id,
		issues.SubmitReviewOption{Event: issues.ReviewState(valueOf(o.Event)), Body: valueOf(o.Body)}))
}

// deleteReview is DELETE .../reviews/{id}: 204.
func (a *API) deleteReview(c *call) {
	index, id, ok := c.reviewParams()
	if !ok {
		return
	}
	c.noContentOr(a.cfg.Issues.DeleteReview(c.r.Context(), c.actor, c.owner(), c.repo(), index, id), with(c.pullError))
}

// dismissReview is POST .../reviews/{id}/dismissals: 200 with the review.
func (a *API) dismissReview(c *call) {
	index, id, ok := c.reviewParams()
	var o wire.DismissPullReviewOptions
	if !ok || !c.decode(&o) {
		return
	}
	c.answerReview(a.cfg.Issues.DismissReview(c.r.Context(), c.actor, c.owner(), c.repo(), index, id,
		issues.DismissReviewOption{Message: valueOf(o.Message), Priors: valueOf(o.Priors)}))
}

// undismissReview is POST .../reviews/{id}/undismissals: 200.
func (a *API) undismissReview(c *call) {
	c.onReview(a.cfg.Issues.UndismissReview)
}

// listReviewComments is GET .../reviews/{id}/comments.
func (a *API) listReviewComments(c *call) {
	index, id, ok := c.reviewParams()
	if !ok {
		return
	}
	list, err := a.cfg.Issues.ReviewComments(c.r.Context(), c.actor, c.owner(), c.repo(), index, id)
	jsonAs(c, http.StatusOK, list, err, with(c.pullError), c.issueConv().ReviewComments)
}

// getReviewComment is GET .../reviews/{id}/comments/{comment}.
func (a *API) getReviewComment(c *call) {
	index, id, cid, ok := c.reviewCommentParams()
	if !ok {
		return
	}
	v, err := a.cfg.Issues.GetReviewComment(c.r.Context(), c.actor, c.owner(), c.repo(), index, id, cid)
	jsonAs(c, http.StatusOK, v, err, with(c.pullError), c.issueConv().ReviewComment)
}

// createReviewComment is POST .../reviews/{id}/comments: 200.
func (a *API) createReviewComment(c *call) {
	index, id, ok := c.reviewParams()
	var o wire.CreatePullReviewCommentOptions
	if !ok || !c.decode(&o) {
		return
	}
	v, err := a.cfg.Issues.CreateReviewComment(c.r.Context(), c.actor, c.owner(), c.repo(), index, id,
		issues.CreateReviewCommentOption{Path: valueOf(o.Path), Body: valueOf(o.Body), OldLineNum: valueOf(o.OldLineNum), NewLineNum: valueOf(o.NewLineNum)})
	jsonAs(c, http.StatusOK, v, err, with(c.pullError), c.issueConv().ReviewComment)
}

// deleteReviewComment is DELETE .../reviews/{id}/comments/{comment}: 204.
func (a *API) deleteReviewComment(c *call) {
	index, id, cid, ok := c.reviewCommentParams()
	if !ok {
		return
	}
	c.noContentOr(a.cfg.Issues.DeleteReviewComment(c.r.Context(), c.actor, c.owner(), c.repo(), index, id, cid), with(c.pullError))
}

// reviewRequestParams reads {index} and the PullReviewRequestOptions body.
func (c *call) reviewRequestParams() (int64, issues.ReviewRequestOption, bool) {
	index, ok := c.indexParam()
	var o wire.PullReviewRequestOptions
	if !ok || !c.decode(&o) {
		return 0, issues.ReviewRequestOption{}, false
	}
	return index, issues.ReviewRequestOption{Reviewers: valueOf(o.Reviewers), TeamReviewers: valueOf(o.TeamReviewers)}, true
}

// requestReviews is POST .../pulls/{index}/requested_reviewers: 201 with
// the review requests made.
func (a *API) requestReviews(c *call) {
	index, opt, ok := c.reviewRequestParams()
	if !ok {
		return
	}
	list, err := a.cfg.Issues.RequestReviews(c.r.Context(), c.actor, c.owner(), c.repo(), index, opt)
	jsonAs(c, http.StatusCreated, list, err, c.reviewRequestError, c.issueConv().Reviews)
}

// cancelReviewRequests is DELETE .../pulls/{index}/requested_reviewers:
// 204.
func (a *API) cancelReviewRequests(c *call) {
	index, opt, ok := c.reviewRequestParams()
	if !ok {
		return
	}
	c.noContentOr(a.cfg.Issues.CancelReviewRequests(c.r.Context(), c.actor, c.owner(), c.repo(), index, opt), c.reviewRequestError)
}

// reviewRequestError answers an error of the review-request routes: an
// unknown reviewer is Forgejo's 404 naming it (ctx.NotFound("UserNotExist",
// "User 'x' not exist")).
func (c *call) reviewRequestError(err error) {
	if errors.Is(err, issues.ErrReviewerNotFound) {
		c.notFoundBody(err.Error())
		return
	}
	c.pullError(err)
}

// answerReview answers 200 with the review v, or the error of the call
// that returned it.
func (c *call) answerReview(v *issues.ReviewView, err error) {
	jsonAs(c, http.StatusOK, v, err, with(c.pullError), c.issueConv().Review)
}
