package httpapi_test

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/issues"
)

// countingIssueStore counts the transactions of an issues.Store and the
// queries (Tx method calls) made in them.
type countingIssueStore struct {
	issues.Store
	txs, queries atomic.Int64
}

func (s *countingIssueStore) View(ctx context.Context, fn func(issues.Tx) error) error {
	s.txs.Add(1)
	return s.Store.View(ctx, func(tx issues.Tx) error { return fn(countingIssueTx{tx, &s.queries}) })
}

func (s *countingIssueStore) Update(ctx context.Context, fn func(issues.Tx) error) error {
	s.txs.Add(1)
	return s.Store.Update(ctx, func(tx issues.Tx) error { return fn(countingIssueTx{tx, &s.queries}) })
}

func (s *countingIssueStore) reset() { s.txs.Store(0); s.queries.Store(0) }

func (s *countingIssueStore) cost() cost { return cost{s.txs.Load(), s.queries.Load()} }

// countingIssueTx counts every issues.Tx method call as one query. It
// embeds the Tx so that it compiles when the interface grows; a method
// added later is not counted until it gets a wrapper here.
type countingIssueTx struct {
	issues.Tx
	n *atomic.Int64
}

// TestIssueListCostIsFixed counts the issue store transactions and queries
// of each list operation (the search included) for a page of one item and a page of thirty, the
// items carrying what their JSON shows (labels, a milestone, assignees,
// comments, attachments): the cost must not grow with the page (no query
// per issue or comment).
func TestIssueListCostIsFixed(t *testing.T) {
	t.Parallel()
	cs := &countingIssueStore{}
	e := newIssueEnv(t, func(c *issues.Config) { cs.Store = c.Store; c.Store = cs })
	bug := e.newLabel("bug", false)
	ms := e.send(e.alice, "POST", e.proj+"/milestones", map[string]any{"title": "v1"}, 201).json(t)
	add := func(i int) {
		n := e.newIssue(e.bob, fmt.Sprintf("issue %02d", i))
		e.send(e.alice, "PATCH", e.issuePath(n, ""), map[string]any{"milestone": ms["id"], "assignees": []string{"bob", "alice"}}, 201)
		e.send(e.alice, "POST", e.issuePath(n, "/labels"), map[string]any{"labels": []int64{bug}}, 200)
		c := e.send(e.bob, "POST", e.issuePath(n, "/comments"), map[string]any{"body": "c"}, 201).json(t)
		e.expect(e.upload(e.bob, e.issuePath(n, "/assets"), "f.txt", "f", nil), 201, "")
		e.expect(e.upload(e.bob, fmt.Sprintf("%s/issues/comments/%v/assets", e.proj, c["id"]), "g.txt", "g", nil), 201, "")
		e.newLabel(fmt.Sprintf("l%02d", i), false)
		if i > 0 { // issue 1 gathers a comment per issue
			e.send(e.alice, "POST", e.issuePath(1, "/comments"), map[string]any{"body": "more"}, 201)
		}
	}
	lists := []string{
		e.proj + "/issues?state=all&limit=50",
		e.proj + "/issues?labels=bug&milestones=v1&limit=50",
		e.proj + "/issues/comments?limit=50",
		e.issuePath(1, "/comments"),
		e.proj + "/labels",
		e.proj + "/milestones",
		e.issuePath(1, "/assets"),
		"/api/v1/repos/issues/search?limit=50",
	}
	measure := func() map[string]cost {
		out := map[string]cost{}
		for _, l := range lists {
			cs.reset()
			e.send(e.alice, "GET", l, nil, 200)
			out[l] = cs.cost()
		}
		return out
	}
	add(0)
	small := measure()
	for i := 1; i < 30; i++ {
		add(i)
	}
	large := measure()
	for _, l := range lists {
		t.Logf("%s: 1 item: %d transactions, %d queries; 30 items: %d, %d", l, small[l].txs, small[l].queries, large[l].txs, large[l].queries)
		if small[l] != large[l] {
			t.Errorf("GET %s: a page of 1 costs %+v, a page of 30 costs %+v: want the same", l, small[l], large[l])
		}
	}
	r := e.send(e.alice, "GET", e.proj+"/issues?state=all&limit=50", nil, 200)
	if got := len(r.list(t)); got != 30 || !strings.Contains(string(r.body), `"f.txt"`) {
		t.Fatalf("the page holds %d issues (want 30, with their attachments)", got)
	}
}

func (x countingIssueTx) UserByName(ctx context.Context, name string) (*forge.User, error) {
	x.n.Add(1)
	return x.Tx.UserByName(ctx, name)
}

