package httpapi

import (
	"net/http"
	"strconv"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/httpapi/wire"
	"github.com/hearthforge/hearth/issues"
)

// timeError writes the errors of the time and stopwatch routes: Forgejo's
// 400 `time tracking disabled` is a JSON object whose only field is
// `Message` (ctx.JSON(400, struct{ Message string })) on the delete routes
// and an APIError elsewhere; both carry the message.
func (c *call) timeError(err error) {
	c.issueError(err, on(issues.ErrBadRequest, http.StatusBadRequest))
}

// toTrackedTime converts a tracked time as Forgejo's convert.ToTrackedTime.
func (c *call) toTrackedTime(v *issues.TimeView) wire.TrackedTime {
	out := wire.TrackedTime{ID: v.Time.ID, Created: apiTime(v.Time.Created), Time: v.Time.Seconds,
		IssueID: v.Time.IssueID, UserID: v.Time.UserID, UserName: v.User.Name}
	if v.Issue != nil {
		is := c.issueConv().Issue(v.Issue)
		out.Issue = &is
	}
	return out
}

func (c *call) toTrackedTimes(list []*issues.TimeView) []wire.TrackedTime {
	return convertAll(list, c.toTrackedTime)
}

// timeListOption reads `user`, `since`, `before`, `page` and `limit`.
func (c *call) timeListOption(withUser bool) (issues.TimeListOption, bool) {
	before, since, ok := c.beforeSince()
	if !ok {
		return issues.TimeListOption{}, false
	}
	opt := issues.TimeListOption{Since: since, Before: before, ListOptions: c.listOptions()}
	if withUser {
		opt.User = c.r.URL.Query().Get("user")
	}
	return opt, true
}

// listIssueTimes is GET /issues/{index}/times: X-Total-Count, no Link.
func (a *API) listIssueTimes(c *call) {
	index, ok := c.indexParam()
	if !ok {
		return
	}
	opt, ok := c.timeListOption(true)
	if !ok {
		return
	}
	list, total, err := a.cfg.Issues.ListTimes(c.r.Context(), c.actor, c.owner(), c.repo(), index, opt)
	totalAs(c, list, total, err, c.timeError, c.toTrackedTimes)
}

// listRepoTimes is GET /repos/{owner}/{repo}/times.
func (a *API) listRepoTimes(c *call) {
	opt, ok := c.timeListOption(true)
	if !ok {
		return
	}
	list, total, err := a.cfg.Issues.ListRepoTimes(c.r.Context(), c.actor, c.owner(), c.repo(), opt)
	totalAs(c, list, total, err, c.timeError, c.toTrackedTimes)
}

// listMyTimes is GET /user/times.
func (a *API) listMyTimes(c *call) {
	opt, ok := c.timeListOption(false)
	if !ok {
		return
	}
	list, total, err := a.cfg.Issues.ListMyTimes(c.r.Context(), c.actor, opt)
	totalAs(c, list, total, err, c.timeError, c.toTrackedTimes)
}

// addTime is POST /issues/{index}/times: 200 with the time.
func (a *API) addTime(c *call) {
	index, ok := c.indexParam()
	var o wire.AddTimeOption
	if !ok || !c.decode(&o) {
		return
	}
	opt := issues.AddTimeOption{Seconds: o.Time, User: valueOf(o.User)}
	if o.Created != nil {
		opt.Created = *o.Created
	}
	v, err := a.cfg.Issues.AddTime(c.r.Context(), c.actor, c.owner(), c.repo(), index, opt)
	jsonAs(c, http.StatusOK, v, err, c.timeError, c.toTrackedTime)
}

// resetTime is DELETE /issues/{index}/times: 204.
func (a *API) resetTime(c *call) {
	index, ok := c.indexParam()
	if !ok {
		return
	}
	c.noContentOr(a.cfg.Issues.ResetTime(c.r.Context(), c.actor, c.owner(), c.repo(), index), c.timeError)
}

// deleteTime is DELETE /issues/{index}/times/{id}: 204; an id that is not
// a number is a time that does not exist.
func (a *API) deleteTime(c *call) {
	index, ok := c.indexParam()
	if !ok {
		return
	}
	id, ok := c.idParam("id")
	if !ok {
		return
	}
	c.noContentOr(a.cfg.Issues.DeleteTime(c.r.Context(), c.actor, c.owner(), c.repo(), index, id), c.timeError)
}

type watchAction int

const (
	startWatch watchAction = iota
	stopWatch
	cancelWatch
)

// stopwatch is POST /stopwatch/start and /stopwatch/stop (201, no body)
// and DELETE /stopwatch/delete (204).
func (a *API) stopwatch(act watchAction) func(*call) {
	return func(c *call) {
		index, ok := c.indexParam()
		if !ok {
			return
		}
		svc, ctx := a.cfg.Issues, c.r.Context()
		var err error
		switch act {
		case startWatch:
			err = svc.StartStopwatch(ctx, c.actor, c.owner(), c.repo(), index)
		case stopWatch:
			err = svc.StopStopwatch(ctx, c.actor, c.owner(), c.repo(), index)
		default:
			err = svc.DeleteStopwatch(ctx, c.actor, c.owner(), c.repo(), index)
		}
		status := http.StatusCreated
		if act == cancelWatch {
			status = http.StatusNoContent
		}
		c.emptyOr(status, err, c.timeError)
	}
}

// listStopwatches is GET /user/stopwatches: paged only when `page` is
// given (Forgejo's GetUserStopwatches), with X-Total-Count.
func (a *API) listStopwatches(c *call) {
	page, _ := strconv.Atoi(c.r.URL.Query().Get("page"))
	limit, _ := strconv.Atoi(c.r.URL.Query().Get("limit"))
	list, total, err := a.cfg.Issues.ListStopwatches(c.r.Context(), c.actor, forge.ListOptions{Page: page, Limit: limit})
	if err != nil {
		c.timeError(err)
		return
	}
	out := make([]wire.StopWatch, 0, len(list))
	for _, v := range list {
		out = append(out, wire.StopWatch{Created: apiTime(v.Stopwatch.Created), Seconds: v.Seconds,
			Duration: issues.SecToTime(v.Seconds), IssueIndex: v.Issue.Index, IssueTitle: v.Issue.Title,
			RepoOwnerName: v.Repo.OwnerName, RepoName: v.Repo.Name})
	}
	c.setTotalCount(total)
	c.json(http.StatusOK, out)
}

// listUserRepoTimes is GET /repos/{owner}/{repo}/times/{user}
// (deprecated): every time of the user in the repository, unpaged.
func (a *API) listUserRepoTimes(c *call) {
	list, err := a.cfg.Issues.ListUserRepoTimes(c.r.Context(), c.actor, c.owner(), c.repo(), c.pathValue("user"))
	jsonAs(c, http.StatusOK, list, err, c.timeError, c.toTrackedTimes)
}
