package httpapi

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/hearthforge/hearth/httpapi/convert"
	"github.com/hearthforge/hearth/httpapi/wire"
	"github.com/hearthforge/hearth/issues"
)

// reactionTarget reads the issue index or the comment id of a reaction
// route; it answers the request itself and returns false when it does not
// parse.
func (c *call) reactionTarget(comment bool) (issues.ReactionTarget, bool) {
	if comment {
		id, ok := c.commentID()
		return issues.ReactionTarget{CommentID: id}, ok
	}
	index, ok := c.indexParam()
	return issues.ReactionTarget{Index: index}, ok
}

func (c *call) toReaction(v *issues.ReactionView) wire.Reaction {
	return wire.Reaction{Reaction: v.Reaction.Content, Created: apiTime(v.Reaction.Created), User: c.toUser(convert.OrGhost(v.User))}
}

// listReactions is GET .../issues/{index}/reactions (one page, with
// X-Total-Count) and .../issues/comments/{id}/reactions (all, no header),
// as Forgejo's GetIssueReactions and GetIssueCommentReactions.
func (a *API) listReactions(comment bool) func(*call) {
	return func(c *call) {
		t, ok := c.reactionTarget(comment)
		if !ok {
			return
		}
		list, total, err := a.cfg.Issues.Reactions(c.r.Context(), c.actor, c.owner(), c.repo(), t, c.listOptions())
		if err != nil {
			c.issueError(err)
			return
		}
		out := convertAll(list, c.toReaction)
		if !comment {
			c.setTotalCount(total)
		}
		c.json(http.StatusOK, out)
	}
}

// reactionRequest reads the target of a reaction route and the reaction
// its body names.
func (c *call) reactionRequest(comment bool) (issues.ReactionTarget, string, bool) {
	t, ok := c.reactionTarget(comment)
	if !ok {
		return t, "", false
	}
	var o wire.EditReactionOption
	if !c.decode(&o) {
		return t, "", false
	}
	return t, deref(o.Reaction), true
}

// postReaction adds the caller's reaction: 201 with it, or 200 with the
// existing one when the caller had already reacted so.
func (a *API) postReaction(comment bool) func(*call) {
	return func(c *call) {
		t, reaction, ok := c.reactionRequest(comment)
		if !ok {
			return
		}
		v, created, err := a.cfg.Issues.React(c.r.Context(), c.actor, c.owner(), c.repo(), t, reaction)
		if err != nil {
			c.issueError(err)
			return
		}
		status := http.StatusOK
		if created {
			status = http.StatusCreated
		}
		c.json(status, c.toReaction(v))
	}
}

// deleteReaction removes the caller's reaction: 200 with no body, also
// when there was none (Forgejo's ctx.Status(200)).
func (a *API) deleteReaction(comment bool) func(*call) {
	return func(c *call) {
		t, reaction, ok := c.reactionRequest(comment)
		if !ok {
			return
		}
		c.emptyOr(http.StatusOK, a.cfg.Issues.Unreact(c.r.Context(), c.actor, c.owner(), c.repo(), t, reaction), with(c.issueError))
	}
}

// listIssueSubscribers is GET .../issues/{index}/subscriptions: one page of the
// users who watch the issue, with X-Total-Count.
func (a *API) listIssueSubscribers(c *call) {
	index, ok := c.indexParam()
	if !ok {
		return
	}
	list, total, err := a.cfg.Issues.Subscribers(c.r.Context(), c.actor, c.owner(), c.repo(), index, c.listOptions())
	totalAs(c, list, total, err, with(c.issueError), c.toUsers)
}

// checkSubscription is GET .../issues/{index}/subscriptions/check: Forgejo's
// WatchInfo, dated with the issue's creation, ignored being the opposite
// of subscribed.
func (a *API) checkSubscription(c *call) {
	index, ok := c.indexParam()
	if !ok {
		return
	}
	s, err := a.cfg.Issues.CheckSubscription(c.r.Context(), c.actor, c.owner(), c.repo(), index)
	if err != nil {
		c.issueError(err)
		return
	}
	repoURL := c.repoAPIURL(s.Repo)
	c.json(http.StatusOK, wire.WatchInfo{Subscribed: s.Watching, Ignored: !s.Watching, CreatedAt: apiTime(s.Issue.Created),
		URL: repoURL + "/issues/" + strconv.FormatInt(s.Issue.Index, 10) + "/subscriptions", RepositoryURL: repoURL})
}

// setSubscription is PUT (watch) and DELETE (unwatch)
// .../issues/{index}/subscriptions/{user}: 201 when it changed, 200 when
// it was so already, no body.
func (a *API) setSubscription(watch bool) func(*call) {
	return func(c *call) {
		index, ok := c.indexParam()
		if !ok {
			return
		}
		changed, err := a.cfg.Issues.Subscribe(c.r.Context(), c.actor, c.owner(), c.repo(), index, c.pathValue("user"), watch)
		status := http.StatusOK
		if changed {
			status = http.StatusCreated
		}
		c.emptyOr(status, err, with(c.issueError))
	}
}

// pinIssue is POST .../issues/{index}/pin: 204.
func (a *API) pinIssue(c *call) {
	index, ok := c.indexParam()
	if !ok {
		return
	}
	c.noContentOr(a.cfg.Issues.Pin(c.r.Context(), c.actor, c.owner(), c.repo(), index), with(c.issueError))
}

