package sqlstore

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/notify"
	"github.com/hearthforge/hearth/issues"
)

// Notify returns the store package forge/notify consumes.
func (db *DB) Notify() notify.Store { return storeOf(db, func(t *tx) notify.Tx { return notifyTx{t} }) }

// notifyTx is the transaction as notify.Tx.
type notifyTx struct{ *tx }

var _ notify.Tx = notifyTx{}

const threadCols = "id, user_id, repo_id, status, source, coalesce(issue_id, 0), comment_id, updated_by, created_unix, updated_unix"

var (
	sqlSubjects = prepared(`SELECT i.id, i.repo_id, i."index", i.title, i.is_pull, i.is_closed,
		coalesce((SELECT max(c.id) FROM comment c WHERE c.issue_id = i.id AND c.type = ` +
		strconv.Itoa(int(issues.CommentPlain)) + `), 0)
		FROM issue i WHERE i.id IN (SELECT CAST(value AS BIGINT) FROM json_each(?))`)
	sqlCreateThread = prepared(`INSERT INTO notification (user_id, repo_id, status, source, issue_id, comment_id,
		updated_by, created_unix, updated_unix) VALUES (?, ?, ?, ?, nullif(CAST(? AS BIGINT), 0), ?, ?, ?, ?) RETURNING id`)
	sqlUpdateThread  = prepared("UPDATE notification SET status = ?, comment_id = ?, updated_by = ?, updated_unix = ? WHERE id = ?")
	sqlThreadByID    = prepared("SELECT " + threadCols + " FROM notification WHERE id = ?")
	sqlThreadsOfIsue = prepared("SELECT " + threadCols + " FROM notification WHERE issue_id = ? AND user_id IN (SELECT CAST(value AS BIGINT) FROM json_each(?))")
	sqlThreadRepos   = prepared("SELECT DISTINCT repo_id FROM notification WHERE user_id = ? ORDER BY repo_id")
)

