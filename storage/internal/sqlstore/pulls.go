package sqlstore

import (
	"cmp"
	"context"
	"encoding/json"
	"slices"
	"strings"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/issues"
)

// Pull requests (issues.PullTx, migration 00023). A pull request's row
// goes with its issue (foreign key cascade); head_repo_id is NULL once the
// head fork is deleted, read as 0.

var _ issues.PullTx = issueTx{}

// pullFields are the pull_request columns CreatePull writes, in the order
// of pullArgs; head_repo_id is written as nullif(?, 0).
var pullFields = []string{"issue_id", `"index"`, "base_repo_id", "head_repo_id", "base_branch", "head_branch",
	"head_commit_id", "merge_base", "status", "conflicted_files", "changed_protected_files", "commits_ahead",
	"commits_behind", "additions", "deletions", "changed_files", "allow_maintainer_edit", "has_merged",
	"merged_unix", "merged_commit_id", "merger_id", "flow"}

var pullCols = func() string {
	cols := []string{"p.id"}
	for _, f := range pullFields {
		if f == "head_repo_id" {
			f = "coalesce(p.head_repo_id, 0)"
		} else {
			f = "p." + f
		}
		cols = append(cols, f)
	}
	return strings.Join(cols, ", ")
}()

var pullPlaceholders = func() string {
	ph := make([]string, len(pullFields))
	for k, f := range pullFields {
		ph[k] = "?"
		if f == "head_repo_id" {
			ph[k] = "nullif(?, 0)"
		}
	}
	return strings.Join(ph, ", ")
}()

// pathList is a list of paths as stored: NULL for nil, else a JSON array
// (an empty non-nil list stays one).
func pathList(paths []string) any {
	if paths == nil {
		return nil
	}
	return stringList(paths)
}

// pathListDest reads a pathList column into *paths.
type pathListDest struct{ paths *[]string }

func (d pathListDest) Scan(src any) error {
	var b []byte
	switch v := src.(type) {
	case nil:
		*d.paths = nil
		return nil
	case string:
		b = []byte(v)
	case []byte:
		b = v
	}
	list := []string{}
	if err := json.Unmarshal(b, &list); err != nil {
		return err
	}
	*d.paths = list
	return nil
}

func pullArgs(p *issues.PullRequest) []any {
	return []any{p.IssueID, p.Index, p.BaseRepoID, p.HeadRepoID, p.BaseBranch, p.HeadBranch, p.HeadCommitID,
		p.MergeBase, int(p.Status), pathList(p.ConflictedFiles), pathList(p.ChangedProtectedFiles),
		p.CommitsAhead, p.CommitsBehind, p.Additions, p.Deletions, p.ChangedFiles, p.AllowMaintainerEdit,
		p.HasMerged, toUnix(p.Merged), p.MergedCommitID, p.MergerID, p.Flow}
}

func pullDest() (*issues.PullRequest, []any, func()) {
	p := &issues.PullRequest{}
	var merged int64
	return p, []any{&p.ID, &p.IssueID, &p.Index, &p.BaseRepoID, &p.HeadRepoID, &p.BaseBranch, &p.HeadBranch,
			&p.HeadCommitID, &p.MergeBase, &p.Status, pathListDest{&p.ConflictedFiles},
			pathListDest{&p.ChangedProtectedFiles}, &p.CommitsAhead, &p.CommitsBehind, &p.Additions, &p.Deletions,
			&p.ChangedFiles, &p.AllowMaintainerEdit, &p.HasMerged, &merged, &p.MergedCommitID, &p.MergerID, &p.Flow},
		func() { p.Merged = fromUnix(merged) }
}

var (
	sqlCreatePull = prepared("INSERT INTO pull_request (" + strings.Join(pullFields, ", ") + ") VALUES (" +
		pullPlaceholders + ") RETURNING id")
	sqlPullByIssueID   = prepared("SELECT " + pullCols + " FROM pull_request p WHERE p.issue_id = ?")
	sqlPullsByIssueIDs = prepared("SELECT " + pullCols + " FROM pull_request p " +
		"WHERE p.issue_id IN (SELECT CAST(value AS BIGINT) FROM json_each(?))")
	sqlUpdatePull = prepared(`UPDATE pull_request SET head_repo_id = nullif(?, 0), base_branch = ?, head_branch = ?,
		head_commit_id = ?, merge_base = ?, status = ?, conflicted_files = ?, changed_protected_files = ?,
		commits_ahead = ?, commits_behind = ?, additions = ?, deletions = ?, changed_files = ?,
		allow_maintainer_edit = ?, has_merged = ?, merged_unix = ?, merged_commit_id = ?, merger_id = ?, flow = ?
		WHERE id = ?`)
)

