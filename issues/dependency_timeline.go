package issues

import (
	"context"
	"slices"
	"time"

	"github.com/hearthforge/hearth/forge"
)

// Dependency event types (Forgejo's CommentTypeAddDependency and
// CommentTypeRemoveDependency; timeline names "add_dependency" and
// "remove_dependency").
const (
	CommentAddDependency    CommentType = 19
	CommentRemoveDependency CommentType = 20
)

// dependencyComments records a dependency event in both issues of "target
// depends on dep" as Forgejo's createIssueDependencyComment: one in target
// naming dep and one in dep naming target, by the actor, dated now; each
// issue's update time becomes now (Forgejo's CreateComment updates
// updated_unix). It runs in the transaction that adds or removes the
// dependency.
func dependencyComments(ctx context.Context, tx Tx, actor forge.Actor, target, dep *Issue, add bool, now time.Time) error {
	typ := CommentRemoveDependency
	if add {
		typ = CommentAddDependency
	}
	for _, p := range [][2]*Issue{{target, dep}, {dep, target}} {
		ch := newChange(tx, actor, p[0], now, now, false)
		if err := ch.comment(ctx, &Comment{Type: typ, DependentIssueID: p[1].ID}); err != nil {
			return err
		}
		if err := ch.commit(ctx); err != nil {
			return err
		}
	}
	return nil
}

// dependentIssues loads the issues the dependency events of list name, by
// id; those deleted since are absent.
func dependentIssues(ctx context.Context, tx Tx, list []*Comment) (map[forge.ID]*Issue, error) {
	var ids []forge.ID
	for _, c := range list {
		if (c.Type == CommentAddDependency || c.Type == CommentRemoveDependency) && c.DependentIssueID != 0 {
			ids = append(ids, c.DependentIssueID)
		}
	}
	if len(ids) == 0 {
		return nil, nil
	}
	slices.Sort(ids)
	return tx.IssuesByID(ctx, slices.Compact(ids))
}

// attachDependents sets the DependentIssue of each dependency event of
// out whose issue the actor may read in its repository (byRepo, resolved
// by the caller); one the actor may not read is left nil, so that a
// private issue is not told through the timeline of a public one (Forgejo
// converts it whatever the actor's access).
func attachDependents(ctx context.Context, tx Tx, out []*TimelineView, deps map[forge.ID]*Issue, byRepo map[forge.ID]*access) error {
	if len(deps) == 0 {
		return nil
	}
	var readable []*Issue
	for _, d := range deps {
		if ra := byRepo[d.RepoID]; ra != nil && ra.canRead(d.IsPull) {
			readable = append(readable, d)
		}
	}
	views, err := loadViews(ctx, tx, readable, byRepo)
	if err != nil {
		return err
	}
	byID := make(map[forge.ID]*IssueView, len(views))
	for _, v := range views {
		byID[v.Issue.ID] = v
	}
	for _, tv := range out {
		if c := tv.Comment; c.Type == CommentAddDependency || c.Type == CommentRemoveDependency {
			tv.DependentIssue = byID[c.DependentIssueID]
		}
	}
	return nil
}
