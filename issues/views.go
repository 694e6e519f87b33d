package issues

import (
	"context"
	"slices"

	"github.com/hearthforge/hearth/forge"
)

// views loads what the JSON of each issue of a's repository shows.
func (a *access) views(ctx context.Context, tx Tx, list []*Issue) ([]*IssueView, error) {
	return loadViews(ctx, tx, list, map[forge.ID]*access{a.repo.ID: a})
}

// loadViews loads what the JSON of each issue shows with a fixed number of
// queries (five), whatever the number of issues and of their
// repositories; byRepo holds the repository and permission of each.
func loadViews(ctx context.Context, tx Tx, list []*Issue, byRepo map[forge.ID]*access) ([]*IssueView, error) {
	ids := make([]forge.ID, 0, len(list))
	var msIDs []forge.ID
	for _, is := range list {
		ids = append(ids, is.ID)
		if is.MilestoneID != 0 {
			msIDs = append(msIDs, is.MilestoneID)
		}
	}
	assignees, err := tx.Assignees(ctx, ids)
	if err != nil {
		return nil, err
	}
	labels, err := tx.IssueLabels(ctx, ids)
	if err != nil {
		return nil, err
	}
	milestones := map[forge.ID]*Milestone{}
	if len(msIDs) > 0 {
		if milestones, err = tx.MilestonesByID(ctx, msIDs); err != nil {
			return nil, err
		}
	}
	assets, err := tx.Attachments(ctx, AttachmentFilter{IssueIDs: ids})
	if err != nil {
		return nil, err
	}
	var userIDs []forge.ID
	for _, is := range list {
		userIDs = append(userIDs, is.PosterID)
		userIDs = append(userIDs, assignees[is.ID]...)
	}
	slices.Sort(userIDs)
	users, err := tx.UsersByID(ctx, slices.Compact(userIDs))
	if err != nil {
		return nil, err
	}
	byIssue := map[forge.ID][]*Attachment{}
	for _, at := range assets {
		byIssue[at.IssueID] = append(byIssue[at.IssueID], at)
	}
	out := make([]*IssueView, 0, len(list))
	for _, is := range list {
		a := byRepo[is.RepoID]
		v := &IssueView{Issue: is, Repo: a.repo, Permission: a.perm, Labels: labels[is.ID],
			Milestone: milestones[is.MilestoneID], Assets: byIssue[is.ID]}
		v.Poster = a.user(users, is.PosterID)
		for _, id := range assignees[is.ID] {
			if u := users[id]; u != nil {
				v.Assignees = append(v.Assignees, u.VisibleTo(a.actor))
			}
		}
		if v.Labels == nil {
			v.Labels = []*Label{}
		}
		if v.Assets == nil {
			v.Assets = []*Attachment{}
		}
		out = append(out, v)
	}
	return out, nil
}

// user returns the account id as the actor may see it, or Forgejo's ghost
// user for a deleted account.
func (a *access) user(users map[forge.ID]*forge.User, id forge.ID) *forge.User {
	if u := users[id]; u != nil {
		return u.VisibleTo(a.actor)
	}
	return Ghost()
}

// Ghost is the user Forgejo shows for a deleted account (id -1, "Ghost").
func Ghost() *forge.User {
	return &forge.User{ID: -1, Name: "Ghost", FullName: "Ghost", Visibility: forge.VisibilityPublic, IsActive: true}
}

// view is views for one issue.
func (a *access) view(ctx context.Context, tx Tx, is *Issue) (*IssueView, error) {
	vs, err := a.views(ctx, tx, []*Issue{is})
	if err != nil {
		return nil, err
	}
	return vs[0], nil
}

// commentViews loads what the JSON of each comment shows with a fixed
// number of queries.
func (a *access) commentViews(ctx context.Context, tx Tx, list []*Comment, issues map[forge.ID]*Issue) ([]*CommentView, error) {
	ids := make([]forge.ID, 0, len(list))
	var userIDs []forge.ID
	for _, c := range list {
		ids = append(ids, c.ID)
		userIDs = append(userIDs, c.PosterID)
	}
	assets, err := tx.Attachments(ctx, AttachmentFilter{CommentIDs: ids})
	if err != nil {
		return nil, err
	}
	slices.Sort(userIDs)
	users, err := tx.UsersByID(ctx, slices.Compact(userIDs))
	if err != nil {
		return nil, err
	}
	byComment := map[forge.ID][]*Attachment{}
	for _, at := range assets {
		byComment[at.CommentID] = append(byComment[at.CommentID], at)
	}
	out := make([]*CommentView, 0, len(list))
	for _, c := range list {
		v := &CommentView{Comment: c, Issue: issues[c.IssueID], Repo: a.repo, Poster: a.user(users, c.PosterID), Assets: byComment[c.ID]}
		if v.Assets == nil {
			v.Assets = []*Attachment{}
		}
		out = append(out, v)
	}
	return out, nil
}
