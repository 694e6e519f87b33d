package sqlstore

import (
	"context"
	"database/sql"
	"errors"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/issues"
)

var _ issues.SocialTx = issueTx{}

// nullID is NULL for 0.
func nullID(id forge.ID) any {
	if id == 0 {
		return nil
	}
	return id
}

// socialIssueExists returns forge.ErrNotFound (what: missing referenced row)
// unless issue id exists: the social tables hold no foreign key to issue
// (see migration 00016).
func (t issueTx) socialIssueExists(ctx context.Context, id forge.ID, what string) error {
	var one int
	err := t.queryRow(ctx, `SELECT 1 FROM issue WHERE id = ?`, id).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return forge.Errorf(forge.ErrNotFound, "%s: missing referenced row", what)
	}
	return mapError(err, what)
}

func (t issueTx) CreateReaction(ctx context.Context, r *issues.Reaction) error {
	if err := t.socialIssueExists(ctx, r.IssueID, "create reaction: issue"); err != nil {
		return err
	}
	if r.CommentID != 0 {
		var issueID forge.ID
		err := t.queryRow(ctx, `SELECT issue_id FROM comment WHERE id = ?`, r.CommentID).Scan(&issueID)
		if err != nil || issueID != r.IssueID {
			if err == nil || errors.Is(err, sql.ErrNoRows) {
				return forge.Errorf(forge.ErrNotFound, "create reaction: comment: missing referenced row")
			}
			return mapError(err, "reaction")
		}
	}
	err := t.queryRow(ctx, `INSERT INTO reaction (issue_id, comment_id, user_id, content, created_unix)
		VALUES (?, ?, ?, ?, ?) RETURNING id`, r.IssueID, nullID(r.CommentID), r.UserID, r.Content, toUnix(r.Created)).
		Scan(&r.ID)
	return mapError(err, "reaction")
}

func (t issueTx) DeleteReaction(ctx context.Context, issueID, commentID, userID forge.ID, content string) error {
	_, err := t.exec(ctx, `DELETE FROM reaction WHERE issue_id = ? AND comment_id IS NOT DISTINCT FROM ? AND user_id = ? AND content = ?`,
		issueID, nullID(commentID), userID, content)
	return mapError(err, "reaction")
}

func (t issueTx) Reactions(ctx context.Context, issueID, commentID forge.ID, o forge.ListOptions) ([]*issues.Reaction, int64, error) {
	const where = ` FROM reaction WHERE issue_id = ? AND comment_id IS NOT DISTINCT FROM ?`
	var total int64
	if err := t.queryRow(ctx, `SELECT count(*)`+where, issueID, nullID(commentID)).Scan(&total); err != nil {
		return nil, 0, mapError(err, "count reactions")
	}
	out := []*issues.Reaction{}
	if total == 0 {
		return out, 0, nil
	}
	rows, err := t.query(ctx, `SELECT id, issue_id, coalesce(comment_id, 0), user_id, content, created_unix`+where+
		` ORDER BY id LIMIT ? OFFSET ?`, issueID, nullID(commentID), limitAll(o.Limit), o.Offset())
	if err != nil {
		return nil, 0, mapError(err, "reactions")
	}
	defer rows.Close()
	for rows.Next() {
		var r issues.Reaction
		var created int64
		if err := rows.Scan(&r.ID, &r.IssueID, &r.CommentID, &r.UserID, &r.Content, &created); err != nil {
			return nil, 0, mapError(err, "reactions")
		}
		r.Created = fromUnix(created)
		out = append(out, &r)
	}
	return out, total, mapError(rows.Err(), "reactions")
}

func (t issueTx) SetIssueWatch(ctx context.Context, w *issues.IssueWatch) error {
	if err := t.socialIssueExists(ctx, w.IssueID, "set issue watch: issue"); err != nil {
		return err
	}
	var created int64
	err := t.queryRow(ctx, `INSERT INTO user_issue_watch (user_id, issue_id, is_watching, created_unix, updated_unix)
		VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (issue_id, user_id) DO UPDATE SET is_watching = excluded.is_watching, updated_unix = excluded.updated_unix
		RETURNING id, created_unix`, w.UserID, w.IssueID, w.IsWatching, toUnix(w.Created), toUnix(w.Updated)).
		Scan(&w.ID, &created)
	if err != nil {
		return mapError(err, "issue watch")
	}
	w.Created = fromUnix(created)
	return nil
}

func (t issueTx) IssueWatch(ctx context.Context, userID, issueID forge.ID) (*issues.IssueWatch, error) {
	w := &issues.IssueWatch{}
	var created, updated int64
	err := t.queryRow(ctx, `SELECT id, user_id, issue_id, is_watching, created_unix, updated_unix
		FROM user_issue_watch WHERE user_id = ? AND issue_id = ?`, userID, issueID).
		Scan(&w.ID, &w.UserID, &w.IssueID, &w.IsWatching, &created, &updated)
	if err != nil {
		return nil, mapError(err, "issue watch")
	}
	w.Created, w.Updated = fromUnix(created), fromUnix(updated)
	return w, nil
}