func (t issueTx) CreatePull(ctx context.Context, p *issues.PullRequest) error {
	return t.guarded(ctx, func() error {
		return mapError(t.queryRow(ctx, sqlCreatePull, pullArgs(p)...).Scan(&p.ID), "pull request")
	})
}

func (t issueTx) PullByIssueID(ctx context.Context, issueID forge.ID) (*issues.PullRequest, error) {
	p, dest, done := pullDest()
	if err := t.queryRow(ctx, sqlPullByIssueID, issueID).Scan(dest...); err != nil {
		return nil, mapError(err, "pull request")
	}
	done()
	return p, nil
}

func (t issueTx) PullsByIssueID(ctx context.Context, issueIDs []forge.ID) (map[forge.ID]*issues.PullRequest, error) {
	out := make(map[forge.ID]*issues.PullRequest, len(issueIDs))
	if len(issueIDs) == 0 {
		return out, nil
	}
	list, err := t.pulls(ctx, sqlPullsByIssueIDs, idList(issueIDs))
	for _, p := range list {
		out[p.IssueID] = p
	}
	return out, err
}

func (t issueTx) UpdatePull(ctx context.Context, p *issues.PullRequest) error {
	return t.guarded(ctx, func() error { return t.updatePull(ctx, p) })
}

func (t issueTx) updatePull(ctx context.Context, p *issues.PullRequest) error {
	res, err := t.exec(ctx, sqlUpdatePull, p.HeadRepoID, p.BaseBranch, p.HeadBranch, p.HeadCommitID, p.MergeBase,
		int(p.Status), pathList(p.ConflictedFiles), pathList(p.ChangedProtectedFiles), p.CommitsAhead,
		p.CommitsBehind, p.Additions, p.Deletions, p.ChangedFiles, p.AllowMaintainerEdit, p.HasMerged,
		toUnix(p.Merged), p.MergedCommitID, p.MergerID, p.Flow, p.ID)
	return affectedOne(res, err, "update pull request")
}

// FindPulls is one statement: the filters of the base, the head and the
// merge commit each have an index (migration 00023).
func (t issueTx) FindPulls(ctx context.Context, f issues.PullFilter) ([]*issues.PullRequest, error) {
	if pullFilterEmpty(f) {
		return []*issues.PullRequest{}, nil
	}
	query, args := findPullsQuery(f)
	return t.pulls(ctx, query, args...)
}

// pullFilterEmpty reports whether f matches nothing by rule (no
// repository, issues or Checking; an empty IssueIDs).
func pullFilterEmpty(f issues.PullFilter) bool {
	return f.BaseRepoID == 0 && f.HeadRepoID == 0 && f.IssueIDs == nil && !f.Checking ||
		f.IssueIDs != nil && len(f.IssueIDs) == 0
}

// findPullsQuery is FindPulls' statement for a filter that may match.
func findPullsQuery(f issues.PullFilter) (string, []any) {
	from, where, args := pullFilterSQL(f)
	return "SELECT " + pullCols + from + " WHERE " + where + " ORDER BY p.id", args
}

