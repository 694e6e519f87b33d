package issues_test

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/issues"
)

// repoSearch is the wiring's RepoSearch for the tests: every repository
// of the store the actor may see, by the repository service.
type repoSearch struct{ e *env }

func (r repoSearch) SearchRepos(ctx context.Context, actor forge.Actor, owner, team string) ([]issues.RepoPermission, error) {
	if team != "" {
		return nil, forge.Errorf(forge.ErrInvalid, "team does not exist")
	}
	var out []issues.RepoPermission
	for _, full := range r.e.allRepos {
		o, n := full[0], full[1]
		if owner != "" && owner != o {
			continue
		}
		repo, perm, err := r.e.repos.RepoAccess(ctx, actor, o, n)
		if errors.Is(err, forge.ErrNotFound) {
			continue
		} else if err != nil {
			return nil, err
		}
		out = append(out, issues.RepoPermission{Repo: repo, Permission: perm})
	}
	return out, nil
}

// countingStore counts the transactions' reads of issues.
type countingStore struct {
	issues.Store
	lists, reads *atomic.Int64
}

func (c countingStore) View(ctx context.Context, fn func(issues.Tx) error) error {
	return c.Store.View(ctx, func(tx issues.Tx) error { return fn(countingTx{tx, c.lists, c.reads}) })
}

type countingTx struct {
	issues.Tx
	lists, reads *atomic.Int64
}

func (t countingTx) ListIssues(ctx context.Context, f issues.IssueFilter, o forge.ListOptions) ([]*issues.Issue, int64, error) {
	t.lists.Add(1)
	t.reads.Add(1)
	return t.Tx.ListIssues(ctx, f, o)
}

func (t countingTx) Assignees(ctx context.Context, ids []forge.ID) (map[forge.ID][]forge.ID, error) {
	t.reads.Add(1)
	return t.Tx.Assignees(ctx, ids)
}

func (t countingTx) IssueLabels(ctx context.Context, ids []forge.ID) (map[forge.ID][]*issues.Label, error) {
	t.reads.Add(1)
	return t.Tx.IssueLabels(ctx, ids)
}

func (t countingTx) MilestonesByID(ctx context.Context, ids []forge.ID) (map[forge.ID]*issues.Milestone, error) {
	t.reads.Add(1)
	return t.Tx.MilestonesByID(ctx, ids)
}

func (t countingTx) Attachments(ctx context.Context, f issues.AttachmentFilter) ([]*issues.Attachment, error) {
	t.reads.Add(1)
	return t.Tx.Attachments(ctx, f)
}

func (t countingTx) UsersByID(ctx context.Context, ids []forge.ID) (map[forge.ID]*forge.User, error) {
	t.reads.Add(1)
	return t.Tx.UsersByID(ctx, ids)
}

func (t countingTx) IssueByIndex(ctx context.Context, repoID forge.ID, index int64) (*issues.Issue, error) {
	t.reads.Add(1)
	return t.Tx.IssueByIndex(ctx, repoID, index)
}

// searchEnv: alice owns public alice/a and private alice/p; bob owns
// public bob/b; carol collaborates on alice/p. Each repository has issues.
func searchEnv(t *testing.T) (*env, *issues.Service, *atomic.Int64, *atomic.Int64) {
	e := newEnv(t)
	alice, bob, carol := e.user("alice"), e.user("bob"), e.user("carol")
	e.user("dan")
	e.repo(alice, "a", false)
	e.repo(alice, "p", true)
	e.repo(bob, "b", false)
	e.collab(alice, "p", carol, forge.AccessModeWrite)
	e.allRepos = [][2]string{{"alice", "a"}, {"alice", "p"}, {"bob", "b"}}
	for i := range 3 {
		e.issue(alice, "alice", "a", fmt.Sprint("a", i))
		e.issue(alice, "alice", "p", fmt.Sprint("secret", i))
		e.issue(bob, "bob", "b", fmt.Sprint("b", i))
	}
	lists, reads := &atomic.Int64{}, &atomic.Int64{}
	svc, err := issues.New(issues.Config{Store: countingStore{e.store.Issues(), lists, reads}, Repos: e.repos, Clock: e.clock,
		Search: repoSearch{e}})
	require.NoError(t, err)
	return e, svc, lists, reads
}

func titles(vs []*issues.IssueView) map[string]bool {
	m := map[string]bool{}
	for _, v := range vs {
		m[v.Issue.Title] = true
	}
	return m
}

