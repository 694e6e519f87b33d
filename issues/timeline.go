package issues

import (
	"context"
	"slices"

	"github.com/hearthforge/hearth/forge"
)

// RepoAccessByID finds a repository by id and the actor's permission on
// it: forge/repos.Service.RepoAccessByID. When Config.Repos implements it,
// the timeline shows the cross-references made from other repositories
// that the actor may read; without it, those are left out.
type RepoAccessByID interface {
	RepoAccessByID(ctx context.Context, actor forge.Actor, id forge.ID) (*forge.Repository, forge.Permission, error)
}

// commentNames are Forgejo's names of comment types (CommentType.String),
// by value, as the timeline shows them.
var commentNames = map[CommentType]string{
	CommentPlain: "comment", CommentReopen: "reopen", CommentClose: "close", CommentIssueRef: "issue_ref",
	4: "commit_ref", CommentCommentRef: "comment_ref", CommentPullRef: "pull_ref", CommentLabel: "label",
	CommentMilestone: "milestone", CommentAssignees: "assignees", CommentTitle: "change_title",
	11: "delete_branch", 12: "start_tracking", 13: "stop_tracking", 14: "add_time_manual", 15: "cancel_tracking",
	CommentDeadline: "added_deadline", CommentModifiedDeadline: "modified_deadline",
	CommentRemovedDeadline: "removed_deadline", 19: "add_dependency", 20: "remove_dependency", 21: "code",
	22: "review", 23: "lock", 24: "unlock", 25: "change_target_branch", 26: "delete_time_manual",
	27: "review_request", 28: "merge_pull", 29: "pull_push", 30: "project", 31: "project_board",
	32: "dismiss_review", CommentChangeRef: "change_issue_ref", 34: "pull_scheduled_to_auto_merge",
	35: "pull_cancel_scheduled_to_auto_merge", CommentPin: "pin", CommentUnpin: "unpin",
}

// String returns Forgejo's name of the comment type ("comment", "label",
// "issue_ref", …), "" for a value Forgejo does not name.
func (c CommentType) String() string { return commentNames[c] }

// TimelineView is one event of an issue's timeline with what its JSON
// shows (Forgejo's TimelineComment).
type TimelineView struct {
	CommentView
	Label                   *Label
	Milestone, OldMilestone *Milestone
	Assignee                *forge.User
	// Ref is the cross-reference of a reference event, nil otherwise;
	// RefIssue is the referencing issue and RefComment the referencing
	// comment (nil when the reference was made by the issue's text).
	Ref        *CrossRef
	RefIssue   *IssueView
	RefComment *CommentView
	// DependentIssue is the other issue of a dependency event, nil when
	// the actor may not read it (dependency_timeline.go).
	DependentIssue *IssueView
}

// Timeline returns one page of every comment and event of issue index,
// oldest first, updated within opt's bounds, and their number
// (read:issue). Cross-references made from a repository the actor may not
// read (or whose permission cannot be resolved) are left out, as Forgejo's
// isXRefCommentAccessible, and code comments. The number is that of the
// entries returned, as Forgejo's ListIssueCommentsAndTimeline counts
// them: the page is cut before the entries the actor may not see are left
// out, and a count of the stored entries would tell that they exist.
// ErrIssueNotFound.
func (s *Service) Timeline(ctx context.Context, actor forge.Actor, owner, repo string, index int64, opt ListCommentsOption) ([]*TimelineView, int64, error) {
	a, err := s.open(ctx, actor, owner, repo, forge.AccessRead)
	if err != nil {
		return nil, 0, err
	}
	var (
		list []*Comment
		deps map[forge.ID]*Issue
		refs map[forge.ID]*CrossRef
		is   *Issue
	)
	err = s.store.View(ctx, func(tx Tx) error {
		is, err = a.issue(ctx, tx, index)
		if err != nil {
			return err
		}
		list, _, err = tx.ListComments(ctx, CommentFilter{IssueID: is.ID, UpdatedSince: opt.Since, UpdatedBefore: opt.Before},
			opt.ListOptions.Normalize())
		if err != nil {
			return err
		}
		ids := make([]forge.ID, 0, len(list))
		for _, c := range list {
			ids = append(ids, c.ID)
		}
		if refs, err = tx.CrossRefs(ctx, ids); err != nil {
			return err
		}
		deps, err = dependentIssues(ctx, tx, list)
		return err
	})
	if err != nil {
		return nil, 0, err
	}
	// The repositories of references from elsewhere, resolved outside the
	// read (repository permissions are the repository service's answer).
	byRepo := map[forge.ID]*access{a.repo.ID: a}
	var others []forge.ID
	for _, r := range refs {
		others = append(others, r.RefRepoID)
	}
	for _, d := range deps {
		others = append(others, d.RepoID)
	}
	for _, id := range others {
		if _, ok := byRepo[id]; ok {
			continue
		}
		byRepo[id] = nil
		if by, ok := s.repos.(RepoAccessByID); ok {
			if repo, perm, err := by.RepoAccessByID(ctx, actor, id); err == nil {
				byRepo[id] = &access{actor: actor, repo: repo, perm: perm}
			}
		}
	}
	var out []*TimelineView
	err = s.store.View(ctx, func(tx Tx) error {
		if out, err = a.timelineViews(ctx, tx, is, list, refs, byRepo); err != nil {
			return err
		}
		return attachDependents(ctx, tx, out, deps, byRepo)
	})
	return out, int64(len(out)), err
}

