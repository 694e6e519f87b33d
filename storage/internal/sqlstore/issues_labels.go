package sqlstore

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/issues"
)

// labelCols reads a label l. A label's repo_id or org_id is NULL when it
// has none (the foreign keys need it); the domain's 0. Its issue counters
// are counted when read, so closing, reopening or deleting an issue keeps
// them right with no write to the label.
const labelCols = `l.id, coalesce(l.repo_id, 0), coalesce(l.org_id, 0), l.name, l.color, l.description,
	l.exclusive, l.archived_unix,
	(SELECT count(*) FROM issue_label il WHERE il.label_id = l.id) AS num_issues,
	(SELECT count(*) FROM issue_label il JOIN issue i ON i.id = il.issue_id
		WHERE il.label_id = l.id AND i.is_closed) AS num_closed_issues`

func labelDest() (*issues.Label, []any, func()) {
	l := &issues.Label{}
	var archived int64
	return l, []any{&l.ID, &l.RepoID, &l.OrgID, &l.Name, &l.Color, &l.Description,
			&l.Exclusive, &archived, &l.NumIssues, &l.NumClosedIssues},
		func() { l.Archived = fromUnix(archived) }
}

// labelOrders are the orders of the label list (routers/web/repo/issue_label.go
// and models/issues/label.go GetLabelsByRepoID), then by id.
var labelOrders = map[issues.LabelSort]string{
	"":                           "l.name ASC, l.id ASC",
	issues.LabelSortAlpha:        "l.name ASC, l.id ASC",
	issues.LabelSortReverseAlpha: "l.name DESC, l.id ASC",
	issues.LabelSortLeastIssues:  "num_issues ASC, l.id ASC",
	issues.LabelSortMostIssues:   "num_issues DESC, l.id ASC",
}

var (
	sqlCreateLabel = prepared(`INSERT INTO label (repo_id, org_id, name, color, description, exclusive, archived_unix)
		VALUES (nullif(CAST(? AS BIGINT), 0), nullif(CAST(? AS BIGINT), 0), ?, ?, ?, ?, ?) RETURNING id`)
	sqlLabelByID   = prepared("SELECT " + labelCols + " FROM label l WHERE l.id = ?")
	sqlUpdateLabel = prepared(`UPDATE label SET name = ?, color = ?, description = ?, exclusive = ?, archived_unix = ?
		WHERE id = ?`)
	sqlDeleteLabel      = prepared(`DELETE FROM label WHERE id = ?`)
	sqlClearIssueLabels = prepared(`DELETE FROM issue_label WHERE issue_id = ?`)
	sqlAddIssueLabel    = prepared(`INSERT INTO issue_label (issue_id, label_id) VALUES (?, ?) ON CONFLICT DO NOTHING`)
	// The labels of a page of issues, each label's counters counted once
	// however many issues of the page bear it.
	sqlIssueLabels = prepared(`WITH page AS (SELECT issue_id, label_id FROM issue_label
			WHERE issue_id IN (SELECT CAST(value AS BIGINT) FROM json_each(?))),
		counts AS (SELECT il.label_id, count(*) AS n, count(*) FILTER (WHERE i.is_closed) AS closed
			FROM issue_label il JOIN issue i ON i.id = il.issue_id
			WHERE il.label_id IN (SELECT label_id FROM page) GROUP BY il.label_id)
		SELECT p.issue_id, l.id, coalesce(l.repo_id, 0), coalesce(l.org_id, 0), l.name, l.color, l.description,
			l.exclusive, l.archived_unix, c.n, c.closed
		FROM page p JOIN label l ON l.id = p.label_id JOIN counts c ON c.label_id = l.id
		ORDER BY p.issue_id, l.name, l.id`)
)

func (t issueTx) CreateLabel(ctx context.Context, l *issues.Label) error {
	return mapError(t.queryRow(ctx, sqlCreateLabel, l.RepoID, l.OrgID, l.Name, l.Color, l.Description,
		l.Exclusive, toUnix(l.Archived)).Scan(&l.ID), "label")
}