func TestSearchPermissionPerRepository(t *testing.T) {
	t.Parallel()
	e, svc, lists, _ := searchEnv(t)
	carol := forgetestActor(e, "carol")
	vs, n, err := svc.Search(e.ctx, carol, issues.SearchOption{})
	require.NoError(t, err)
	require.EqualValues(t, 9, n)
	require.True(t, titles(vs)["secret1"])
	dan := forgetestActor(e, "dan")
	vs, n, err = svc.Search(e.ctx, dan, issues.SearchOption{})
	require.NoError(t, err)
	require.EqualValues(t, 6, n)
	require.False(t, titles(vs)["secret1"], "a private repository's issues leaked")
	// owner filter
	vs, n, err = svc.Search(e.ctx, dan, issues.SearchOption{Owner: "alice"})
	require.NoError(t, err)
	require.EqualValues(t, 3, n)
	require.True(t, titles(vs)["a0"])

	// nothing visible: an empty result, and no issue query at all
	before := lists.Load()
	vs, n, err = svc.Search(e.ctx, dan, issues.SearchOption{Owner: "nobody"})
	require.NoError(t, err)
	require.Zero(t, n)
	require.NotNil(t, vs)
	require.Empty(t, vs)
	require.Equal(t, before, lists.Load(), "an empty repository set must not scan issues")

	_, _, err = svc.Search(e.ctx, dan, issues.SearchOption{Team: "t"})
	require.True(t, errors.Is(err, issues.ErrBadRequest), "%v", err)
	require.Equal(t, "Owner organisation is required for filtering on team", err.Error())
	_, _, err = svc.Search(e.ctx, forgetestToken(e, "dan", "read:repository"), issues.SearchOption{})
	require.True(t, errors.Is(err, forge.ErrForbidden), "%v", err)
}

func TestSearchFilters(t *testing.T) {
	t.Parallel()
	e, svc, _, _ := searchEnv(t)
	alice := forgetestActor(e, "alice")
	bob := forgetestActor(e, "bob")
	closed := issues.StateClosed
	_, err := e.svc.Edit(e.ctx, alice, "alice", "a", 1, issues.EditIssueOption{State: &closed})
	require.NoError(t, err)
	la := e.label(alice, "alice", "a", "bug", false)
	lb := e.label(bob, "bob", "b", "bug", false)
	_, err = e.svc.AddLabels(e.ctx, alice, "alice", "a", 2, issues.LabelsOption{IDs: []forge.ID{la.ID}})
	require.NoError(t, err)
	_, err = e.svc.AddLabels(e.ctx, bob, "bob", "b", 3, issues.LabelsOption{IDs: []forge.ID{lb.ID}})
	require.NoError(t, err)

	// bob sees alice/a and bob/b, not alice/p
	for name, tc := range map[string]struct {
		opt  issues.SearchOption
		want int64
	}{
		"open by default":               {issues.SearchOption{}, 5},
		"closed":                        {issues.SearchOption{State: issues.StateClosed}, 1},
		"all":                           {issues.SearchOption{State: issues.StateAll}, 6},
		"unknown state is open":         {issues.SearchOption{State: "weird"}, 5},
		"labels by name across repos":   {issues.SearchOption{Labels: []string{"bug", "nope"}}, 2},
		"created by me":                 {issues.SearchOption{Created: true}, 3},
		"keyword":                       {issues.SearchOption{Keyword: "B1"}, 1},
		"keyword with NUL is ignored":   {issues.SearchOption{Keyword: "x\x00"}, 5},
		"pulls only: none yet":          {issues.SearchOption{Type: issues.TypePulls}, 0},
		"assigned to me: none assigned": {issues.SearchOption{Assigned: true}, 0},
	} {
		_, n, err := svc.Search(e.ctx, bob, tc.opt)
		require.NoError(t, err, name)
		require.Equal(t, tc.want, n, name)
	}
	// default page of 20, at most 50
	for i := range 30 {
		e.issue(bob, "bob", "b", fmt.Sprint("more", i))
	}
	vs, n, err := svc.Search(e.ctx, bob, issues.SearchOption{})
	require.NoError(t, err)
	require.EqualValues(t, 35, n)
	require.Len(t, vs, 20)
	vs, _, err = svc.Search(e.ctx, bob, issues.SearchOption{ListOptions: forge.ListOptions{Page: 2, Limit: 100}})
	require.NoError(t, err)
	require.Empty(t, vs) // 35 fit on the first page of 50
}

// A page of issues costs the same number of store reads whatever its
// length: no query per issue.
func TestListFixedReadsPerPage(t *testing.T) {
	t.Parallel()
	e, svc, _, reads := searchEnv(t)
	alice := forgetestActor(e, "alice")
	m, err := e.svc.CreateMilestone(e.ctx, alice, "alice", "a", issues.CreateMilestoneOption{Title: "m"})
	require.NoError(t, err)
	l := e.label(alice, "alice", "a", "bug", false)
	for i := range 60 {
		_, err := e.svc.Create(e.ctx, alice, "alice", "a", issues.CreateIssueOption{Title: fmt.Sprint("x", i), Milestone: m.ID,
			Labels: []forge.ID{l.ID}, Assignees: []string{"alice"}})
		require.NoError(t, err)
	}
	count := func(limit int) int64 {
		before := reads.Load()
		vs, _, err := svc.List(e.ctx, alice, "alice", "a", issues.ListIssuesOption{ListOptions: forge.ListOptions{Page: 1, Limit: limit}})
		require.NoError(t, err)
		require.Len(t, vs, limit)
		require.Len(t, vs[0].Labels, 1)
		require.NotNil(t, vs[0].Milestone)
		require.Len(t, vs[0].Assignees, 1)
		return reads.Load() - before
	}
	require.Equal(t, count(2), count(50))
	require.LessOrEqual(t, count(50), int64(6))
}
