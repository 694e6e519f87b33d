package sqlstore

import (
	"context"
	"strings"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/issues"
)

// Reviews and review requests (issues.PullTx, migration 00023). A review
// goes with its issue; its code comments are the comments whose review_id
// is its id.

// reviewFields are the review columns CreateReview writes, in the order of
// reviewArgs.
var reviewFields = []string{"issue_id", "type", "reviewer_id", "reviewer_team_id", "original_author",
	"original_author_id", "content", "official", "commit_id", "stale", "dismissed", "created_unix", "updated_unix"}

var reviewCols = func() string {
	cols := []string{"r.id"}
	for _, f := range reviewFields {
		cols = append(cols, "r."+f)
	}
	return strings.Join(cols, ", ")
}()

func reviewArgs(r *issues.Review) []any {
	return []any{r.IssueID, int(r.Type), r.ReviewerID, r.ReviewerTeamID, r.OriginalAuthor, r.OriginalAuthorID,
		r.Content, r.Official, r.CommitID, r.Stale, r.Dismissed, toUnix(r.Created), toUnix(r.Updated)}
}

func reviewDest() (*issues.Review, []any, func()) {
	r := &issues.Review{}
	var created, updated int64
	return r, []any{&r.ID, &r.IssueID, &r.Type, &r.ReviewerID, &r.ReviewerTeamID, &r.OriginalAuthor,
			&r.OriginalAuthorID, &r.Content, &r.Official, &r.CommitID, &r.Stale, &r.Dismissed, &created, &updated},
		func() { r.Created, r.Updated = fromUnix(created), fromUnix(updated) }
}

var (
	sqlCreateReview = prepared("INSERT INTO review (" + strings.Join(reviewFields, ", ") + ") VALUES (" +
		strings.Repeat("?,", len(reviewFields)-1) + "?) RETURNING id")
	sqlReviewByID   = prepared("SELECT " + reviewCols + " FROM review r WHERE r.id = ?")
	sqlUpdateReview = prepared(`UPDATE review SET type = ?, reviewer_id = ?, reviewer_team_id = ?, original_author = ?,
		original_author_id = ?, content = ?, official = ?, commit_id = ?, stale = ?, dismissed = ?, updated_unix = ?
		WHERE id = ?`)
	sqlDeleteReviewComments = prepared(`DELETE FROM comment WHERE review_id = ? AND review_id <> 0`)
	sqlDeleteReview         = prepared(`DELETE FROM review WHERE id = ?`)
	sqlReviewComments       = prepared("SELECT " + commentCols + " FROM comment c " +
		"WHERE c.review_id IN (SELECT CAST(value AS BIGINT) FROM json_each(?)) AND c.review_id <> 0 ORDER BY c.created_unix, c.id")
)

func (t issueTx) CreateReview(ctx context.Context, r *issues.Review) error {
	return t.guarded(ctx, func() error {
		return mapError(t.queryRow(ctx, sqlCreateReview, reviewArgs(r)...).Scan(&r.ID), "review")
	})
}

func (t issueTx) ReviewByID(ctx context.Context, id forge.ID) (*issues.Review, error) {
	r, dest, done := reviewDest()
	if err := t.queryRow(ctx, sqlReviewByID, id).Scan(dest...); err != nil {
		return nil, mapError(err, "review")
	}
	done()
	return r, nil
}

func (t issueTx) UpdateReview(ctx context.Context, r *issues.Review) error {
	res, err := t.exec(ctx, sqlUpdateReview, int(r.Type), r.ReviewerID, r.ReviewerTeamID, r.OriginalAuthor,
		r.OriginalAuthorID, r.Content, r.Official, r.CommitID, r.Stale, r.Dismissed, toUnix(r.Updated), r.ID)
	return affectedOne(res, err, "update review")
}

// DeleteReview deletes the review's comments (their attachments go with
// them by the foreign key cascade) and then the review.
func (t issueTx) DeleteReview(ctx context.Context, id forge.ID) error {
	if id == 0 {
		return forge.Errorf(forge.ErrNotFound, "delete review: not found")
	}
	if _, err := t.exec(ctx, sqlDeleteReviewComments, id); err != nil {
		return mapError(err, "delete review comments")
	}
	res, err := t.exec(ctx, sqlDeleteReview, id)
	return affectedOne(res, err, "delete review")
}

// ListReviews is two statements whatever the page, the count and the page,
// both on the review_issue index (its entries are in id order); one for
// every review (a negative limit from the start: the number is the
// length).
func (t issueTx) ListReviews(ctx context.Context, f issues.ReviewFilter, o forge.ListOptions) ([]*issues.Review, int64, error) {
	where, args := reviewsWhere(f)
	whole := o.Limit < 0 && o.Offset() == 0
	var total int64
	if !whole {
		if err := t.queryRow(ctx, "SELECT count(*)"+where, args...).Scan(&total); err != nil {
			return nil, 0, mapError(err, "count reviews")
		}
		if total == 0 {
			return []*issues.Review{}, 0, nil
		}
	}
	list := []*issues.Review{}
	rows, err := t.query(ctx, "SELECT "+reviewCols+where+" ORDER BY r.id LIMIT ? OFFSET ?",
		append(args, limitAll(o.Limit), o.Offset())...)
	if err != nil {
		return nil, 0, mapError(err, "reviews")
	}
	defer rows.Close()
	for rows.Next() {
		r, dest, done := reviewDest()
		if err := rows.Scan(dest...); err != nil {
			return nil, 0, mapError(err, "reviews")
		}
		done()
		list = append(list, r)
	}
	if whole {
		total = int64(len(list))
	}
	return list, total, mapError(rows.Err(), "reviews")
}

func (t issueTx) ReviewComments(ctx context.Context, reviewIDs []forge.ID) (map[forge.ID][]*issues.Comment, error) {
	out := map[forge.ID][]*issues.Comment{}
	if len(reviewIDs) == 0 {
		return out, nil
	}
	rows, err := t.query(ctx, sqlReviewComments, idList(reviewIDs))
	if err != nil {
		return nil, mapError(err, "review comments")
	}
	defer rows.Close()
	for rows.Next() {
		c, dest, done := commentDest()
		if err := rows.Scan(dest...); err != nil {
			return nil, mapError(err, "review comments")
		}
		done()
		out[c.ReviewID] = append(out[c.ReviewID], c)
	}
	return out, mapError(rows.Err(), "review comments")
}

// reviewsWhere is the FROM and WHERE of ListReviews' statements.
func reviewsWhere(f issues.ReviewFilter) (string, []any) {
	conds := []string{"r.issue_id = ?"}
	args := []any{f.IssueID}
	add := func(cond string, a ...any) { conds, args = append(conds, cond), append(args, a...) }
	if f.Types != nil {
		types := make([]forge.ID, len(f.Types))
		for k, typ := range f.Types {
			types[k] = forge.ID(typ)
		}
		add("r.type IN (SELECT CAST(value AS BIGINT) FROM json_each(?))", idList(types))
	}
	if f.ReviewerID != 0 {
		add("r.reviewer_id = ?", f.ReviewerID)
	}
	if f.ReviewerTeamID != 0 {
		add("r.reviewer_team_id = ?", f.ReviewerTeamID)
	}
	if f.Dismissed != nil {
		add("r.dismissed = ?", *f.Dismissed)
	}
	return " FROM review r WHERE " + strings.Join(conds, " AND "), args
}
