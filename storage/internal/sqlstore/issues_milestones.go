package sqlstore

import (
	"context"
	"strings"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/issues"
)

const milestoneCols = `m.id, m.repo_id, m.title, m.description, m.is_closed, m.num_issues, m.num_closed_issues,
	m.deadline_unix, m.created_unix, m.updated_unix, m.closed_unix`

func milestoneDest() (*issues.Milestone, []any, func()) {
	m := &issues.Milestone{}
	var deadline, created, updated, closed int64
	return m, []any{&m.ID, &m.RepoID, &m.Title, &m.Description, &m.IsClosed, &m.NumIssues, &m.NumClosedIssues,
			&deadline, &created, &updated, &closed},
		func() {
			m.Deadline, m.Created, m.Updated, m.Closed = fromUnix(deadline), fromUnix(created), fromUnix(updated), fromUnix(closed)
		}
}

var (
	sqlCreateMilestone = prepared(`INSERT INTO milestone (repo_id, title, description, is_closed, num_issues,
		num_closed_issues, deadline_unix, created_unix, updated_unix, closed_unix) VALUES (?,?,?,?,?,?,?,?,?,?) RETURNING id`)
	sqlMilestoneByID   = prepared("SELECT " + milestoneCols + " FROM milestone m WHERE m.repo_id = ? AND m.id = ?")
	sqlMilestonesByID  = prepared("SELECT " + milestoneCols + " FROM milestone m WHERE m.id IN (SELECT CAST(value AS BIGINT) FROM json_each(?))")
	sqlUpdateMilestone = prepared(`UPDATE milestone SET title = ?, description = ?, is_closed = ?, num_issues = ?,
		num_closed_issues = ?, deadline_unix = ?, updated_unix = ?, closed_unix = ? WHERE id = ?`)
	sqlDeleteMilestone = prepared(`DELETE FROM milestone WHERE id = ?`)
)

func (t issueTx) CreateMilestone(ctx context.Context, m *issues.Milestone) error {
	return mapError(t.queryRow(ctx, sqlCreateMilestone, m.RepoID, m.Title, m.Description, m.IsClosed, m.NumIssues,
		m.NumClosedIssues, toUnix(m.Deadline), toUnix(m.Created), toUnix(m.Updated), toUnix(m.Closed)).Scan(&m.ID), "milestone")
}

func (t issueTx) MilestoneByID(ctx context.Context, repoID, id forge.ID) (*issues.Milestone, error) {
	m, dest, done := milestoneDest()
	if err := t.queryRow(ctx, sqlMilestoneByID, repoID, id).Scan(dest...); err != nil {
		return nil, mapError(err, "milestone")
	}
	done()
	return m, nil
}

func (t issueTx) MilestonesByID(ctx context.Context, ids []forge.ID) (map[forge.ID]*issues.Milestone, error) {
	out := make(map[forge.ID]*issues.Milestone, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	list, err := t.scanMilestones(ctx, sqlMilestonesByID, idList(ids))
	for _, m := range list {
		out[m.ID] = m
	}
	return out, err
}

func (t issueTx) scanMilestones(ctx context.Context, query string, args ...any) ([]*issues.Milestone, error) {
	return queryAll(ctx, t, fromDest(milestoneDest), "milestones", query, args...)
}

func (t issueTx) UpdateMilestone(ctx context.Context, m *issues.Milestone) error {
	res, err := t.exec(ctx, sqlUpdateMilestone, m.Title, m.Description, m.IsClosed, m.NumIssues, m.NumClosedIssues,
		toUnix(m.Deadline), toUnix(m.Updated), toUnix(m.Closed), m.ID)
	return affectedOne(res, err, "milestone")
}

func (t issueTx) DeleteMilestone(ctx context.Context, id forge.ID) error {
	res, err := t.exec(ctx, sqlDeleteMilestone, id)
	return affectedOne(res, err, "milestone")
}

func (t issueTx) ListMilestones(ctx context.Context, f issues.MilestoneFilter, o forge.ListOptions) ([]*issues.Milestone, int64, error) {
	if f.IDs != nil && len(f.IDs) == 0 {
		return []*issues.Milestone{}, 0, nil
	}
	conds, args := []string{"m.repo_id = ?"}, []any{f.RepoID}
	switch f.State {
	case issues.StateOpen:
		conds = append(conds, "NOT m.is_closed")
	case issues.StateClosed:
		conds = append(conds, "m.is_closed")
	}
	if f.Name != "" {
		conds, args = append(conds, "m.title = ?"), append(args, f.Name)
	}
	if f.NameContains != "" {
		conds = append(conds, t.db.d.upperASCII("m.title")+` LIKE ? ESCAPE '\'`)
		args = append(args, "%"+escapeLike(issues.UpperASCII(f.NameContains))+"%")
	}
	if f.IDs != nil {
		conds, args = append(conds, "m.id IN (SELECT CAST(value AS BIGINT) FROM json_each(?))"), append(args, idList(f.IDs))
	}
	where := " FROM milestone m WHERE " + strings.Join(conds, " AND ")
	var total int64
	if err := t.queryRow(ctx, "SELECT count(*)"+where, args...).Scan(&total); err != nil {
		return nil, 0, mapError(err, "count milestones")
	}
	if total == 0 {
		return []*issues.Milestone{}, 0, nil
	}
	list, err := t.scanMilestones(ctx, "SELECT "+milestoneCols+where+" ORDER BY m.deadline_unix, m.id LIMIT ? OFFSET ?",
		append(args, limitAll(o.Limit), o.Offset())...)
	return list, total, err
}