func (x countingIssueTx) UserByID(ctx context.Context, id forge.ID) (*forge.User, error) {
	x.n.Add(1)
	return x.Tx.UserByID(ctx, id)
}

func (x countingIssueTx) UsersByID(ctx context.Context, ids []forge.ID) (map[forge.ID]*forge.User, error) {
	x.n.Add(1)
	return x.Tx.UsersByID(ctx, ids)
}

func (x countingIssueTx) NextIssueIndex(ctx context.Context, repoID forge.ID) (int64, error) {
	x.n.Add(1)
	return x.Tx.NextIssueIndex(ctx, repoID)
}

func (x countingIssueTx) CreateIssue(ctx context.Context, i *issues.Issue) error {
	x.n.Add(1)
	return x.Tx.CreateIssue(ctx, i)
}

func (x countingIssueTx) IssueByIndex(ctx context.Context, repoID forge.ID, index int64) (*issues.Issue, error) {
	x.n.Add(1)
	return x.Tx.IssueByIndex(ctx, repoID, index)
}

func (x countingIssueTx) IssueByID(ctx context.Context, id forge.ID) (*issues.Issue, error) {
	x.n.Add(1)
	return x.Tx.IssueByID(ctx, id)
}

func (x countingIssueTx) IssuesByID(ctx context.Context, ids []forge.ID) (map[forge.ID]*issues.Issue, error) {
	x.n.Add(1)
	return x.Tx.IssuesByID(ctx, ids)
}

func (x countingIssueTx) UpdateIssue(ctx context.Context, i *issues.Issue) error {
	x.n.Add(1)
	return x.Tx.UpdateIssue(ctx, i)
}

func (x countingIssueTx) DeleteIssue(ctx context.Context, id forge.ID) error {
	x.n.Add(1)
	return x.Tx.DeleteIssue(ctx, id)
}

func (x countingIssueTx) ListIssues(ctx context.Context, f issues.IssueFilter, o forge.ListOptions) ([]*issues.Issue, int64, error) {
	x.n.Add(1)
	return x.Tx.ListIssues(ctx, f, o)
}

func (x countingIssueTx) IssueCounts(ctx context.Context, repoIDs []forge.ID, pulls bool) (map[forge.ID]issues.IssueCount, error) {
	x.n.Add(1)
	return x.Tx.IssueCounts(ctx, repoIDs, pulls)
}

func (x countingIssueTx) SetAssignees(ctx context.Context, issueID forge.ID, userIDs []forge.ID) error {
	x.n.Add(1)
	return x.Tx.SetAssignees(ctx, issueID, userIDs)
}

func (x countingIssueTx) Assignees(ctx context.Context, issueIDs []forge.ID) (map[forge.ID][]forge.ID, error) {
	x.n.Add(1)
	return x.Tx.Assignees(ctx, issueIDs)
}

func (x countingIssueTx) CreateComment(ctx context.Context, c *issues.Comment) error {
	x.n.Add(1)
	return x.Tx.CreateComment(ctx, c)
}

func (x countingIssueTx) CommentByID(ctx context.Context, id forge.ID) (*issues.Comment, error) {
	x.n.Add(1)
	return x.Tx.CommentByID(ctx, id)
}

func (x countingIssueTx) UpdateComment(ctx context.Context, c *issues.Comment) error {
	x.n.Add(1)
	return x.Tx.UpdateComment(ctx, c)
}

func (x countingIssueTx) DeleteComment(ctx context.Context, id forge.ID) error {
	x.n.Add(1)
	return x.Tx.DeleteComment(ctx, id)
}

func (x countingIssueTx) ListComments(ctx context.Context, f issues.CommentFilter, o forge.ListOptions) ([]*issues.Comment, int64, error) {
	x.n.Add(1)
	return x.Tx.ListComments(ctx, f, o)
}

func (x countingIssueTx) CreateLabel(ctx context.Context, l *issues.Label) error {
	x.n.Add(1)
	return x.Tx.CreateLabel(ctx, l)
}

func (x countingIssueTx) LabelByID(ctx context.Context, id forge.ID) (*issues.Label, error) {
	x.n.Add(1)
	return x.Tx.LabelByID(ctx, id)
}

func (x countingIssueTx) UpdateLabel(ctx context.Context, l *issues.Label) error {
	x.n.Add(1)
	return x.Tx.UpdateLabel(ctx, l)
}

func (x countingIssueTx) DeleteLabel(ctx context.Context, id forge.ID) error {
	x.n.Add(1)
	return x.Tx.DeleteLabel(ctx, id)
}

