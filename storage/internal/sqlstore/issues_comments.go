package sqlstore

import (
	"context"
	"strings"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/issues"
)

// commentFields are the comment columns CreateComment writes, in the order
// of commentArgs.
var commentFields = []string{"issue_id", "type", "poster_id", "original_author", "original_author_id", "body",
	"label_id", "content", "old_milestone_id", "milestone_id", "assignee_id", "removed_assignee",
	"old_title", "new_title", "old_ref", "new_ref", "content_version", "created_unix", "updated_unix",
	"review_id", "tree_path", "line", "commit_sha", "patch", "invalidated", "resolve_doer_id", "assignee_team_id", "dependent_issue_id"}

var commentCols = func() string {
	cols := []string{"c.id"}
	for _, f := range commentFields {
		cols = append(cols, "c."+f)
	}
	return strings.Join(cols, ", ")
}()

func commentArgs(c *issues.Comment) []any {
	return []any{c.IssueID, int(c.Type), c.PosterID, c.OriginalAuthor, c.OriginalAuthorID, c.Body,
		c.LabelID, c.Content, c.OldMilestoneID, c.MilestoneID, c.AssigneeID, c.RemovedAssignee,
		c.OldTitle, c.NewTitle, c.OldRef, c.NewRef, c.ContentVersion, toUnix(c.Created), toUnix(c.Updated),
		c.ReviewID, c.TreePath, c.Line, c.CommitSHA, c.Patch, c.Invalidated, c.ResolveDoerID, c.AssigneeTeamID, c.DependentIssueID}
}

func commentDest() (*issues.Comment, []any, func()) {
	c := &issues.Comment{}
	var created, updated int64
	return c, []any{&c.ID, &c.IssueID, &c.Type, &c.PosterID, &c.OriginalAuthor, &c.OriginalAuthorID, &c.Body,
			&c.LabelID, &c.Content, &c.OldMilestoneID, &c.MilestoneID, &c.AssigneeID, &c.RemovedAssignee,
			&c.OldTitle, &c.NewTitle, &c.OldRef, &c.NewRef, &c.ContentVersion, &created, &updated,
			&c.ReviewID, &c.TreePath, &c.Line, &c.CommitSHA, &c.Patch, &c.Invalidated, &c.ResolveDoerID, &c.AssigneeTeamID, &c.DependentIssueID},
		func() { c.Created, c.Updated = fromUnix(created), fromUnix(updated) }
}

var (
	sqlCreateComment = prepared("INSERT INTO comment (" + strings.Join(commentFields, ", ") + ") VALUES (" +
		strings.Repeat("?,", len(commentFields)-1) + "?) RETURNING id")
	sqlCommentByID   = prepared("SELECT " + commentCols + " FROM comment c WHERE c.id = ?")
	sqlUpdateComment = prepared(`UPDATE comment SET poster_id = ?, original_author = ?, original_author_id = ?, body = ?,
		label_id = ?, content = ?, old_milestone_id = ?, milestone_id = ?, assignee_id = ?, removed_assignee = ?,
		old_title = ?, new_title = ?, old_ref = ?, new_ref = ?, content_version = ?, updated_unix = ?,
		review_id = ?, tree_path = ?, line = ?, commit_sha = ?, patch = ?, invalidated = ?, resolve_doer_id = ?,
		assignee_team_id = ?, dependent_issue_id = ? WHERE id = ?`)
	sqlDeleteComment = prepared(`DELETE FROM comment WHERE id = ?`)
)

func (t issueTx) CreateComment(ctx context.Context, c *issues.Comment) error {
	return mapError(t.queryRow(ctx, sqlCreateComment, commentArgs(c)...).Scan(&c.ID), "comment")
}

func (t issueTx) CommentByID(ctx context.Context, id forge.ID) (*issues.Comment, error) {
	c, dest, done := commentDest()
	if err := t.queryRow(ctx, sqlCommentByID, id).Scan(dest...); err != nil {
		return nil, mapError(err, "comment")
	}
	done()
	return c, nil
}

func (t issueTx) UpdateComment(ctx context.Context, c *issues.Comment) error {
	res, err := t.exec(ctx, sqlUpdateComment, c.PosterID, c.OriginalAuthor, c.OriginalAuthorID, c.Body,
		c.LabelID, c.Content, c.OldMilestoneID, c.MilestoneID, c.AssigneeID, c.RemovedAssignee,
		c.OldTitle, c.NewTitle, c.OldRef, c.NewRef, c.ContentVersion, toUnix(c.Updated),
		c.ReviewID, c.TreePath, c.Line, c.CommitSHA, c.Patch, c.Invalidated, c.ResolveDoerID, c.AssigneeTeamID, c.DependentIssueID, c.ID)
	return affectedOne(res, err, "comment")
}

func (t issueTx) DeleteComment(ctx context.Context, id forge.ID) error {
	res, err := t.exec(ctx, sqlDeleteComment, id)
	return affectedOne(res, err, "comment")
}

func (t issueTx) ListComments(ctx context.Context, f issues.CommentFilter, o forge.ListOptions) ([]*issues.Comment, int64, error) {
	var conds []string
	var args []any
	add := func(cond string, a ...any) { conds, args = append(conds, cond), append(args, a...) }
	if f.IssueID == 0 && f.RepoID == 0 {
		return []*issues.Comment{}, 0, nil
	}
	from := " FROM comment c"
	if f.IssueID != 0 {
		add("c.issue_id = ?", f.IssueID)
	}
	if f.RepoID != 0 || f.IsPull != nil {
		from += " JOIN issue i ON i.id = c.issue_id"
	}
	if f.RepoID != 0 {
		add("i.repo_id = ?", f.RepoID)
	}
	if f.IsPull != nil {
		add("i.is_pull = ?", *f.IsPull)
	}
	if f.Types != nil {
		types := make([]forge.ID, len(f.Types))
		for k, typ := range f.Types {
			types[k] = forge.ID(typ)
		}
		add("c.type IN (SELECT CAST(value AS BIGINT) FROM json_each(?))", idList(types))
	}
	if !f.UpdatedSince.IsZero() {
		add("c.updated_unix >= ?", f.UpdatedSince.Unix())
	}
	if !f.UpdatedBefore.IsZero() {
		add("c.updated_unix <= ?", f.UpdatedBefore.Unix())
	}
	from += " WHERE " + strings.Join(conds, " AND ")
	var total int64
	if err := t.queryRow(ctx, "SELECT count(*)"+from, args...).Scan(&total); err != nil {
		return nil, 0, mapError(err, "count comments")
	}
	list := []*issues.Comment{}
	if total == 0 {
		return list, 0, nil
	}
	list, err := queryAll(ctx, t, fromDest(commentDest), "comments", "SELECT "+commentCols+from+" ORDER BY c.created_unix, c.id LIMIT ? OFFSET ?",
		append(args, limitAll(o.Limit), o.Offset())...)
	if err != nil {
		return nil, 0, err
	}
	return list, total, nil
}