func (t issueTx) IssueWatchers(ctx context.Context, issueID forge.ID, o forge.ListOptions) ([]*issues.IssueWatch, int64, error) {
	const where = ` FROM user_issue_watch WHERE issue_id = ? AND is_watching`
	var total int64
	if err := t.queryRow(ctx, `SELECT count(*)`+where, issueID).Scan(&total); err != nil {
		return nil, 0, mapError(err, "count issue watchers")
	}
	out := []*issues.IssueWatch{}
	if total == 0 {
		return out, 0, nil
	}
	rows, err := t.query(ctx, `SELECT id, user_id, issue_id, is_watching, created_unix, updated_unix`+where+
		` ORDER BY id LIMIT ? OFFSET ?`, issueID, limitAll(o.Limit), o.Offset())
	if err != nil {
		return nil, 0, mapError(err, "issue watchers")
	}
	defer rows.Close()
	for rows.Next() {
		var w issues.IssueWatch
		var created, updated int64
		if err := rows.Scan(&w.ID, &w.UserID, &w.IssueID, &w.IsWatching, &created, &updated); err != nil {
			return nil, 0, mapError(err, "issue watchers")
		}
		w.Created, w.Updated = fromUnix(created), fromUnix(updated)
		out = append(out, &w)
	}
	return out, total, mapError(rows.Err(), "issue watchers")
}

func (t issueTx) PinnedIssues(ctx context.Context, repoID forge.ID, isPull bool) ([]*issues.Issue, error) {
	ids := []forge.ID{}
	rows, err := t.query(ctx, `SELECT id FROM issue WHERE repo_id = ? AND is_pull = ? AND pin_order > 0
		ORDER BY pin_order, id`, repoID, isPull)
	if err != nil {
		return nil, mapError(err, "pinned issues")
	}
	defer rows.Close()
	for rows.Next() {
		var id forge.ID
		if err := rows.Scan(&id); err != nil {
			return nil, mapError(err, "pinned issues")
		}
		ids = append(ids, id)
	}
	if err := rows.Err(); err != nil {
		return nil, mapError(err, "pinned issues")
	}
	byID, err := t.IssuesByID(ctx, ids)
	if err != nil {
		return nil, err
	}
	out := make([]*issues.Issue, 0, len(ids))
	for _, id := range ids {
		if is := byID[id]; is != nil {
			out = append(out, is)
		}
	}
	return out, nil
}

func (t issueTx) CreateCrossRef(ctx context.Context, r *issues.CrossRef) error {
	var one int
	if err := t.queryRow(ctx, `SELECT 1 FROM comment WHERE id = ?`, r.CommentID).Scan(&one); errors.Is(err, sql.ErrNoRows) {
		return forge.Errorf(forge.ErrNotFound, "create cross-reference: comment: missing referenced row")
	} else if err != nil {
		return mapError(err, "cross-reference")
	}
	_, err := t.exec(ctx, `INSERT INTO comment_ref (comment_id, ref_repo_id, ref_issue_id, ref_comment_id, ref_is_pull, ref_action)
		VALUES (?, ?, ?, ?, ?, ?)`, r.CommentID, r.RefRepoID, r.RefIssueID, r.RefCommentID, r.RefIsPull, int(r.Action))
	return mapError(err, "cross-reference")
}

const crossRefCols = `comment_id, ref_repo_id, ref_issue_id, ref_comment_id, ref_is_pull, ref_action`

func scanCrossRefs(rows *sql.Rows) ([]*issues.CrossRef, error) {
	defer rows.Close()
	var out []*issues.CrossRef
	for rows.Next() {
		var r issues.CrossRef
		var action int
		if err := rows.Scan(&r.CommentID, &r.RefRepoID, &r.RefIssueID, &r.RefCommentID, &r.RefIsPull, &action); err != nil {
			return nil, mapError(err, "cross-references")
		}
		r.Action = issues.RefAction(action)
		out = append(out, &r)
	}
	return out, mapError(rows.Err(), "cross-references")
}

func (t issueTx) CrossRefs(ctx context.Context, commentIDs []forge.ID) (map[forge.ID]*issues.CrossRef, error) {
	out := map[forge.ID]*issues.CrossRef{}
	if len(commentIDs) == 0 {
		return out, nil
	}
	rows, err := t.query(ctx, `SELECT `+crossRefCols+` FROM comment_ref
		WHERE comment_id IN (SELECT CAST(value AS BIGINT) FROM json_each(?))`, idList(commentIDs))
	if err != nil {
		return nil, mapError(err, "cross-references")
	}
	list, err := scanCrossRefs(rows)
	for _, r := range list {
		out[r.CommentID] = r
	}
	return out, err
}

func (t issueTx) CrossRefsFrom(ctx context.Context, refIssueID, refCommentID forge.ID) ([]*issues.CrossRef, error) {
	rows, err := t.query(ctx, `SELECT `+crossRefCols+` FROM comment_ref
		WHERE ref_issue_id = ? AND ref_comment_id = ? ORDER BY comment_id`, refIssueID, refCommentID)
	if err != nil {
		return nil, mapError(err, "cross-references")
	}
	list, err := scanCrossRefs(rows)
	if list == nil {
		list = []*issues.CrossRef{}
	}
	return list, err
}

func (t issueTx) SetCrossRefAction(ctx context.Context, commentID forge.ID, action issues.RefAction) error {
	res, err := t.exec(ctx, `UPDATE comment_ref SET ref_action = ? WHERE comment_id = ?`, int(action), commentID)
	return affectedOne(res, err, "cross-reference")
}
