package sqlite

import (
	"context"
	"strings"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/issues"
)

// farFuture is Forgejo's stand-in deadline for issues without one in the
// due-date orders: 9999-01-01 00:00 UTC.
const farFuture = "253370764800"

// issueOrders are Forgejo's issue orders (models/issues/issue_search.go
// applySorts), on the columns of issue i and its milestone m.
var issueOrders = map[issues.IssueSort]string{
	issues.IssueSortLatest:       "i.created_unix DESC, i.id DESC",
	issues.IssueSortOldest:       "i.created_unix ASC, i.id ASC",
	issues.IssueSortRecentUpdate: "i.updated_unix DESC, i.created_unix DESC, i.id DESC",
	issues.IssueSortLeastUpdate:  "i.updated_unix ASC, i.created_unix ASC, i.id ASC",
	issues.IssueSortMostComment:  "i.num_comments DESC, i.created_unix DESC, i.id DESC",
	issues.IssueSortLeastComment: "i.num_comments ASC, i.created_unix DESC, i.id DESC",
	issues.IssueSortNearDueDate: `CASE
		WHEN i.deadline_unix = 0 AND (m.deadline_unix = 0 OR m.deadline_unix IS NULL) THEN ` + farFuture + `
		WHEN m.deadline_unix = 0 OR m.deadline_unix IS NULL THEN i.deadline_unix
		WHEN m.deadline_unix < i.deadline_unix OR i.deadline_unix = 0 THEN m.deadline_unix
		ELSE i.deadline_unix END ASC, i.created_unix DESC, i.id DESC`,
	issues.IssueSortFarDueDate: `CASE
		WHEN m.deadline_unix IS NULL THEN i.deadline_unix
		WHEN m.deadline_unix < i.deadline_unix OR i.deadline_unix = 0 THEN m.deadline_unix
		ELSE i.deadline_unix END DESC, i.created_unix DESC, i.id DESC`,
}

// likeEscaper escapes LIKE's wildcards (with ESCAPE '\').
var likeEscaper = strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)

// issueWhere is the condition of f on issue i, and its arguments. ok is
// false when f matches nothing, so that no query runs at all.
func issueWhere(f issues.IssueFilter) (where string, args []any, ok bool) {
	var conds []string
	add := func(cond string, a ...any) { conds, args = append(conds, cond), append(args, a...) }
	switch {
	case len(f.RepoIDs) > 0 && f.PublicRepos:
		add(`(i.repo_id IN (SELECT value FROM json_each(?))
			OR i.repo_id IN (SELECT id FROM repository WHERE is_private = 0))`, idList(f.RepoIDs))
	case len(f.RepoIDs) == 1:
		add("i.repo_id = ?", f.RepoIDs[0])
	case len(f.RepoIDs) > 0:
		add("i.repo_id IN (SELECT value FROM json_each(?))", idList(f.RepoIDs))
	case f.PublicRepos:
		add("i.repo_id IN (SELECT id FROM repository WHERE is_private = 0)")
	default:
		return "", nil, false // no repository: nothing, never everything
	}
	switch f.State {
	case issues.StateOpen:
		add("i.is_closed = 0")
	case issues.StateClosed:
		add("i.is_closed = 1")
	}
	if f.IsPull != nil {
		add("i.is_pull = ?", *f.IsPull)
	}
	if f.LabelIDs != nil {
		if len(f.LabelIDs) == 0 {
			return "", nil, false
		}
		add(`EXISTS (SELECT 1 FROM issue_label il WHERE il.issue_id = i.id
			AND il.label_id IN (SELECT value FROM json_each(?)))`, idList(f.LabelIDs))
	}
	if f.MilestoneIDs != nil {
		if len(f.MilestoneIDs) == 0 {
			return "", nil, false
		}
		add("coalesce(i.milestone_id, 0) IN (SELECT value FROM json_each(?))", idList(f.MilestoneIDs))
	}
	if f.PosterID != 0 {
		add("i.poster_id = ?", f.PosterID)
	}
	if f.AssigneeID != 0 {
		add("EXISTS (SELECT 1 FROM issue_assignees a WHERE a.issue_id = i.id AND a.assignee_id = ?)", f.AssigneeID)
	}
	if f.Keyword != "" {
		like := "%" + likeEscaper.Replace(f.Keyword) + "%"
		add(`(i.title LIKE ? ESCAPE '\' OR i.body LIKE ? ESCAPE '\')`, like, like)
	}
	if !f.UpdatedSince.IsZero() {
		add("i.updated_unix >= ?", f.UpdatedSince.Unix())
	}
	if !f.UpdatedBefore.IsZero() {
		add("i.updated_unix <= ?", f.UpdatedBefore.Unix())
	}
	return strings.Join(conds, " AND "), args, true
}

func (t issueTx) ListIssues(ctx context.Context, f issues.IssueFilter, o forge.ListOptions) ([]*issues.Issue, int64, error) {
	where, args, ok := issueWhere(f)
	if !ok {
		return []*issues.Issue{}, 0, nil
	}
	var total int64
	if err := t.queryRow(ctx, "SELECT count(*) FROM issue i WHERE "+where, args...).Scan(&total); err != nil {
		return nil, 0, mapError(err, "count issues")
	}
	if total == 0 {
		return []*issues.Issue{}, 0, nil
	}
	order, ok := issueOrders[f.Sort]
	if !ok {
		order = issueOrders[issues.IssueSortLatest]
	}
	from := " FROM issue i "
	if f.Sort == issues.IssueSortNearDueDate || f.Sort == issues.IssueSortFarDueDate {
		from += "LEFT JOIN milestone m ON m.id = i.milestone_id "
	}
	list, err := t.scanIssues(ctx, "SELECT "+issueCols+from+"WHERE "+where+" ORDER BY "+order+" LIMIT ? OFFSET ?",
		append(args, o.Limit, o.Offset())...)
	return list, total, err
}
