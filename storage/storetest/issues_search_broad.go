package storetest

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/issues"
)

// testIssueBroadRepoSearch: a search over a long list of repositories (a
// user who sees most of them; a SQL store may search every repository but
// the few others instead) lists and counts exactly the issues of the
// listed repositories, with the state, kind, label, assignee and keyword
// filters; the issues of an unlisted repository are never admitted.
func testIssueBroadRepoSearch(t *testing.T, b Backend) {
	ctx := context.Background()
	s := b.Issues()
	ann := newUser(t, b, "brann")
	const nRepos = 70
	type row struct {
		repo            int
		closed, pull    bool
		labeled, mine   bool
		keyword         bool
		labelID, repoID forge.ID
		issue           *issues.Issue
		deleted         bool
	}
	var rows []*row
	repoIDs := make([]forge.ID, nRepos)
	labelIDs := make([]forge.ID, nRepos)
	for k := range nRepos {
		r := newRepo(t, b, ann, fmt.Sprintf("broad%d", k))
		repoIDs[k] = r.ID
		l := &issues.Label{RepoID: r.ID, Name: "bl", Color: "#00aabb"}
		issueUpdate(t, s, func(tx issues.Tx) error { return tx.CreateLabel(ctx, l) })
		labelIDs[k] = l.ID
		for j := range 3 {
			w := &row{repo: k, closed: (k+j)%3 == 0, pull: j == 2, labeled: j != 1, mine: (k+j)%2 == 0, keyword: j == 0 || k%5 == 0,
				labelID: l.ID, repoID: r.ID}
			title := "plain"
			if w.keyword {
				title = "broad login"
			}
			i := newIssue(t, s, r.ID, ann.ID, fmt.Sprintf("%s %d-%d", title, k, j), func(i *issues.Issue) { i.IsClosed, i.IsPull = w.closed, w.pull })
			issueUpdate(t, s, func(tx issues.Tx) error {
				if w.labeled {
					if err := tx.SetIssueLabels(ctx, i.ID, []forge.ID{l.ID}); err != nil {
						return err
					}
				}
				if w.mine {
					return tx.SetAssignees(ctx, i.ID, []forge.ID{ann.ID})
				}
				return nil
			})
			w.issue = i
			rows = append(rows, w)
		}
	}
	notPull := false
	listed := map[string][]int{
		"all":          seq(0, nRepos),
		"all but one":  seq(1, nRepos),
		"all but five": seq(5, nRepos),
		"most":         seq(0, nRepos-20),
		"a few":        seq(30, 34),
	}
	check := func(phase string) {
		t.Helper()
		for name, ks := range listed {
			in := map[forge.ID]bool{}
			var ids []forge.ID
			for _, k := range ks {
				in[repoIDs[k]] = true
				ids = append(ids, repoIDs[k])
			}
			for _, tc := range []struct {
				name string
				f    issues.IssueFilter
				keep func(*row) bool
			}{
				{"open", issues.IssueFilter{State: issues.StateOpen}, func(w *row) bool { return !w.closed }},
				{"closed issues", issues.IssueFilter{State: issues.StateClosed, IsPull: &notPull}, func(w *row) bool { return w.closed && !w.pull }},
				{"labels", issues.IssueFilter{State: issues.StateAll, LabelIDs: labelIDs}, func(w *row) bool { return w.labeled }},
				{"assigned, open", issues.IssueFilter{State: issues.StateOpen, AssigneeID: ann.ID}, func(w *row) bool { return w.mine && !w.closed }},
				{"keyword, open", issues.IssueFilter{State: issues.StateOpen, Keyword: "login"}, func(w *row) bool { return w.keyword && !w.closed }},
				{"keyword, closed pulls", issues.IssueFilter{State: issues.StateClosed, IsPull: ptrTo(true), Keyword: "login"}, func(w *row) bool { return w.keyword && w.closed && w.pull }},
				{"keyword, all", issues.IssueFilter{State: issues.StateAll, Keyword: "LOGIN"}, func(w *row) bool { return w.keyword }},
				{"keyword, assigned", issues.IssueFilter{State: issues.StateAll, Keyword: "login", AssigneeID: ann.ID}, func(w *row) bool { return w.keyword && w.mine }},
			} {
				want := 0
				for _, w := range rows {
					if !w.deleted && in[w.repoID] && tc.keep(w) {
						want++
					}
				}
				f := tc.f
				f.RepoIDs = ids
				f.Sort = issues.IssueSortOldest
				for _, o := range []forge.ListOptions{{Page: 1, Limit: 500}, {Page: 2, Limit: 7}} {
					var list []*issues.Issue
					var total int64
					issueView(t, s, func(tx issues.Tx) error {
						var err error
						list, total, err = tx.ListIssues(ctx, f, o)
						return err
					})
					assert.Equal(t, int64(want), total, "%s: %s, %s: total", phase, name, tc.name)
					if o.Limit == 500 {
						assert.Len(t, list, want, "%s: %s, %s: list", phase, name, tc.name)
					} else {
						assert.Len(t, list, max(0, min(7, want-7)), "%s: %s, %s: second page", phase, name, tc.name)
					}
					for _, i := range list {
						assert.True(t, in[i.RepoID], "%s: %s, %s: an issue of an unlisted repository", phase, name, tc.name)
					}
				}
			}
		}
	}
	check("created")

	// Issues change state, lose and gain the keyword, and go: the totals
	// follow (a store that keeps the text by state and kind moves it).
	for n, w := range rows {
		switch n % 7 {
		case 0:
			w.closed = !w.closed
			w.issue.IsClosed = w.closed
		case 3:
			w.keyword = !w.keyword
			w.issue.Title = "plain again"
			if w.keyword {
				w.issue.Title = "now about login"
			}
		case 5:
			w.closed, w.keyword = !w.closed, !w.keyword
			w.issue.IsClosed, w.issue.Title = w.closed, "Login, closed or not"
			if !w.keyword {
				w.issue.Title = "closed or not"
			}
		default:
			continue
		}
		issueUpdate(t, s, func(tx issues.Tx) error { return tx.UpdateIssue(ctx, w.issue) })
	}
	for n, w := range rows {
		if n%11 == 1 {
			w.deleted = true
			issueUpdate(t, s, func(tx issues.Tx) error { return tx.DeleteIssue(ctx, w.issue.ID) })
		}
	}
	check("changed")
}

// seq is the integers from..to-1.
func seq(from, to int) []int {
	var out []int
	for k := from; k < to; k++ {
		out = append(out, k)
	}
	return out
}

// ptrTo returns a pointer to v.
func ptrTo[T any](v T) *T { return &v }
