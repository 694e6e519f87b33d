package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"strings"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/issues"
)

// Dependencies, tracked times and stopwatches (issues.TrackingTx),
// migration 00017.

var (
	// A dependency between existing issues, unless it exists: a statement
	// that fails on a constraint would end a PostgreSQL transaction, and
	// the caller may go on after ErrConflict or ErrNotFound (sqlIssuePair
	// says which when no row is inserted).
	sqlCreateDep = prepared(`INSERT INTO dependency (user_id, issue_id, dependency_id, created_unix)
		SELECT CAST(?1 AS BIGINT), CAST(?2 AS BIGINT), CAST(?3 AS BIGINT), CAST(?4 AS BIGINT) WHERE EXISTS (SELECT 1 FROM issue WHERE id = ?2)
			AND EXISTS (SELECT 1 FROM issue WHERE id = ?3)
		ON CONFLICT DO NOTHING RETURNING id`)
	sqlIssuePair    = prepared(`SELECT (SELECT count(*) FROM issue WHERE id = ?), (SELECT count(*) FROM issue WHERE id = ?)`)
	sqlDeleteDep    = prepared("DELETE FROM dependency WHERE issue_id = ? AND dependency_id = ?")
	sqlDepExists    = prepared("SELECT count(*) FROM dependency WHERE issue_id = ? AND dependency_id = ?")
	sqlDependencies = prepared("SELECT dependency_id FROM dependency WHERE issue_id = ? ORDER BY dependency_id")
	sqlDependents   = prepared("SELECT issue_id FROM dependency WHERE dependency_id = ? ORDER BY issue_id")
	sqlRepoRefs     = prepared(`SELECT r.id, u.name, r.name FROM repository r JOIN users u ON u.id = r.owner_id
		WHERE r.id IN (SELECT CAST(value AS BIGINT) FROM json_each(?))`)
	sqlCreateTime       = prepared("INSERT INTO tracked_time (issue_id, user_id, created_unix, time) VALUES (?, ?, ?, ?) RETURNING id")
	sqlTimeByID         = prepared("SELECT id, issue_id, user_id, created_unix, time, deleted FROM tracked_time WHERE id = ?")
	sqlMarkDeleted      = prepared("UPDATE tracked_time SET deleted = TRUE WHERE id IN (SELECT CAST(value AS BIGINT) FROM json_each(?))")
	sqlCreateStopwatch  = prepared("INSERT INTO stopwatch (issue_id, user_id, created_unix) VALUES (?, ?, ?) ON CONFLICT DO NOTHING RETURNING id")
	sqlDeleteStopwatch  = prepared("DELETE FROM stopwatch WHERE id = ?")
	sqlCountStopwatches = prepared("SELECT count(*) FROM stopwatch WHERE user_id = ? AND (CAST(? AS BIGINT) = 0 OR issue_id = ?)")
	sqlListStopwatches  = prepared(`SELECT id, issue_id, user_id, created_unix FROM stopwatch
		WHERE user_id = ? AND (CAST(? AS BIGINT) = 0 OR issue_id = ?) ORDER BY id LIMIT ? OFFSET ?`)
	sqlIssueAndUser = prepared(`SELECT (SELECT count(*) FROM issue WHERE id = ?), (SELECT count(*) FROM users WHERE id = ?)`)
)

func (t issueTx) CreateDependency(ctx context.Context, d *issues.Dependency) error {
	err := t.queryRow(ctx, sqlCreateDep, d.UserID, d.IssueID, d.DependsOn, d.Created.Unix()).Scan(&d.ID)
	if !errors.Is(err, sql.ErrNoRows) {
		return mapError(err, "issue dependency")
	}
	var is, dep int
	if err := t.queryRow(ctx, sqlIssuePair, d.IssueID, d.DependsOn).Scan(&is, &dep); err != nil {
		return mapError(err, "issue dependency")
	}
	if is == 0 || dep == 0 {
		return forge.Errorf(forge.ErrNotFound, "issue dependency: missing referenced row")
	}
	return forge.Errorf(forge.ErrConflict, "issue dependency: already exists")
}