func (t issueTx) LabelByID(ctx context.Context, id forge.ID) (*issues.Label, error) {
	l, dest, done := labelDest()
	if err := t.queryRow(ctx, sqlLabelByID, id).Scan(dest...); err != nil {
		return nil, mapError(err, "label")
	}
	done()
	return l, nil
}

func (t issueTx) UpdateLabel(ctx context.Context, l *issues.Label) error {
	res, err := t.exec(ctx, sqlUpdateLabel, l.Name, l.Color, l.Description, l.Exclusive, toUnix(l.Archived), l.ID)
	return affectedOne(res, err, "label")
}

func (t issueTx) DeleteLabel(ctx context.Context, id forge.ID) error {
	res, err := t.exec(ctx, sqlDeleteLabel, id)
	return affectedOne(res, err, "label")
}

func (t issueTx) ListLabels(ctx context.Context, f issues.LabelFilter, o forge.ListOptions) ([]*issues.Label, int64, error) {
	var owners []string
	var args []any
	if f.RepoID != 0 {
		owners, args = append(owners, "l.repo_id = ?"), append(args, f.RepoID)
	}
	if f.OrgID != 0 {
		owners, args = append(owners, "l.org_id = ?"), append(args, f.OrgID)
	}
	if len(owners) == 0 || (f.IDs != nil && len(f.IDs) == 0) || (f.Names != nil && len(f.Names) == 0) {
		return []*issues.Label{}, 0, nil
	}
	where := "(" + strings.Join(owners, " OR ") + ")"
	if f.IDs != nil {
		where, args = where+" AND l.id IN (SELECT CAST(value AS BIGINT) FROM json_each(?))", append(args, idList(f.IDs))
	}
	if f.Names != nil {
		where, args = where+" AND l.name IN (SELECT value FROM json_each(?))", append(args, stringList(f.Names))
	}
	var total int64
	if err := t.queryRow(ctx, "SELECT count(*) FROM label l WHERE "+where, args...).Scan(&total); err != nil {
		return nil, 0, mapError(err, "count labels")
	}
	list := []*issues.Label{}
	if total == 0 {
		return list, 0, nil
	}
	order, ok := labelOrders[f.Sort]
	if !ok {
		order = labelOrders[""]
	}
	list, err := queryAll(ctx, t, fromDest(labelDest), "labels", "SELECT "+labelCols+" FROM label l WHERE "+where+" ORDER BY "+order+" LIMIT ? OFFSET ?",
		append(args, limitAll(o.Limit), o.Offset())...)
	if err != nil {
		return nil, 0, err
	}
	return list, total, nil
}

func (t issueTx) SetIssueLabels(ctx context.Context, issueID forge.ID, labelIDs []forge.ID) error {
	if err := t.issueExists(ctx, issueID); err != nil {
		return err
	}
	if _, err := t.exec(ctx, sqlClearIssueLabels, issueID); err != nil {
		return mapError(err, "issue labels")
	}
	for _, id := range labelIDs {
		if _, err := t.exec(ctx, sqlAddIssueLabel, issueID, id); err != nil {
			return mapError(err, "issue label")
		}
	}
	return nil
}

func (t issueTx) IssueLabels(ctx context.Context, issueIDs []forge.ID) (map[forge.ID][]*issues.Label, error) {
	out := map[forge.ID][]*issues.Label{}
	if len(issueIDs) == 0 {
		return out, nil
	}
	rows, err := t.query(ctx, sqlIssueLabels, idList(issueIDs))
	if err != nil {
		return nil, mapError(err, "issue labels")
	}
	defer rows.Close()
	for rows.Next() {
		var issue forge.ID
		l, dest, done := labelDest()
		if err := rows.Scan(append([]any{&issue}, dest...)...); err != nil {
			return nil, mapError(err, "issue labels")
		}
		done()
		out[issue] = append(out[issue], l)
	}
	return out, mapError(rows.Err(), "issue labels")
}

// stringList is strs as the JSON array json_each reads.
func stringList(strs []string) string {
	b, _ := json.Marshal(strs) // strings: cannot fail
	return string(b)
}