func (t notifyTx) Subjects(ctx context.Context, ids []forge.ID) (map[forge.ID]notify.Subject, error) {
	out := make(map[forge.ID]notify.Subject, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	rows, err := t.query(ctx, sqlSubjects, idList(ids))
	if err != nil {
		return nil, mapError(err, "issues")
	}
	defer rows.Close()
	for rows.Next() {
		var id forge.ID
		var s notify.Subject
		if err := rows.Scan(&id, &s.RepoID, &s.Index, &s.Title, &s.IsPull, &s.IsClosed, &s.LastCommentID); err != nil {
			return nil, mapError(err, "issues")
		}
		out[id] = s
	}
	return out, mapError(rows.Err(), "issues")
}

func (t notifyTx) CreateThread(ctx context.Context, n *notify.Thread) error {
	var id forge.ID
	err := t.queryRow(ctx, sqlCreateThread, n.UserID, n.RepoID, string(n.Status), string(n.Source), n.IssueID,
		n.CommentID, n.UpdatedBy, toUnix(n.Created), toUnix(n.Updated)).Scan(&id)
	if err != nil {
		return mapError(err, "notification")
	}
	n.ID = id
	return nil
}

func (t notifyTx) UpdateThread(ctx context.Context, n *notify.Thread) error {
	res, err := t.exec(ctx, sqlUpdateThread, string(n.Status), n.CommentID, n.UpdatedBy, toUnix(n.Updated), n.ID)
	if err != nil {
		return mapError(err, "notification")
	}
	if k, err := res.RowsAffected(); err != nil {
		return mapError(err, "notification")
	} else if k == 0 {
		return forge.Errorf(forge.ErrNotFound, "notification: not found")
	}
	return nil
}

func (t notifyTx) ThreadByID(ctx context.Context, id forge.ID) (*notify.Thread, error) {
	list, err := t.scanThreads(ctx, sqlThreadByID, id)
	if err != nil {
		return nil, err
	}
	if len(list) == 0 {
		return nil, forge.Errorf(forge.ErrNotFound, "notification: not found")
	}
	return list[0], nil
}

func (t notifyTx) ThreadsOfIssue(ctx context.Context, issueID forge.ID, userIDs []forge.ID) (map[forge.ID]*notify.Thread, error) {
	out := map[forge.ID]*notify.Thread{}
	if len(userIDs) == 0 {
		return out, nil
	}
	list, err := t.scanThreads(ctx, sqlThreadsOfIsue, issueID, idList(userIDs))
	for _, n := range list {
		out[n.UserID] = n
	}
	return out, err
}

func (t notifyTx) ThreadRepos(ctx context.Context, userID forge.ID) ([]forge.ID, error) {
	return queryAll(ctx, t, scanID, "notification", sqlThreadRepos, userID)
}

// ListThreads builds its statement from the filter: the clauses that
// apply, with json_each lists for the sets, so that an empty set matches
// nothing.
func (t notifyTx) ListThreads(ctx context.Context, f notify.Filter, o forge.ListOptions) ([]*notify.Thread, int64, error) {
	where := []string{"user_id = ?",
		"((source = 'issue' AND repo_id IN (SELECT CAST(value AS BIGINT) FROM json_each(?))) OR (source = 'pull' AND repo_id IN (SELECT CAST(value AS BIGINT) FROM json_each(?))))"}
	args := []any{f.UserID, idList(f.IssueRepos), idList(f.PullRepos)}
	if f.RepoID != 0 {
		where, args = append(where, "repo_id = ?"), append(args, f.RepoID)
	}
	if f.Statuses != nil {
		where, args = append(where, "status IN (SELECT value FROM json_each(?))"), append(args, typedStrings(f.Statuses))
	}
	if f.Sources != nil {
		where, args = append(where, "source IN (SELECT value FROM json_each(?))"), append(args, typedStrings(f.Sources))
	}
	if !f.UpdatedAfter.IsZero() {
		where, args = append(where, "updated_unix > ?"), append(args, toUnix(f.UpdatedAfter))
	}
	if !f.UpdatedBefore.IsZero() {
		where, args = append(where, "updated_unix < ?"), append(args, toUnix(f.UpdatedBefore))
	}
	cond := strings.Join(where, " AND ")
	var total int64
	if err := t.queryRow(ctx, "SELECT count(*) FROM notification WHERE "+cond, args...).Scan(&total); err != nil {
		return nil, 0, mapError(err, "notification")
	}
	if o.Limit == 0 {
		return []*notify.Thread{}, total, nil
	}
	list, err := t.scanThreads(ctx, "SELECT "+threadCols+" FROM notification WHERE "+cond+
		" ORDER BY updated_unix DESC, id DESC LIMIT ? OFFSET ?", append(args, limitAll(o.Limit), o.Offset())...)
	return list, total, err
}

func (t notifyTx) scanThreads(ctx context.Context, query string, args ...any) ([]*notify.Thread, error) {
	rows, err := t.query(ctx, query, args...)
	if err != nil {
		return nil, mapError(err, "notification")
	}
	defer rows.Close()
	list := []*notify.Thread{}
	for rows.Next() {
		n := &notify.Thread{}
		var status, source string
		var created, updated int64
		if err := rows.Scan(&n.ID, &n.UserID, &n.RepoID, &status, &source, &n.IssueID, &n.CommentID, &n.UpdatedBy,
			&created, &updated); err != nil {
			return nil, mapError(err, "notification")
		}
		n.Status, n.Source, n.Created, n.Updated = notify.Status(status), notify.Source(source), fromUnix(created), fromUnix(updated)
		list = append(list, n)
	}
	return list, mapError(rows.Err(), "notification")
}

// typedStrings is a JSON array of the strings of a typed string slice, for
// json_each.
func typedStrings[S ~string](list []S) string {
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = string(s)
	}
	b, _ := json.Marshal(out) // strings: cannot fail
	return string(b)
}