func (t issueTx) DeleteDependency(ctx context.Context, issueID, dependsOn forge.ID) error {
	res, err := t.exec(ctx, sqlDeleteDep, issueID, dependsOn)
	if err != nil {
		return mapError(err, "issue dependency")
	}
	if n, err := res.RowsAffected(); err != nil {
		return err
	} else if n == 0 {
		return forge.Errorf(forge.ErrNotFound, "issue dependency: not found")
	}
	return nil
}

func (t issueTx) DependencyExists(ctx context.Context, issueID, dependsOn forge.ID) (bool, error) {
	var n int
	err := t.queryRow(ctx, sqlDepExists, issueID, dependsOn).Scan(&n)
	return n > 0, mapError(err, "issue dependency")
}

func (t issueTx) Dependencies(ctx context.Context, issueID forge.ID) ([]forge.ID, error) {
	return t.ids(ctx, sqlDependencies, issueID)
}

func (t issueTx) Dependents(ctx context.Context, issueID forge.ID) ([]forge.ID, error) {
	return t.ids(ctx, sqlDependents, issueID)
}

func (t issueTx) ids(ctx context.Context, query string, args ...any) ([]forge.ID, error) {
	return queryAll(ctx, t, scanID, "issue dependencies", query, args...)
}

func (t issueTx) RepoRefs(ctx context.Context, ids []forge.ID) (map[forge.ID]issues.RepoRef, error) {
	out := make(map[forge.ID]issues.RepoRef, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	rows, err := t.query(ctx, sqlRepoRefs, idList(ids))
	if err != nil {
		return nil, mapError(err, "repositories")
	}
	defer rows.Close()
	for rows.Next() {
		var r issues.RepoRef
		if err := rows.Scan(&r.ID, &r.OwnerName, &r.Name); err != nil {
			return nil, mapError(err, "repositories")
		}
		out[r.ID] = r
	}
	return out, mapError(rows.Err(), "repositories")
}

// issueAndUser checks that an issue and a user exist (the columns without
// a foreign key to users).
func (t issueTx) issueAndUser(ctx context.Context, issueID, userID forge.ID, what string) error {
	var is, u int
	if err := t.queryRow(ctx, sqlIssueAndUser, issueID, userID).Scan(&is, &u); err != nil {
		return mapError(err, what)
	}
	if is == 0 || u == 0 {
		return forge.Errorf(forge.ErrNotFound, "%s: missing referenced row", what)
	}
	return nil
}

func (t issueTx) CreateTrackedTime(ctx context.Context, tt *issues.TrackedTime) error {
	if err := t.issueAndUser(ctx, tt.IssueID, tt.UserID, "tracked time"); err != nil {
		return err
	}
	err := t.queryRow(ctx, sqlCreateTime, tt.IssueID, tt.UserID, tt.Created.Unix(), tt.Seconds).Scan(&tt.ID)
	return mapError(err, "tracked time")
}

func (t issueTx) TrackedTimeByID(ctx context.Context, id forge.ID) (*issues.TrackedTime, error) {
	var tt issues.TrackedTime
	var created int64
	err := t.queryRow(ctx, sqlTimeByID, id).Scan(&tt.ID, &tt.IssueID, &tt.UserID, &created, &tt.Seconds, &tt.Deleted)
	if err != nil {
		return nil, mapError(err, "tracked time")
	}
	tt.Created = fromUnix(created)
	return &tt, nil
}

func (t issueTx) ListTrackedTimes(ctx context.Context, f issues.TimeFilter, o forge.ListOptions) ([]*issues.TrackedTime, int64, error) {
	conds := []string{"NOT t.deleted"}
	var args []any
	from := " FROM tracked_time t"
	if f.RepoID != 0 {
		from += " JOIN issue i ON i.id = t.issue_id"
		conds, args = append(conds, "i.repo_id = ?"), append(args, f.RepoID)
	}
	if f.IssueID != 0 {
		conds, args = append(conds, "t.issue_id = ?"), append(args, f.IssueID)
	}
	if f.UserID != 0 {
		conds, args = append(conds, "t.user_id = ?"), append(args, f.UserID)
	}
	if !f.CreatedSince.IsZero() {
		conds, args = append(conds, "t.created_unix >= ?"), append(args, f.CreatedSince.Unix())
	}
	if !f.CreatedBefore.IsZero() {
		conds, args = append(conds, "t.created_unix <= ?"), append(args, f.CreatedBefore.Unix())
	}
	from += " WHERE " + strings.Join(conds, " AND ")
	var total int64
	if err := t.queryRow(ctx, "SELECT count(*)"+from, args...).Scan(&total); err != nil {
		return nil, 0, mapError(err, "count tracked times")
	}
	list := []*issues.TrackedTime{}
	if total == 0 {
		return list, 0, nil
	}
	rows, err := t.query(ctx, "SELECT t.id, t.issue_id, t.user_id, t.created_unix, t.time"+from+" ORDER BY t.id LIMIT ? OFFSET ?",
		append(args, limitAll(o.Limit), o.Offset())...)
	if err != nil {
		return nil, 0, mapError(err, "tracked times")
	}
	defer rows.Close()
	for rows.Next() {
		var tt issues.TrackedTime
		var created int64
		if err := rows.Scan(&tt.ID, &tt.IssueID, &tt.UserID, &created, &tt.Seconds); err != nil {
			return nil, 0, mapError(err, "tracked times")
		}
		tt.Created = fromUnix(created)
		list = append(list, &tt)
	}
	return list, total, mapError(rows.Err(), "tracked times")
}

func (t issueTx) MarkTimesDeleted(ctx context.Context, ids []forge.ID) error {
	if len(ids) == 0 {
		return nil
	}
	_, err := t.exec(ctx, sqlMarkDeleted, idList(ids))
	return mapError(err, "tracked times")
}

func (t issueTx) CreateStopwatch(ctx context.Context, sw *issues.Stopwatch) error {
	if err := t.issueAndUser(ctx, sw.IssueID, sw.UserID, "stopwatch"); err != nil {
		return err
	}
	err := t.queryRow(ctx, sqlCreateStopwatch, sw.IssueID, sw.UserID, sw.Created.Unix()).Scan(&sw.ID)
	if errors.Is(err, sql.ErrNoRows) { // ON CONFLICT DO NOTHING: the transaction goes on
		return forge.Errorf(forge.ErrConflict, "stopwatch: already exists")
	}
	return mapError(err, "stopwatch")
}

func (t issueTx) DeleteStopwatch(ctx context.Context, id forge.ID) error {
	res, err := t.exec(ctx, sqlDeleteStopwatch, id)
	if err != nil {
		return mapError(err, "stopwatch")
	}
	if n, err := res.RowsAffected(); err != nil {
		return err
	} else if n == 0 {
		return forge.Errorf(forge.ErrNotFound, "stopwatch: not found")
	}
	return nil
}

func (t issueTx) Stopwatches(ctx context.Context, userID, issueID forge.ID, o forge.ListOptions) ([]*issues.Stopwatch, int64, error) {
	var total int64
	if err := t.queryRow(ctx, sqlCountStopwatches, userID, issueID, issueID).Scan(&total); err != nil {
		return nil, 0, mapError(err, "count stopwatches")
	}
	list := []*issues.Stopwatch{}
	if total == 0 {
		return list, 0, nil
	}
	rows, err := t.query(ctx, sqlListStopwatches, userID, issueID, issueID, limitAll(o.Limit), o.Offset())
	if err != nil {
		return nil, 0, mapError(err, "stopwatches")
	}
	defer rows.Close()
	for rows.Next() {
		var sw issues.Stopwatch
		var created int64
		if err := rows.Scan(&sw.ID, &sw.IssueID, &sw.UserID, &created); err != nil {
			return nil, 0, mapError(err, "stopwatches")
		}
		sw.Created = fromUnix(created)
		list = append(list, &sw)
	}
	return list, total, mapError(rows.Err(), "stopwatches")
}
