package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/issues"
)

func milestoneTitles(list []*issues.Milestone) []string {
	return pluck(list, func(m *issues.Milestone) string { return m.Title })
}

func testMilestones(t *testing.T, b Backend) {
	ctx := context.Background()
	s := b.Issues()
	ann, r, other := newUserRepos(t, b, "mann", "planned", "unplanned")
	d := func(days int) time.Time { return issueAt.Add(time.Duration(days) * 24 * time.Hour) }

	in := &issues.Milestone{RepoID: r.ID, Title: "v1", Description: "first", IsClosed: true, NumIssues: 4,
		NumClosedIssues: 1, Deadline: d(10), Created: issueAt, Updated: d(1), Closed: d(2)}
	mk := func(m *issues.Milestone) *issues.Milestone {
		issueUpdate(t, s, func(tx issues.Tx) error { return tx.CreateMilestone(ctx, m) })
		require.NotZero(t, m.ID)
		return m
	}
	mk(in)
	none := mk(&issues.Milestone{RepoID: r.ID, Title: "someday", Deadline: issues.NoDeadline, Created: issueAt, Updated: issueAt})
	soon := mk(&issues.Milestone{RepoID: r.ID, Title: "v0.9", Deadline: d(5), Created: issueAt, Updated: issueAt})
	same := mk(&issues.Milestone{RepoID: r.ID, Title: "v1", Deadline: d(10), Created: issueAt, Updated: issueAt})
	theirs := mk(&issues.Milestone{RepoID: other.ID, Title: "v1", Deadline: d(1), Created: issueAt, Updated: issueAt})

	want := *in
	issueView(t, s, func(tx issues.Tx) error {
		got, err := tx.MilestoneByID(ctx, r.ID, in.ID)
		wantRoundTrip(t, "milestone", &want, got, err)
		got, err = tx.MilestoneByID(ctx, r.ID, none.ID)
		require.NoError(t, err)
		assert.Equal(t, issues.NoDeadline, got.Deadline, "the year-9999 stand-in round trips")
		assert.False(t, got.HasDeadline())
		_, err = tx.MilestoneByID(ctx, r.ID, theirs.ID)
		assert.ErrorIs(t, err, forge.ErrNotFound, "another repository's milestone")
		_, err = tx.MilestoneByID(ctx, r.ID, 9999)
		assert.ErrorIs(t, err, forge.ErrNotFound)
		m, err := tx.MilestonesByID(ctx, []forge.ID{in.ID, theirs.ID, 9999})
		require.NoError(t, err)
		assert.Equal(t, map[forge.ID]*issues.Milestone{in.ID: &want, theirs.ID: theirs}, m)
		m, err = tx.MilestonesByID(ctx, nil)
		require.NoError(t, err)
		assert.NotNil(t, m)
		return nil
	})
	err := s.Update(ctx, func(tx issues.Tx) error {
		return tx.CreateMilestone(ctx, &issues.Milestone{RepoID: 9999, Title: "x", Created: issueAt, Updated: issueAt})
	})
	assert.ErrorIs(t, err, forge.ErrNotFound, "an unknown repository")

	// UpdateMilestone writes every field but RepoID and Created.
	changed := issues.Milestone{ID: in.ID, RepoID: other.ID, Title: "v1.0", Description: "reopened", NumIssues: 6,
		NumClosedIssues: 2, Deadline: d(12), Created: d(-5), Updated: d(3)}
	issueUpdate(t, s, func(tx issues.Tx) error { m := changed; return tx.UpdateMilestone(ctx, &m) })
	want = changed
	want.RepoID, want.Created = r.ID, issueAt
	issueView(t, s, func(tx issues.Tx) error {
		got, err := tx.MilestoneByID(ctx, r.ID, in.ID)
		require.NoError(t, err)
		assert.Empty(t, cmp.Diff(&want, got), "UpdateMilestone keeps RepoID and Created")
		return nil
	})
	err = s.Update(ctx, func(tx issues.Tx) error { m := changed; m.ID = 9999; return tx.UpdateMilestone(ctx, &m) })
	assert.ErrorIs(t, err, forge.ErrNotFound)
	issueUpdate(t, s, func(tx issues.Tx) error {
		m := *soon
		m.IsClosed, m.Closed = true, d(4)
		return tx.UpdateMilestone(ctx, &m)
	})

	all := forge.ListOptions{Page: 1, Limit: 50}
	checkFilters(t, s, map[string]filterCase[issues.MilestoneFilter, string]{
		"a repository's, by due date": {issues.MilestoneFilter{RepoID: r.ID}, []string{"v0.9", "v1", "v1.0", "someday"}},
		"open":                        {issues.MilestoneFilter{RepoID: r.ID, State: issues.StateOpen}, []string{"v1", "v1.0", "someday"}},
		"closed":                      {issues.MilestoneFilter{RepoID: r.ID, State: issues.StateClosed}, []string{"v0.9"}},
		"any other state is both":     {issues.MilestoneFilter{RepoID: r.ID, State: issues.StateAll}, []string{"v0.9", "v1", "v1.0", "someday"}},
		"by name":                     {issues.MilestoneFilter{RepoID: r.ID, Name: "v1"}, []string{"v1"}},
		"by name, exact":              {issues.MilestoneFilter{RepoID: r.ID, Name: "V1"}, []string{}},
		"name contains, any case":     {issues.MilestoneFilter{RepoID: r.ID, NameContains: "V1"}, []string{"v1", "v1.0"}},
		"name contains, within":       {issues.MilestoneFilter{RepoID: r.ID, NameContains: "mEd"}, []string{"someday"}},
		"name contains, with state":   {issues.MilestoneFilter{RepoID: r.ID, NameContains: "v", State: issues.StateClosed}, []string{"v0.9"}},
		"name contains no wildcard":   {issues.MilestoneFilter{RepoID: r.ID, NameContains: "v_"}, []string{}},
		"name contains no wildcard %": {issues.MilestoneFilter{RepoID: r.ID, NameContains: "%"}, []string{}},
		"by ids":                      {issues.MilestoneFilter{RepoID: r.ID, IDs: []forge.ID{none.ID, theirs.ID}}, []string{"someday"}},
		"no ids":                      {issues.MilestoneFilter{RepoID: r.ID, IDs: []forge.ID{}}, []string{}},
		"the other repository":        {issues.MilestoneFilter{RepoID: other.ID}, []string{"v1"}},
	}, milestoneTitles, func(ctx context.Context, tx issues.Tx, f issues.MilestoneFilter) ([]*issues.Milestone, int64, error) {
		return tx.ListMilestones(ctx, f, all)
	})
	issueView(t, s, func(tx issues.Tx) error {
		list, total, err := tx.ListMilestones(ctx, issues.MilestoneFilter{RepoID: r.ID}, forge.ListOptions{Page: 2, Limit: 3})
		require.NoError(t, err)
		assert.EqualValues(t, 4, total)
		assert.Equal(t, []string{"someday"}, milestoneTitles(list))
		return nil
	})

	// Deleting a milestone leaves its issues without one.
	i := newIssue(t, s, r.ID, ann.ID, "planned work", func(i *issues.Issue) { i.MilestoneID = same.ID })
	kept := newIssue(t, s, r.ID, ann.ID, "other work", func(i *issues.Issue) { i.MilestoneID = soon.ID })
	wantDeleteOnce(t, s, func(ctx context.Context, tx issues.Tx) error { return tx.DeleteMilestone(ctx, same.ID) })
	issueView(t, s, func(tx issues.Tx) error {
		got, err := tx.IssueByID(ctx, i.ID)
		require.NoError(t, err)
		assert.Zero(t, got.MilestoneID)
		got, err = tx.IssueByID(ctx, kept.ID)
		require.NoError(t, err)
		assert.Equal(t, soon.ID, got.MilestoneID)
		_, err = tx.MilestoneByID(ctx, r.ID, same.ID)
		assert.ErrorIs(t, err, forge.ErrNotFound)
		list, _, err := tx.ListIssues(ctx, issues.IssueFilter{RepoIDs: []forge.ID{r.ID}, MilestoneIDs: []forge.ID{0}}, all)
		require.NoError(t, err)
		assert.Equal(t, []string{"planned work"}, issueTitles(list), "milestone 0 selects the issues without one")
		return nil
	})
}