// pullFilterSQL is the FROM and WHERE of f over pull_request p (the issue
// joined as i when f.Open).
func pullFilterSQL(f issues.PullFilter) (from, where string, args []any) {
	var conds []string
	add := func(cond string, a ...any) { conds, args = append(conds, cond), append(args, a...) }
	from = " FROM pull_request p"
	if f.BaseRepoID != 0 {
		add("p.base_repo_id = ?", f.BaseRepoID)
	}
	if f.BaseBranch != "" {
		add("p.base_branch = ?", f.BaseBranch)
	}
	if f.HeadRepoID != 0 {
		add("p.head_repo_id = ?", f.HeadRepoID)
	}
	if f.HeadBranch != "" {
		add("p.head_branch = ?", f.HeadBranch)
	}
	if f.MergedCommitID != "" {
		add("p.merged_commit_id = ? AND p.merged_commit_id <> ''", f.MergedCommitID) // the partial index's term
	}
	if f.IssueIDs != nil {
		add("p.issue_id IN (SELECT CAST(value AS BIGINT) FROM json_each(?))", idList(f.IssueIDs))
	}
	if f.Checking {
		add("p.status = ?", int(issues.PullChecking))
	}
	if f.Open {
		from += " JOIN issue i ON i.id = p.issue_id"
		add("NOT p.has_merged AND NOT i.is_closed")
	}
	return from, strings.Join(conds, " AND "), args
}

// MarkPullsChecking is one UPDATE of the matching rows (the filter's
// statement as a subquery), whatever their number.
func (t issueTx) MarkPullsChecking(ctx context.Context, f issues.PullFilter) ([]forge.ID, error) {
	out := []forge.ID{}
	f.Open = true
	if pullFilterEmpty(f) {
		return out, nil
	}
	from, where, args := pullFilterSQL(f)
	query := "UPDATE pull_request SET status = ? WHERE id IN (SELECT p.id" + from + " WHERE " + where + ") RETURNING id, issue_id"
	rows, err := t.query(ctx, query, append([]any{int(issues.PullChecking)}, args...)...)
	if err != nil {
		return nil, mapError(err, "mark pull requests checking")
	}
	defer rows.Close()
	type row struct{ id, issue forge.ID }
	var list []row
	for rows.Next() {
		var r row
		if err := rows.Scan(&r.id, &r.issue); err != nil {
			return nil, mapError(err, "mark pull requests checking")
		}
		list = append(list, r)
	}
	if err := rows.Err(); err != nil {
		return nil, mapError(err, "mark pull requests checking")
	}
	slices.SortFunc(list, func(a, b row) int { return cmp.Compare(a.id, b.id) })
	for _, r := range list {
		out = append(out, r.issue)
	}
	return out, nil
}

// pulls runs a query of pullCols. Never nil.
func (t issueTx) pulls(ctx context.Context, query string, args ...any) ([]*issues.PullRequest, error) {
	return queryAll(ctx, t, fromDest(pullDest), "pull requests", query, args...)
}

var (
	sqlCreateAutoMerge = prepared(`INSERT INTO pull_auto_merge (pull_id, doer_id, merge_style, message,
		delete_branch_after_merge, created_unix) VALUES (?, ?, ?, ?, ?, ?) RETURNING id`)
	sqlAutoMergeByPull = prepared(`SELECT id, pull_id, doer_id, merge_style, message, delete_branch_after_merge,
		created_unix FROM pull_auto_merge WHERE pull_id = ?`)
	sqlDeleteAutoMerge = prepared(`DELETE FROM pull_auto_merge WHERE pull_id = ?`)
)

func (t issueTx) CreateAutoMerge(ctx context.Context, m *issues.AutoMerge) error {
	err := t.guarded(ctx, func() error {
		return t.queryRow(ctx, sqlCreateAutoMerge, m.PullID, m.DoerID, string(m.Style), m.Message,
			m.DeleteBranchAfterMerge, toUnix(m.Created)).Scan(&m.ID)
	})
	return mapError(err, "auto merge")
}

func (t issueTx) AutoMergeByPull(ctx context.Context, pullID forge.ID) (*issues.AutoMerge, error) {
	m := &issues.AutoMerge{}
	var created int64
	err := t.queryRow(ctx, sqlAutoMergeByPull, pullID).Scan(&m.ID, &m.PullID, &m.DoerID, &m.Style, &m.Message,
		&m.DeleteBranchAfterMerge, &created)
	if err != nil {
		return nil, mapError(err, "auto merge")
	}
	m.Created = fromUnix(created)
	return m, nil
}

func (t issueTx) DeleteAutoMerge(ctx context.Context, pullID forge.ID) error {
	res, err := t.exec(ctx, sqlDeleteAutoMerge, pullID)
	return affectedOne(res, err, "auto merge")
}
