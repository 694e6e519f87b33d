package sqlstore

import (
	"context"
	"strings"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/feeds"
)

// Feeds returns the store package forge/feeds consumes.
func (db *DB) Feeds() feeds.Store { return storeOf(db, func(t *tx) feeds.Tx { return feedTx{t} }) }

// feedTx is the transaction as feeds.Tx.
type feedTx struct{ *tx }

var _ feeds.Tx = feedTx{}

const actionCols = "a.id, a.user_id, a.op_type, a.act_user_id, a.repo_id, a.comment_id, a.ref_name, a.is_private, a.content, a.event_id, a.created_unix"

var (
	sqlEventRecorded = prepared("SELECT count(*) FROM action WHERE event_id = ?")
	sqlCreateAction  = prepared(`INSERT INTO action (user_id, op_type, act_user_id, repo_id, comment_id, ref_name, is_private,
		content, event_id, created_unix) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`)
)

func (t feedTx) EventRecorded(ctx context.Context, eventID forge.ID) (bool, error) {
	var n int64
	err := t.queryRow(ctx, sqlEventRecorded, eventID).Scan(&n)
	return n > 0, mapError(err, "action")
}

func (t feedTx) CreateActions(ctx context.Context, list []*feeds.Action) error {
	for _, a := range list {
		if err := t.queryRow(ctx, sqlCreateAction, a.UserID, int64(a.OpType), a.ActUserID, a.RepoID, a.CommentID, a.RefName,
			boolInt(a.IsPrivate), a.Content, a.EventID, toUnix(a.Created)).Scan(&a.ID); err != nil {
			return mapError(err, "action")
		}
	}
	return nil
}

func (t feedTx) ActionRepos(ctx context.Context, f feeds.Filter) ([]forge.ID, error) {
	where, args := []string{"1 = 1"}, []any{}
	if f.UserID != 0 {
		where, args = append(where, "user_id = ?"), append(args, f.UserID)
	}
	if f.RepoID != 0 {
		where, args = append(where, "repo_id = ?"), append(args, f.RepoID)
	}
	return queryAll(ctx, t, scanID, "action",
		"SELECT DISTINCT repo_id FROM action WHERE "+strings.Join(where, " AND ")+" ORDER BY repo_id", args...)
}

// actionWhere is feeds.Filter's rule as the condition of a query of
// action a, with its arguments; sets are json_each lists, so that an
// empty one matches nothing.
func actionWhere(f feeds.Filter) (string, []any) {
	where, args := []string{"1 = 1"}, []any{}
	add := func(cond string, arg ...any) { where, args = append(where, cond), append(args, arg...) }
	if f.UserID != 0 {
		add("a.user_id = ?", f.UserID)
	}
	if f.RepoID != 0 {
		add("a.repo_id = ?", f.RepoID)
	}
	if f.RepoIDs != nil {
		add("a.repo_id IN (SELECT CAST(value AS BIGINT) FROM json_each(?))", idList(f.RepoIDs))
	}
	if f.ActUserID != 0 {
		add("a.act_user_id = ?", f.ActUserID)
	}
	if f.OnlyDoerRows {
		add("a.user_id = a.act_user_id")
	}
	if f.ExcludePrivate {
		add("a.is_private = 0")
	}
	if !f.From.IsZero() {
		add("a.created_unix >= ?", toUnix(f.From))
	}
	if !f.To.IsZero() {
		add("a.created_unix <= ?", toUnix(f.To))
	}
	if f.ActVisibilities != nil {
		add(`a.act_user_id IN (SELECT u.id FROM users u WHERE u.visibility IN (SELECT value FROM json_each(?))
			OR u.id IN (SELECT CAST(value AS BIGINT) FROM json_each(?))
			OR (u.type = 1 AND u.id IN (SELECT m.org_id FROM org_user m WHERE m.uid = ?)))`,
			typedStrings(f.ActVisibilities), idList(f.ActUsers), f.ActOrgsOf)
	}
	return strings.Join(where, " AND "), args
}

func (t feedTx) ListActions(ctx context.Context, f feeds.Filter, o forge.ListOptions) ([]*feeds.Action, int64, error) {
	cond, args := actionWhere(f)
	var total int64
	if err := t.queryRow(ctx, "SELECT count(*) FROM action a WHERE "+cond, args...).Scan(&total); err != nil {
		return nil, 0, mapError(err, "action")
	}
	list, err := queryAll(ctx, t, scanAction, "action", "SELECT "+actionCols+" FROM action a WHERE "+cond+
		" ORDER BY a.created_unix DESC, a.id DESC LIMIT ? OFFSET ?", append(args, limitAll(o.Limit), o.Offset())...)
	return list, total, err
}

func (t feedTx) Heatmap(ctx context.Context, f feeds.Filter) ([]feeds.HeatmapBucket, error) {
	cond, args := actionWhere(f)
	return queryAll(ctx, t, func(r rowScanner) (feeds.HeatmapBucket, error) {
		var b feeds.HeatmapBucket
		err := r.Scan(&b.Timestamp, &b.Contributions)
		return b, err
	}, "action", "SELECT a.created_unix / 900 * 900 AS ts, count(*) FROM action a WHERE "+cond+" GROUP BY ts ORDER BY ts", args...)
}

// scanAction reads a row of actionCols.
func scanAction(r rowScanner) (*feeds.Action, error) {
	a := &feeds.Action{}
	var op, private, created int64
	if err := r.Scan(&a.ID, &a.UserID, &op, &a.ActUserID, &a.RepoID, &a.CommentID, &a.RefName, &private, &a.Content,
		&a.EventID, &created); err != nil {
		return nil, err
	}
	a.OpType, a.IsPrivate, a.Created = feeds.OpType(op), private != 0, fromUnix(created)
	return a, nil
}
