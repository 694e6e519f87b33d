package sqlstore

import (
	"context"
	"math"
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

// searchFilter is an issue filter as ListIssues runs it: f, whose
// repositories may be given as their complement.
type searchFilter struct {
	issues.IssueFilter
	// except, when set, stands for RepoIDs: every repository but
	// exceptRepos. A search by a user who sees most repositories lists
	// the few others rather than every one; with none, the search needs no
	// repository condition at all.
	except      bool
	exceptRepos []forge.ID
}

// repoCond is the condition that column col (a repository id) is one of
// the repositories f searches, and its arguments; ok is false when f
// names none.
func repoCond(col string, f searchFilter) (cond string, args []any, ok bool) {
	const public = "SELECT id FROM repository WHERE is_private = FALSE"
	switch {
	case f.except && len(f.exceptRepos) == 0:
		return "TRUE", nil, true
	case f.except:
		return col + " NOT IN (SELECT CAST(value AS BIGINT) FROM json_each(?))", []any{idList(f.exceptRepos)}, true
	case len(f.RepoIDs) > 0 && f.PublicRepos:
		return col + " IN (SELECT CAST(value AS BIGINT) FROM json_each(?) UNION " + public + ")", []any{idList(f.RepoIDs)}, true
	case len(f.RepoIDs) > 0:
		return col + " IN (SELECT CAST(value AS BIGINT) FROM json_each(?))", []any{idList(f.RepoIDs)}, true
	case f.PublicRepos:
		return col + " IN (" + public + ")", nil, true
	}
	return "", nil, false // no repository: nothing, never everything
}

// broadRepoSet is the number of repositories above which searching them
// one by one is not worth it.
const broadRepoSet = 50

// issueWhere is the condition of f on issue i, and its arguments. ok is
// false when f matches nothing, so that no query runs at all. perRow
// writes the label, assignee and mention filters as a lookup per issue
// (for a page that walks an order's index and stops early) rather than as
// the set of every matching issue (for a count, or a page that sorts all
// matches): building that set is most of the cost of a broad filter.
// This is SQLite's spelling; Dialect.issueWhere is the engine's.
func issueWhere(f issues.IssueFilter, perRow bool) (where string, args []any, ok bool) {
	return Dialect{}.issueWhere(searchFilter{IssueFilter: f}, perRow)
}

// issueWhere is the condition of f on issue i as the engine spells it
// (see the package function issueWhere).
func (d Dialect) issueWhere(f searchFilter, perRow bool) (where string, args []any, ok bool) {
	// A broad set of repositories selects little: a unary + keeps SQLite
	// from walking the issues repository by repository, so that it uses
	// the index of a narrower filter (updated_unix, a label, a poster).
	col := "i.repo_id"
	if f.PublicRepos || f.except || len(f.RepoIDs) > broadRepoSet {
		col = "+i.repo_id"
	}
	cond, args, ok := repoCond(col, f)
	if !ok {
		return "", nil, false
	}
	conds := []string{cond}
	if len(f.RepoIDs) == 1 && !f.PublicRepos && !f.except {
		// One repository: an equality, so that issue_repo_state yields one
		// state's issues in order and the page stops at its end.
		conds, args = []string{"i.repo_id = ?"}, []any{f.RepoIDs[0]}
	}
	add := func(cond string, a ...any) { conds, args = append(conds, cond), append(args, a...) }
	switch f.State {
	case issues.StateOpen:
		add("i.is_closed = FALSE")
	case issues.StateClosed:
		add("i.is_closed = TRUE")
	}
	if f.IsPull != nil {
		add("i.is_pull = ?", *f.IsPull)
	}
	sets := f.LabelSets
	if f.LabelIDs != nil {
		sets = append([][]forge.ID{f.LabelIDs}, sets...)
	}
	for _, set := range sets {
		if len(set) == 0 {
			return "", nil, false
		}
		if perRow {
			// The issue's few labels, each looked up in the list (a unary +
			// keeps SQLite from seeking every listed label per issue).
			add(`EXISTS (SELECT 1 FROM issue_label il WHERE il.issue_id = i.id
				AND +il.label_id IN (SELECT CAST(value AS BIGINT) FROM json_each(?)))`, idList(set))
		} else {
			// IN, not a correlated EXISTS: the id list is read once, not per issue.
			add(`i.id IN (SELECT il.issue_id FROM issue_label il
				WHERE il.label_id IN (SELECT CAST(value AS BIGINT) FROM json_each(?)))`, idList(set))
		}
	}
	if f.LabelNames != nil {
		if len(f.LabelNames) == 0 {
			return "", nil, false
		}
		add(`i.id IN (SELECT il.issue_id FROM issue_label il JOIN label l ON l.id = il.label_id
			WHERE l.name IN (SELECT value FROM json_each(?)))`, stringList(f.LabelNames))
	}
	if f.MilestoneNames != nil {
		if len(f.MilestoneNames) == 0 {
			return "", nil, false
		}
		add("i.milestone_id IN (SELECT id FROM milestone WHERE title IN (SELECT value FROM json_each(?)))",
			stringList(f.MilestoneNames))
	}
	if f.MilestoneIDs != nil {
		if len(f.MilestoneIDs) == 0 {
			return "", nil, false
		}
		add("coalesce(i.milestone_id, 0) IN (SELECT CAST(value AS BIGINT) FROM json_each(?))", idList(f.MilestoneIDs))
	}
	if f.PosterID != 0 {
		add("i.poster_id = ?", f.PosterID)
	}
	switch {
	case f.AssigneeID != 0 && perRow:
		add("EXISTS (SELECT 1 FROM issue_assignees a WHERE a.issue_id = i.id AND a.assignee_id = ?)", f.AssigneeID)
	case f.AssigneeID != 0:
		add("i.id IN (SELECT a.issue_id FROM issue_assignees a WHERE a.assignee_id = ?)", f.AssigneeID)
	}
	switch {
	case f.MentionedID != 0 && perRow:
		add("EXISTS (SELECT 1 FROM mention m WHERE m.user_id = ? AND m.issue_id = i.id)", f.MentionedID)
	case f.MentionedID != 0:
		add("i.id IN (SELECT m.issue_id FROM mention m WHERE m.user_id = ?)", f.MentionedID)
	}
	if f.Keyword != "" {
		cond, a := d.issueKeyword(f.Keyword, perRow)
		add(cond, a...)
	}
	if !f.UpdatedSince.IsZero() {
		add("i.updated_unix >= ?", f.UpdatedSince.Unix())
	}
	if !f.UpdatedBefore.IsZero() {
		add("i.updated_unix <= ?", f.UpdatedBefore.Unix())
	}
	return strings.Join(conds, " AND "), args, true
}

// issueCount is the query of the number of issues matching f, and of the
// largest issue id (the size of the table, near enough), with its
// arguments. A filter by repository, state and kind only is a sum over
// issue_count; any other is a count of the matching issues.
func (d Dialect) issueCount(f searchFilter, where string, args []any, labelsDisjoint bool) (string, []any) {
	const size = ", (SELECT coalesce(max(id), 0) FROM issue)"
	others := f.MilestoneIDs != nil || f.LabelSets != nil || f.LabelNames != nil || f.MilestoneNames != nil || f.PosterID != 0 || f.AssigneeID != 0 || f.MentionedID != 0 || f.Keyword != "" ||
		!f.UpdatedSince.IsZero() || !f.UpdatedBefore.IsZero()
	if f.LabelIDs != nil && !others && labelsDisjoint {
		return d.labelCount(f, size)
	}
	if f.AssigneeID != 0 && f.LabelIDs == nil && f.LabelSets == nil && f.LabelNames == nil && f.MilestoneNames == nil && f.PosterID == 0 &&
		f.MentionedID == 0 && f.Keyword == "" && f.UpdatedSince.IsZero() && f.UpdatedBefore.IsZero() {
		return d.assigneeCount(f, size)
	}
	if f.Keyword != "" && f.LabelIDs == nil && f.LabelSets == nil && f.LabelNames == nil && f.MilestoneNames == nil &&
		f.MilestoneIDs == nil && f.PosterID == 0 && f.AssigneeID == 0 && f.MentionedID == 0 {
		// The keyword is the filter that selects: count from its matches
		// rather than build the set of matches to look up every issue in it.
		if q, a, ok := d.keywordCount(f, size); ok {
			return q, a
		}
	}
	if f.LabelIDs != nil || others {
		return "SELECT count(*)" + size + " FROM issue i WHERE " + where, args
	}
	cond, args, _ := repoCond("c.repo_id", f)
	conds, args := countStateKind(f.IssueFilter, []string{cond}, args)
	return "SELECT CAST(coalesce(sum(c.n), 0) AS BIGINT)" + size + " FROM issue_count c WHERE " + strings.Join(conds, " AND "), args
}

// labelCount is the query of the number of issues of f's labels, f
// filtering by repository, state and kind otherwise: a sum over
// issue_label_count (00034: the issues per label, repository, state and
// kind, kept by triggers), a few rows per repository. It counts an issue
// once per label, so it is exact only when no issue can carry two of the
// labels: labelsDisjoint.
func (d Dialect) labelCount(f searchFilter, size string) (string, []any) {
	// A unary + on repo_id: the repositories are checked in the rows of
	// each label, not sought label by label.
	cond, args, _ := repoCond("+c.repo_id", f)
	args = append([]any{idList(f.LabelIDs)}, args...)
	conds := []string{"c.label_id IN (SELECT CAST(value AS BIGINT) FROM json_each(?))", cond}
	conds, args = countStateKind(f.IssueFilter, conds, args)
	return "SELECT CAST(coalesce(sum(c.n), 0) AS BIGINT)" + size + " FROM issue_label_count c WHERE " + strings.Join(conds, " AND "), args
}

// assigneeCount is the query of the number of issues assigned to f's
// assignee, f filtering by repository, state, kind and milestone
// otherwise: a sum over issue_assignee_count (00034: the issues per
// assignee, repository, state, kind and milestone, kept by triggers). An
// issue has its assignee once, so the sum counts issues.
func (d Dialect) assigneeCount(f searchFilter, size string) (string, []any) {
	cond, args, _ := repoCond("+c.repo_id", f)
	args = append([]any{f.AssigneeID}, args...)
	conds := []string{"c.assignee_id = ?", cond}
	conds, args = countStateKind(f.IssueFilter, conds, args)
	if f.MilestoneIDs != nil {
		conds, args = append(conds, "+c.milestone_id IN (SELECT CAST(value AS BIGINT) FROM json_each(?))"), append(args, idList(f.MilestoneIDs))
	}
	return "SELECT CAST(coalesce(sum(c.n), 0) AS BIGINT)" + size + " FROM issue_assignee_count c WHERE " + strings.Join(conds, " AND "), args
}

// sqlLabelsDisjoint tells whether the labels of a list belong each to a
// different repository and none to an organisation: an issue carries
// labels of its repository and of its owner only, so no issue then carries
// two of them.
var sqlLabelsDisjoint = prepared(`SELECT count(*) = count(DISTINCT repo_id) AND count(org_id) = 0
	FROM label WHERE id IN (SELECT CAST(value AS BIGINT) FROM json_each(?))`)

// orderIndexes are the indexes that hold the issues in an order's leading
// column.
var orderIndexes = map[issues.IssueSort]string{
	"":                           "issue_created",
	issues.IssueSortLatest:       "issue_created",
	issues.IssueSortOldest:       "issue_created",
	issues.IssueSortRecentUpdate: "issue_updated",
	issues.IssueSortLeastUpdate:  "issue_updated",
}

// scanBudget bounds the issues a page may walk in its order's index before
// the plan of sorting the matches is preferred: walking the index in order
// costs about (offset+limit) × size / matches rows, and stops at the page;
// sorting costs the matches, all of them.
const scanBudget = 20_000

func (t issueTx) ListIssues(ctx context.Context, filter issues.IssueFilter, o forge.ListOptions) ([]*issues.Issue, int64, error) {
	d := t.db.d
	f, err := t.searchFilter(ctx, filter)
	if err != nil {
		return nil, 0, err
	}
	where, args, ok := d.issueWhere(f, false)
	if !ok {
		return []*issues.Issue{}, 0, nil
	}
	var total, size int64
	disjoint := false
	if f.LabelIDs != nil {
		if err := t.queryRow(ctx, sqlLabelsDisjoint, idList(f.LabelIDs)).Scan(&disjoint); err != nil {
			return nil, 0, mapError(err, "labels")
		}
	}
	countQ, countArgs := d.issueCount(f, where, args, disjoint)
	key := totalKey(countQ, countArgs)
	if c, ok := t.db.searchTotals.get(t.tx, key); ok {
		total, size = c[0], c[1]
	} else {
		if err := t.queryRow(ctx, countQ, countArgs...).Scan(&total, &size); err != nil {
			return nil, 0, mapError(err, "count issues")
		}
		t.db.searchTotals.put(t.tx, key, [2]int64{total, size})
	}
	if total == 0 {
		return []*issues.Issue{}, 0, nil
	}
	order, ok := issueOrders[f.Sort]
	if !ok {
		order = issueOrders[issues.IssueSortLatest]
	}
	from := " FROM issue i "
	// Many matches over many repositories: walk the order's index and stop
	// at the page, rather than gather every match to sort it. (One
	// repository's issues of one state are in order in issue_repo_state.)
	pageEnd := int64(o.Offset()) + int64(max(o.Limit, 0))
	oneRepo := len(f.RepoIDs) == 1 && !f.PublicRepos && !f.except && f.State != "" && f.State != issues.StateAll
	if index, ok := orderIndexes[f.Sort]; ok && !oneRepo && o.Limit >= 0 && pageEnd*size <= scanBudget*total {
		from = " FROM issue i" + d.indexedBy(index)
		// The walk meets about pageEnd × size / total issues: look each
		// one up rather than gather every match first.
		where, args, _ = d.issueWhere(f, true)
	}
	if f.Sort == issues.IssueSortNearDueDate || f.Sort == issues.IssueSortFarDueDate {
		from += "LEFT JOIN milestone m ON m.id = i.milestone_id "
	}
	// No LIMIT -1 for "all": PostgreSQL refuses a negative LIMIT, and the
	// largest BIGINT means no limit on both engines.
	limit := int64(o.Limit)
	if limit < 0 {
		limit = math.MaxInt64
	}
	list, err := t.scanIssues(ctx, "SELECT "+issueCols+from+"WHERE "+where+" ORDER BY "+order+" LIMIT ? OFFSET ?",
		append(args, limit, o.Offset())...)
	return list, total, err
}

// sqlAllRepoIDs is the id of every repository.
var sqlAllRepoIDs = prepared(`SELECT id FROM repository`)

// searchFilter is f as ListIssues runs it: a list of more than
// broadRepoSet repositories that is longer than its complement among the
// stored repositories is replaced by the complement (the repositories
// are read in the same transaction as the issues, so the two conditions
// admit the same issues: an issue's repository always exists).
func (t issueTx) searchFilter(ctx context.Context, f issues.IssueFilter) (searchFilter, error) {
	sf := searchFilter{IssueFilter: f}
	if f.PublicRepos || len(f.RepoIDs) <= broadRepoSet {
		return sf, nil
	}
	all, ok := t.db.allRepos.get(t.tx, struct{}{})
	if !ok {
		var err error
		if all, err = t.ids(ctx, sqlAllRepoIDs); err != nil {
			return sf, err
		}
		t.db.allRepos.put(t.tx, struct{}{}, all)
	}
	if len(all) >= 2*len(f.RepoIDs) {
		return sf, nil // the complement is the longer
	}
	listed := make(map[forge.ID]struct{}, len(f.RepoIDs))
	for _, id := range f.RepoIDs {
		listed[id] = struct{}{}
	}
	except := []forge.ID{}
	for _, id := range all {
		if _, ok := listed[id]; !ok {
			except = append(except, id)
		}
	}
	if len(except) < len(f.RepoIDs) {
		sf.except, sf.exceptRepos = true, except
	}
	return sf, nil
}

// countStateKind appends to conds and args the state and kind conditions of
// f on a count table aliased c (issue_count, issue_label_count,
// issue_assignee_count: each keeps is_closed and is_pull per row).
func countStateKind(f issues.IssueFilter, conds []string, args []any) ([]string, []any) {
	switch f.State {
	case issues.StateOpen:
		conds = append(conds, "c.is_closed = FALSE")
	case issues.StateClosed:
		conds = append(conds, "c.is_closed = TRUE")
	}
	if f.IsPull != nil {
		conds, args = append(conds, "c.is_pull = ?"), append(args, *f.IsPull)
	}
	return conds, args
}