// unpinIssue is DELETE .../issues/{index}/pin: 204.
func (a *API) unpinIssue(c *call) {
	index, ok := c.indexParam()
	if !ok {
		return
	}
	c.noContentOr(a.cfg.Issues.Unpin(c.r.Context(), c.actor, c.owner(), c.repo(), index), with(c.issueError))
}

// moveIssuePin is PATCH .../issues/{index}/pin/{position}: 204. A position
// that is not a number reads 0, as Forgejo's ParamsInt64, and is refused.
func (a *API) moveIssuePin(c *call) {
	index, ok := c.indexParam()
	if !ok {
		return
	}
	pos, _ := strconv.Atoi(c.pathValue("position"))
	c.noContentOr(a.cfg.Issues.MovePinTo(c.r.Context(), c.actor, c.owner(), c.repo(), index, pos), with(c.issueError))
}

// listPinned is GET .../issues/pinned: the pinned issues in pin order
// (pulls/pinned is listPinnedPulls).
func (a *API) listPinned(pulls bool) func(*call) {
	return func(c *call) {
		list, err := a.cfg.Issues.Pinned(c.r.Context(), c.actor, c.owner(), c.repo(), pulls)
		jsonAs(c, http.StatusOK, list, err, with(c.issueError), c.issueConv().Issues)
	}
}

// newPinAllowed is GET /repos/{owner}/{repo}/new_pin_allowed.
func (a *API) newPinAllowed(c *call) {
	is, pulls, err := a.cfg.Issues.PinsAllowed(c.r.Context(), c.actor, c.owner(), c.repo())
	if err != nil {
		c.issueError(err)
		return
	}
	c.json(http.StatusOK, wire.NewIssuePinsAllowed{Issues: is, PullRequests: pulls})
}

// listTimeline is GET .../issues/{index}/timeline: one page of the
// issue's comments and events, with X-Total-Count.
func (a *API) listTimeline(c *call) {
	index, opt, ok := c.commentsQuery()
	if !ok {
		return
	}
	opt.ListOptions = c.listOptions()
	list, total, err := a.cfg.Issues.Timeline(c.r.Context(), c.actor, c.owner(), c.repo(), index, opt)
	if err != nil {
		c.issueNotExist(err)
		return
	}
	ic := c.issueConv()
	out := convertAll(list, func(v *issues.TimelineView) wire.TimelineComment { return timeline(ic, v) })
	c.setTotalCount(total)
	c.json(http.StatusOK, out)
}

// timeline converts an event as Forgejo's convert.ToTimelineComment.
func timeline(ic convert.Issues, v *issues.TimelineView) wire.TimelineComment {
	cm := ic.Comment(&v.CommentView)
	c := v.Comment
	out := wire.TimelineComment{ID: cm.ID, Type: c.Type.String(), Body: cm.Body, User: cm.User, Created: cm.Created,
		Updated: cm.Updated, HTMLURL: cm.HTMLURL, IssueURL: cm.IssueURL, PRURL: cm.PRURL,
		OldTitle: c.OldTitle, NewTitle: c.NewTitle, OldRef: c.OldRef, NewRef: c.NewRef,
		RemovedAssignee: c.RemovedAssignee}
	if v.Issue != nil && v.Repo != nil && out.IssueURL == "" && out.PRURL == "" {
		out.IssueURL = convert.IssueWebURL(ic.Root, v.Repo, v.Issue.Index, v.Issue.IsPull)
	}
	if v.Label != nil && v.Repo != nil {
		l := convert.Label(ic.Root, v.Repo, v.Repo.OwnerName, v.Label)
		out.Label = &l
	}
	out.Milestone = convert.Optional(v.Milestone, convert.Milestone)
	out.OldMilestone = convert.Optional(v.OldMilestone, convert.Milestone)
	out.Assignee = convert.Optional(v.Assignee, ic.AsAnon)
	if v.Ref != nil {
		out.RefAction = v.Ref.Action.String()
		out.RefIssue = convert.Optional(v.RefIssue, ic.Issue)
		out.RefComment = convert.Optional(v.RefComment, ic.Comment)
	}
	out.DependentIssue = convert.Optional(v.DependentIssue, ic.Issue)
	return out
}

// listLabelTemplates is GET /label/templates: the names of the template
// sets. Public.
func (a *API) listLabelTemplates(c *call) {
	c.json(http.StatusOK, issues.LabelTemplateNames())
}

// getLabelTemplate is GET /label/templates/{name}: the labels of a set,
// colours without '#' (Forgejo's convert.ToLabelTemplateList); an unknown
// name is ctx.NotFound().
func (a *API) getLabelTemplate(c *call) {
	list, err := issues.LabelTemplates(c.pathValue("name"))
	if err != nil {
		c.issueError(err)
		return
	}
	out := make([]wire.LabelTemplate, len(list))
	for i, l := range list {
		out[i] = wire.LabelTemplate{Name: l.Name, Exclusive: l.Exclusive, Color: strings.TrimLeft(l.Color, "#"), Description: l.Description}
	}
	c.json(http.StatusOK, out)
}
