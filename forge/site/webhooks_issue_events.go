package site

import (
	"context"
	"strings"

	"github.com/hearthforge/hearth/forge/hooks"
	"github.com/hearthforge/hearth/issues"
)

// editActions are the webhook actions of the issue edit events
// (issues/edit_events.go); the comment edit and delete events are
// issue_comment actions.
var editActions = map[issues.EventKind]string{
	issues.EventEdit:          hooks.ActionEdited,
	issues.EventAssign:        hooks.ActionAssigned,
	issues.EventUnassign:      hooks.ActionUnassigned,
	issues.EventLabel:         hooks.ActionLabelUpdated,
	issues.EventLabelClear:    hooks.ActionLabelCleared,
	issues.EventMilestone:     hooks.ActionMilestoned,
	issues.EventDemilestone:   hooks.ActionDemilestoned,
	issues.EventCommentEdit:   hooks.ActionEdited,
	issues.EventCommentDelete: hooks.ActionDeleted,
}

// editEvent queues the webhook event of an edit event and reports whether
// e was one.
func (h *hookIssues) editEvent(ctx context.Context, e issues.Event, is hooks.IssueInfo) bool {
	action, ok := editActions[e.Kind]
	if !ok {
		return false
	}
	var err error
	var ch *hooks.Changes
	if d := e.Detail; d != nil && (d.OldTitle != nil || d.OldBody != nil) {
		ch = &hooks.Changes{}
		if d.OldTitle != nil {
			ch.Title = &hooks.ChangeFrom{From: *d.OldTitle}
		}
		if d.OldBody != nil {
			ch.Body = &hooks.ChangeFrom{From: *d.OldBody}
		}
	}
	switch e.Kind {
	case issues.EventCommentEdit, issues.EventCommentDelete:
		if c := e.Comment; c != nil {
			err = h.svc.CommentChanged(ctx, e.Actor, e.Repo, is, hooks.CommentInfo{ID: c.ID, Body: c.Body,
				PosterID: c.PosterID, Created: c.Created, Updated: c.Updated}, action, ch)
		}
	default:
		d := issueDetail(e.Detail)
		if !e.Issue.IsPull {
			err = h.svc.IssueEdited(ctx, e.Actor, e.Repo, is, d, action, ch)
			break
		}
		v := h.pullView(ctx, e)
		if v == nil || v.Pull == nil {
			return true
		}
		err = h.svc.PullEdited(ctx, e.Actor, e.Repo, is, pullInfo(e, v), d, action, ch)
	}
	if err != nil {
		h.log.Warn("webhook events not queued", "repo", e.Repo.FullName(), "issue", e.Issue.Index, "err", err)
	}
	return true
}

// issueDetail is what the payloads show of an edit event's detail.
func issueDetail(d *issues.EventDetail) hooks.IssueDetail {
	var out hooks.IssueDetail
	if d == nil {
		return out
	}
	for _, u := range d.Assignees {
		out.Assignees = append(out.Assignees, u.ID)
	}
	for _, l := range d.Labels {
		out.Labels = append(out.Labels, &hooks.PayloadLabel{ID: l.ID, Name: l.Name, Exclusive: l.Exclusive,
			IsArchived: !l.Archived.IsZero(), Color: strings.TrimPrefix(l.Color, "#"), Description: l.Description})
	}
	if m := d.Milestone; m != nil {
		state := "open"
		if m.IsClosed {
			state = "closed"
		}
		out.Milestone = &hooks.PayloadMilestone{ID: m.ID, Title: m.Title, Description: m.Description, State: state,
			OpenIssues: m.NumIssues - m.NumClosedIssues, ClosedIssues: m.NumClosedIssues}
	}
	return out
}

// pullInfo is what the payloads show of the pull request of v, as
// hookIssues.pullEvent fills it.
func pullInfo(e issues.Event, v *issues.PullView) hooks.PullInfo {
	p := v.Pull
	pr := hooks.PullInfo{ID: int64(p.ID), BaseBranch: p.BaseBranch, HeadBranch: p.HeadBranch, HeadCommitID: p.HeadCommitID,
		MergeBase: p.MergeBase, Mergeable: p.Mergeable(), Merged: p.HasMerged, MergedAt: p.Merged,
		MergedCommitID: p.MergedCommitID, MergerID: p.MergerID, AllowMaintainerEdit: p.AllowMaintainerEdit,
		Additions: p.Additions, Deletions: p.Deletions, ChangedFiles: p.ChangedFiles, Flow: p.Flow,
		HeadRepo: v.HeadRepo, BaseCommitID: v.BaseCommitID}
	if pr.HeadRepo == nil && p.SameRepo() {
		pr.HeadRepo = e.Repo
	}
	return pr
}