func (x countingIssueTx) ListLabels(ctx context.Context, f issues.LabelFilter, o forge.ListOptions) ([]*issues.Label, int64, error) {
	x.n.Add(1)
	return x.Tx.ListLabels(ctx, f, o)
}

func (x countingIssueTx) SetIssueLabels(ctx context.Context, issueID forge.ID, labelIDs []forge.ID) error {
	x.n.Add(1)
	return x.Tx.SetIssueLabels(ctx, issueID, labelIDs)
}

func (x countingIssueTx) IssueLabels(ctx context.Context, issueIDs []forge.ID) (map[forge.ID][]*issues.Label, error) {
	x.n.Add(1)
	return x.Tx.IssueLabels(ctx, issueIDs)
}

func (x countingIssueTx) CreateMilestone(ctx context.Context, m *issues.Milestone) error {
	x.n.Add(1)
	return x.Tx.CreateMilestone(ctx, m)
}

func (x countingIssueTx) MilestoneByID(ctx context.Context, repoID forge.ID, id forge.ID) (*issues.Milestone, error) {
	x.n.Add(1)
	return x.Tx.MilestoneByID(ctx, repoID, id)
}

func (x countingIssueTx) MilestonesByID(ctx context.Context, ids []forge.ID) (map[forge.ID]*issues.Milestone, error) {
	x.n.Add(1)
	return x.Tx.MilestonesByID(ctx, ids)
}

func (x countingIssueTx) UpdateMilestone(ctx context.Context, m *issues.Milestone) error {
	x.n.Add(1)
	return x.Tx.UpdateMilestone(ctx, m)
}

func (x countingIssueTx) DeleteMilestone(ctx context.Context, id forge.ID) error {
	x.n.Add(1)
	return x.Tx.DeleteMilestone(ctx, id)
}

func (x countingIssueTx) ListMilestones(ctx context.Context, f issues.MilestoneFilter, o forge.ListOptions) ([]*issues.Milestone, int64, error) {
	x.n.Add(1)
	return x.Tx.ListMilestones(ctx, f, o)
}

func (x countingIssueTx) CreateAttachment(ctx context.Context, a *issues.Attachment) error {
	x.n.Add(1)
	return x.Tx.CreateAttachment(ctx, a)
}

func (x countingIssueTx) AttachmentByID(ctx context.Context, id forge.ID) (*issues.Attachment, error) {
	x.n.Add(1)
	return x.Tx.AttachmentByID(ctx, id)
}

func (x countingIssueTx) AttachmentByUUID(ctx context.Context, uuid string) (*issues.Attachment, error) {
	x.n.Add(1)
	return x.Tx.AttachmentByUUID(ctx, uuid)
}

func (x countingIssueTx) UpdateAttachment(ctx context.Context, a *issues.Attachment) error {
	x.n.Add(1)
	return x.Tx.UpdateAttachment(ctx, a)
}

func (x countingIssueTx) DeleteAttachment(ctx context.Context, id forge.ID) error {
	x.n.Add(1)
	return x.Tx.DeleteAttachment(ctx, id)
}

func (x countingIssueTx) Attachments(ctx context.Context, f issues.AttachmentFilter) ([]*issues.Attachment, error) {
	x.n.Add(1)
	return x.Tx.Attachments(ctx, f)
}

// TestIssueListFilterNamesCostIsFixed: the names of the labels and
// milestones filters are resolved in a fixed number of queries, however
// many the query string holds (a query per milestone name was the cost).
func TestIssueListFilterNamesCostIsFixed(t *testing.T) {
	t.Parallel()
	cs := &countingIssueStore{}
	e := newIssueEnv(t, func(c *issues.Config) { cs.Store = c.Store; c.Store = cs })
	e.newLabel("bug", false)
	e.send(e.alice, "POST", e.proj+"/milestones", map[string]any{"title": "v1"}, 201)
	many := func(first string) string {
		names := []string{first}
		for i := 0; i < 300; i++ {
			names = append(names, fmt.Sprintf("n%d", i), fmt.Sprint(1000+i))
		}
		return strings.Join(names, ",")
	}
	measure := func(q string) cost {
		cs.reset()
		e.send(e.alice, "GET", e.proj+"/issues?"+q, nil, 200)
		return cs.cost()
	}
	one, lots := measure("labels=bug&milestones=v1"), measure("labels="+many("bug")+"&milestones="+many("v1"))
	t.Logf("one name each: %+v; 601 names each: %+v", one, lots)
	if one != lots {
		t.Errorf("one name of each costs %+v, 601 names cost %+v: want the same", one, lots)
	}
}