// timelineViews loads what the JSON of each event shows with a fixed
// number of queries.
func (a *access) timelineViews(ctx context.Context, tx Tx, is *Issue, list []*Comment, refs map[forge.ID]*CrossRef, byRepo map[forge.ID]*access) ([]*TimelineView, error) {
	var kept []*Comment
	var labelIDs, msIDs, userIDs, refIssueIDs, refCommentIDs []forge.ID
	for _, c := range list {
		if c.Type == 21 { // code comments are not in the timeline
			continue
		}
		if r := refs[c.ID]; r != nil {
			ra := byRepo[r.RefRepoID]
			if ra == nil || (r.RefRepoID != a.repo.ID && !ra.canRead(r.RefIsPull)) {
				continue
			}
			refIssueIDs = append(refIssueIDs, r.RefIssueID)
			if r.RefCommentID != 0 {
				refCommentIDs = append(refCommentIDs, r.RefCommentID)
			}
		}
		kept = append(kept, c)
		if c.LabelID != 0 {
			labelIDs = append(labelIDs, c.LabelID)
		}
		for _, m := range []forge.ID{c.MilestoneID, c.OldMilestoneID} {
			if m != 0 {
				msIDs = append(msIDs, m)
			}
		}
		if c.AssigneeID != 0 {
			userIDs = append(userIDs, c.AssigneeID)
		}
	}
	views, err := a.commentViews(ctx, tx, kept, map[forge.ID]*Issue{is.ID: is})
	if err != nil {
		return nil, err
	}
	labels := map[forge.ID]*Label{}
	if len(labelIDs) > 0 {
		ls, _, err := tx.ListLabels(ctx, LabelFilter{RepoID: a.repo.ID, OrgID: a.orgID(), IDs: labelIDs}, all)
		if err != nil {
			return nil, err
		}
		for _, l := range ls {
			labels[l.ID] = l
		}
	}
	milestones := map[forge.ID]*Milestone{}
	if len(msIDs) > 0 {
		if milestones, err = tx.MilestonesByID(ctx, msIDs); err != nil {
			return nil, err
		}
	}
	slices.Sort(userIDs)
	users, err := tx.UsersByID(ctx, slices.Compact(userIDs))
	if err != nil {
		return nil, err
	}
	refIssues := map[forge.ID]*IssueView{}
	if len(refIssueIDs) > 0 {
		byID, err := tx.IssuesByID(ctx, refIssueIDs)
		if err != nil {
			return nil, err
		}
		var rl []*Issue
		for _, ri := range byID {
			if byRepo[ri.RepoID] != nil {
				rl = append(rl, ri)
			}
		}
		rvs, err := loadViews(ctx, tx, rl, byRepo)
		if err != nil {
			return nil, err
		}
		for _, v := range rvs {
			refIssues[v.Issue.ID] = v
		}
	}
	refComments := map[forge.ID]*CommentView{}
	for _, id := range refCommentIDs {
		c, err := tx.CommentByID(ctx, id)
		if err != nil {
			continue // the referencing comment is gone
		}
		if riv := refIssues[c.IssueID]; riv != nil {
			ra := byRepo[riv.Issue.RepoID]
			cvs, err := ra.commentViews(ctx, tx, []*Comment{c}, map[forge.ID]*Issue{riv.Issue.ID: riv.Issue})
			if err != nil {
				return nil, err
			}
			refComments[id] = cvs[0]
		}
	}
	out := make([]*TimelineView, 0, len(views))
	for _, v := range views {
		c := v.Comment
		tv := &TimelineView{CommentView: *v, Label: labels[c.LabelID], Milestone: milestones[c.MilestoneID],
			OldMilestone: milestones[c.OldMilestoneID]}
		if c.AssigneeID != 0 {
			tv.Assignee = a.user(users, c.AssigneeID)
		}
		if r := refs[c.ID]; r != nil {
			if refIssues[r.RefIssueID] == nil {
				continue // the referencing issue is gone (Forgejo deletes its references with it)
			}
			tv.Ref, tv.RefIssue, tv.RefComment = r, refIssues[r.RefIssueID], refComments[r.RefCommentID]
		}
		out = append(out, tv)
	}
	return out, nil
}
