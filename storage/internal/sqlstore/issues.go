package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"sync"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/issues"
	"github.com/hearthforge/hearth/storage/internal/domainstore"
)

// Issues returns the store package issues consumes.
func (db *DB) Issues() issues.Store {
	return issueStore{storeOf(db, func(t *tx) issues.Tx { return issueTx{t} }), db}
}

// issueStore is issues.Store with the retrying Update below.
type issueStore struct {
	domainstore.Store[*tx, issues.Tx]
	db *DB
}

// issueTx is the transaction as issues.Tx. It is a type of its own because
// issues.Tx and repos.Tx both name methods CreateAttachment,
// AttachmentByUUID, UpdateAttachment and DeleteAttachment, over different
// attachment types (issue attachments and release attachments live in
// different tables); every other method is the shared tx's.
type issueTx struct{ *tx }

var (
	_ issues.Store = issueStore{}
	_ issues.Tx    = issueTx{}
)

// Update runs fn in a write transaction. Every issue created in a
// repository updates the repository's counters (issue_index's reservation,
// issue_count's row), so creations in one repository at once conflict: on
// PostgreSQL, whose write transactions are SERIALIZABLE, all but one of them
// fail with a serialization conflict and are run again. A burst of
// creations (two servers importing into one repository) can outlast the
// database's retry budget, so an issue transaction that still conflicts
// after it is run again, up to issueRetryRounds times in all.
//
// On such an engine a server also runs at most issueWriteSlots issue write
// transactions at once (others wait for a slot, or for ctx): conflicting
// transactions that all start together mostly conflict again, while a few
// at a time mostly commit.
func (s issueStore) Update(ctx context.Context, fn func(issues.Tx) error) error {
	if s.db.d.Retry != nil {
		slots := issueWriters(s.db)
		select {
		case slots <- struct{}{}:
			defer func() { <-slots }()
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	for round := 1; ; round++ {
		err := s.Store.Update(ctx, fn)
		if err == nil || round >= issueRetryRounds || s.db.d.Retry == nil || !s.db.d.Retry(err) || ctx.Err() != nil {
			return err
		}
	}
}

// issueRetryRounds is how many times Update runs the database's retrying
// transaction runner before it returns a serialization conflict.
const issueRetryRounds = 10

// issueWriteSlots bounds the issue write transactions of one DB at once on
// an engine that retries conflicting transactions.
const issueWriteSlots = 4

// issueWriteSlotsOf holds each DB's slots (a DB's struct is not this
// file's: a DB that was closed keeps an empty channel here).
var issueWriteSlotsOf sync.Map // *DB → chan struct{}

func issueWriters(db *DB) chan struct{} {
	if c, ok := issueWriteSlotsOf.Load(db); ok {
		return c.(chan struct{})
	}
	c, _ := issueWriteSlotsOf.LoadOrStore(db, make(chan struct{}, issueWriteSlots))
	return c.(chan struct{})
}

// issueFields are the issue columns CreateIssue writes, in the order of
// issueArgs; UpdateIssue writes them but repo_id, index and created_unix.
var issueFields = []string{"repo_id", `"index"`, "poster_id", "original_author", "original_author_id", "title",
	"body", "ref", "is_pull", "is_closed", "is_locked", "milestone_id", "num_comments", "deadline_unix",
	"pin_order", "content_version", "created_unix", "updated_unix", "closed_unix"}

var issueCols = func() string {
	cols := []string{"i.id"}
	for _, f := range issueFields {
		if f == "milestone_id" {
			f = "coalesce(i.milestone_id, 0)"
		} else {
			f = "i." + f
		}
		cols = append(cols, f)
	}
	return strings.Join(cols, ", ")
}()

// issuePlaceholders are the values of issueFields: milestone_id is NULL
// for none.
var issuePlaceholders = func() string {
	ps := make([]string, len(issueFields))
	for k, f := range issueFields {
		ps[k] = "?"
		if f == "milestone_id" {
			ps[k] = "nullif(CAST(? AS BIGINT), 0)"
		}
	}
	return strings.Join(ps, ", ")
}()

func issueArgs(i *issues.Issue) []any {
	return []any{i.RepoID, i.Index, i.PosterID, i.OriginalAuthor, i.OriginalAuthorID, i.Title,
		i.Body, i.Ref, i.IsPull, i.IsClosed, i.IsLocked, i.MilestoneID, i.NumComments, toUnix(i.Deadline),
		i.PinOrder, i.ContentVersion, toUnix(i.Created), toUnix(i.Updated), toUnix(i.Closed)}
}

func issueDest() (*issues.Issue, []any, func()) {
	i := &issues.Issue{}
	var deadline, created, updated, closed int64
	return i, []any{&i.ID, &i.RepoID, &i.Index, &i.PosterID, &i.OriginalAuthor, &i.OriginalAuthorID, &i.Title,
			&i.Body, &i.Ref, &i.IsPull, &i.IsClosed, &i.IsLocked, &i.MilestoneID, &i.NumComments, &deadline,
			&i.PinOrder, &i.ContentVersion, &created, &updated, &closed},
		func() {
			i.Deadline, i.Created, i.Updated, i.Closed = fromUnix(deadline), fromUnix(created), fromUnix(updated), fromUnix(closed)
		}
}

var (
	// The reservation is the larger of the last one and the largest index
	// in use, plus one: issues inserted with an index of their own (a
	// migration) are never handed out again either. excluded.max_index is
	// the largest index in use plus one (CASE: SQLite's two-argument max is
	// GREATEST in PostgreSQL).
	sqlNextIssueIndex = prepared(`INSERT INTO issue_index (repo_id, max_index)
		VALUES (?1, coalesce((SELECT max("index") FROM issue WHERE repo_id = ?1), 0) + 1)
		ON CONFLICT (repo_id) DO UPDATE SET max_index = CASE
			WHEN issue_index.max_index >= excluded.max_index THEN issue_index.max_index + 1
			ELSE excluded.max_index END
		RETURNING max_index`)
	// The next reservation from issue_index's row alone, and an index of
	// the caller's own moving it (issueIndexByRow).
	sqlBumpIssueIndex = prepared(`UPDATE issue_index SET max_index = max_index + 1 WHERE repo_id = ? RETURNING max_index`)
	sqlPassIssueIndex = prepared(`UPDATE issue_index SET max_index = ?2 WHERE repo_id = ?1 AND max_index < ?2`)
	sqlCreateIssue    = prepared("INSERT INTO issue (" + strings.Join(issueFields, ", ") + ") VALUES (" +
		issuePlaceholders + ") RETURNING id")
	sqlIssueByIndex = prepared("SELECT " + issueCols + ` FROM issue i WHERE i.repo_id = ? AND i."index" = ?`)
	sqlIssueByID    = prepared("SELECT " + issueCols + " FROM issue i WHERE i.id = ?")
	sqlIssuesByID   = prepared("SELECT " + issueCols + " FROM issue i WHERE i.id IN (SELECT CAST(value AS BIGINT) FROM json_each(?))")
	sqlUpdateIssue  = prepared(`UPDATE issue SET poster_id = ?, original_author = ?, original_author_id = ?, title = ?,
		body = ?, ref = ?, is_pull = ?, is_closed = ?, is_locked = ?, milestone_id = nullif(CAST(? AS BIGINT), 0), num_comments = ?,
		deadline_unix = ?, pin_order = ?, content_version = ?, updated_unix = ?, closed_unix = ? WHERE id = ?`)
	sqlDeleteIssue = prepared(`DELETE FROM issue WHERE id = ?`)
	sqlIssueExists = prepared(`SELECT count(*) FROM issue WHERE id = ?`)
	// The counters of one repository (the hot path of a repository view:
	// both kinds at once, see IssueCounts) or of a JSON list of them: the
	// non-zero issue_count rows, found by key and summed in Go, with no
	// GROUP BY to plan and run.
	sqlIssueCountsOne = prepared(`SELECT is_pull, is_closed, n FROM issue_count WHERE repo_id = ? AND n > 0`)
	sqlIssueCounts    = prepared(`SELECT repo_id, is_closed, n FROM issue_count
		WHERE repo_id IN (SELECT CAST(value AS BIGINT) FROM json_each(?)) AND is_pull = ? AND n > 0`)

	sqlClearAssignees = prepared(`DELETE FROM issue_assignees WHERE issue_id = ?`)
	sqlAddAssignee    = prepared(`INSERT INTO issue_assignees (issue_id, assignee_id, position) VALUES (?,?,?)
		ON CONFLICT DO NOTHING`)
	sqlAssignees = prepared(`SELECT issue_id, assignee_id FROM issue_assignees
		WHERE issue_id IN (SELECT CAST(value AS BIGINT) FROM json_each(?)) ORDER BY issue_id, position`)
)

func (t issueTx) NextIssueIndex(ctx context.Context, repoID forge.ID) (int64, error) {
	var n int64
	if t.db.d.issueIndexByRow() {
		err := t.queryRow(ctx, sqlBumpIssueIndex, repoID).Scan(&n)
		if !errors.Is(err, sql.ErrNoRows) {
			return n, mapError(err, "issue index")
		}
		// The repository's first reservation.
	}
	err := t.queryRow(ctx, sqlNextIssueIndex, repoID).Scan(&n)
	return n, mapError(err, "issue index")
}

func (t issueTx) CreateIssue(ctx context.Context, i *issues.Issue) error {
	if err := t.queryRow(ctx, sqlCreateIssue, issueArgs(i)...).Scan(&i.ID); err != nil {
		return mapError(err, "issue")
	}
	if t.db.d.issueIndexByRow() {
		_, err := t.exec(ctx, sqlPassIssueIndex, i.RepoID, i.Index)
		return mapError(err, "issue index")
	}
	return nil
}

func (t issueTx) scanIssue(ctx context.Context, query string, args ...any) (*issues.Issue, error) {
	i, dest, done := issueDest()
	if err := t.queryRow(ctx, query, args...).Scan(dest...); err != nil {
		return nil, mapError(err, "issue")
	}
	done()
	return i, nil
}

func (t issueTx) IssueByIndex(ctx context.Context, repoID forge.ID, index int64) (*issues.Issue, error) {
	return t.scanIssue(ctx, sqlIssueByIndex, repoID, index)
}

func (t issueTx) IssueByID(ctx context.Context, id forge.ID) (*issues.Issue, error) {
	return t.scanIssue(ctx, sqlIssueByID, id)
}

func (t issueTx) IssuesByID(ctx context.Context, ids []forge.ID) (map[forge.ID]*issues.Issue, error) {
	out := make(map[forge.ID]*issues.Issue, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	list, err := t.scanIssues(ctx, sqlIssuesByID, idList(ids))
	for _, i := range list {
		out[i.ID] = i
	}
	return out, err
}

// scanIssues runs an issue query.
func (t issueTx) scanIssues(ctx context.Context, query string, args ...any) ([]*issues.Issue, error) {
	return queryAll(ctx, t, fromDest(issueDest), "issues", query, args...)
}

func (t issueTx) UpdateIssue(ctx context.Context, i *issues.Issue) error {
	res, err := t.exec(ctx, sqlUpdateIssue, i.PosterID, i.OriginalAuthor, i.OriginalAuthorID, i.Title,
		i.Body, i.Ref, i.IsPull, i.IsClosed, i.IsLocked, i.MilestoneID, i.NumComments,
		toUnix(i.Deadline), i.PinOrder, i.ContentVersion, toUnix(i.Updated), toUnix(i.Closed), i.ID)
	return affectedOne(res, err, "issue")
}

func (t issueTx) DeleteIssue(ctx context.Context, id forge.ID) error {
	res, err := t.exec(ctx, sqlDeleteIssue, id)
	return affectedOne(res, err, "issue")
}

// issueExists returns forge.ErrNotFound if there is no issue id.
func (t issueTx) issueExists(ctx context.Context, id forge.ID) error {
	var n int
	if err := t.queryRow(ctx, sqlIssueExists, id).Scan(&n); err != nil {
		return mapError(err, "issue")
	}
	if n == 0 {
		return forge.Errorf(forge.ErrNotFound, "issue: not found")
	}
	return nil
}

// IssueCounts reads the counters of one repository with one statement
// for both kinds: a View (one snapshot) keeps them, so that the issue and
// pull-request counts of a repository view cost one statement, not two,
// and so does the database until its next write (viewcache.go). Several
// repositories are one statement per kind.
func (t issueTx) IssueCounts(ctx context.Context, repoIDs []forge.ID, pulls bool) (map[forge.ID]issues.IssueCount, error) {
	out := map[forge.ID]issues.IssueCount{}
	if len(repoIDs) == 0 {
		return out, nil
	}
	if len(repoIDs) == 1 {
		id := repoIDs[0]
		both, ok := t.repoCounts[id]
		if !ok {
			both, ok = t.db.counts.get(t.tx, id)
		}
		if !ok {
			var err error
			if both, err = t.repoIssueCounts(ctx, id); err != nil {
				return nil, err
			}
			t.db.counts.put(t.tx, id, both)
			if t.readOnly {
				if t.repoCounts == nil {
					t.repoCounts = map[forge.ID][2]issues.IssueCount{}
				}
				t.repoCounts[id] = both
			}
		}
		kind := 0
		if pulls {
			kind = 1
		}
		if c := both[kind]; c != (issues.IssueCount{}) {
			out[id] = c
		}
		return out, nil
	}
	rows, err := t.query(ctx, sqlIssueCounts, idList(repoIDs), pulls)
	if err != nil {
		return nil, mapError(err, "issue counts")
	}
	defer rows.Close()
	for rows.Next() {
		var id forge.ID
		var closed bool
		var n int64
		if err := rows.Scan(&id, &closed, &n); err != nil {
			return nil, mapError(err, "issue counts")
		}
		// Rows with n > 0 only: a repository without issues of the kind
		// is absent.
		c := out[id]
		if closed {
			c.Closed += n
		} else {
			c.Open += n
		}
		out[id] = c
	}
	return out, mapError(rows.Err(), "issue counts")
}

// repoIssueCounts returns the issue ([0]) and pull-request ([1]) counters
// of one repository.
func (t issueTx) repoIssueCounts(ctx context.Context, repoID forge.ID) ([2]issues.IssueCount, error) {
	var both [2]issues.IssueCount
	rows, err := t.query(ctx, sqlIssueCountsOne, repoID)
	if err != nil {
		return both, mapError(err, "issue counts")
	}
	defer rows.Close()
	for rows.Next() {
		var pull, closed bool
		var n int64
		if err := rows.Scan(&pull, &closed, &n); err != nil {
			return both, mapError(err, "issue counts")
		}
		c := &both[0]
		if pull {
			c = &both[1]
		}
		if closed {
			c.Closed += n
		} else {
			c.Open += n
		}
	}
	return both, mapError(rows.Err(), "issue counts")
}

func (t issueTx) SetAssignees(ctx context.Context, issueID forge.ID, userIDs []forge.ID) error {
	if err := t.issueExists(ctx, issueID); err != nil {
		return err
	}
	if _, err := t.exec(ctx, sqlClearAssignees, issueID); err != nil {
		return mapError(err, "assignees")
	}
	for pos, uid := range userIDs {
		if _, err := t.exec(ctx, sqlAddAssignee, issueID, uid, pos); err != nil {
			return mapError(err, "assignee")
		}
	}
	return nil
}

func (t issueTx) Assignees(ctx context.Context, issueIDs []forge.ID) (map[forge.ID][]forge.ID, error) {
	out := map[forge.ID][]forge.ID{}
	if len(issueIDs) == 0 {
		return out, nil
	}
	rows, err := t.query(ctx, sqlAssignees, idList(issueIDs))
	if err != nil {
		return nil, mapError(err, "assignees")
	}
	defer rows.Close()
	for rows.Next() {
		var issue, user forge.ID
		if err := rows.Scan(&issue, &user); err != nil {
			return nil, mapError(err, "assignees")
		}
		out[issue] = append(out[issue], user)
	}
	return out, mapError(rows.Err(), "assignees")
}
