package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/issues"
)

// testIssueDependencies: dependencies both ways, their uniqueness, the
// names of repositories, and their end with an issue.
func testIssueDependencies(t *testing.T, b Backend) {
	ctx := context.Background()
	s := b.Issues()
	ann, r1, r2 := newUserRepos(t, b, "dann", "deps-one", "deps-two")
	a := newIssue(t, s, r1.ID, ann.ID, "a")
	bb := newIssue(t, s, r1.ID, ann.ID, "b")
	c := newIssue(t, s, r2.ID, ann.ID, "c")

	d := &issues.Dependency{UserID: ann.ID, IssueID: a.ID, DependsOn: c.ID, Created: issueAt}
	issueUpdate(t, s, func(tx issues.Tx) error { return tx.CreateDependency(ctx, d) })
	require.NotZero(t, d.ID)
	issueUpdate(t, s, func(tx issues.Tx) error {
		return tx.CreateDependency(ctx, &issues.Dependency{UserID: ann.ID, IssueID: a.ID, DependsOn: bb.ID, Created: issueAt})
	})
	issueUpdate(t, s, func(tx issues.Tx) error {
		err := tx.CreateDependency(ctx, &issues.Dependency{UserID: ann.ID, IssueID: a.ID, DependsOn: c.ID, Created: issueAt})
		assert.ErrorIs(t, err, forge.ErrConflict, "the same dependency twice")
		err = tx.CreateDependency(ctx, &issues.Dependency{UserID: ann.ID, IssueID: a.ID, DependsOn: 999999, Created: issueAt})
		assert.ErrorIs(t, err, forge.ErrNotFound, "an unknown issue")
		return nil
	})
	issueView(t, s, func(tx issues.Tx) error {
		deps, err := tx.Dependencies(ctx, a.ID)
		require.NoError(t, err)
		assert.Equal(t, []forge.ID{bb.ID, c.ID}, deps)
		blocks, err := tx.Dependents(ctx, c.ID)
		require.NoError(t, err)
		assert.Equal(t, []forge.ID{a.ID}, blocks)
		none, err := tx.Dependents(ctx, a.ID)
		require.NoError(t, err)
		assert.NotNil(t, none)
		assert.Empty(t, none)
		ok, err := tx.DependencyExists(ctx, a.ID, c.ID)
		require.NoError(t, err)
		assert.True(t, ok)
		ok, err = tx.DependencyExists(ctx, c.ID, a.ID)
		require.NoError(t, err)
		assert.False(t, ok, "a dependency has a direction")
		refs, err := tx.RepoRefs(ctx, []forge.ID{r1.ID, r2.ID, 999999})
		require.NoError(t, err)
		assert.Equal(t, map[forge.ID]issues.RepoRef{
			r1.ID: {ID: r1.ID, OwnerName: "dann", Name: "deps-one"},
			r2.ID: {ID: r2.ID, OwnerName: "dann", Name: "deps-two"},
		}, refs)
		return nil
	})
	issueUpdate(t, s, func(tx issues.Tx) error {
		deleteOnce(t, func() error { return tx.DeleteDependency(ctx, a.ID, bb.ID) })
		return tx.DeleteIssue(ctx, c.ID)
	})
	issueView(t, s, func(tx issues.Tx) error {
		deps, err := tx.Dependencies(ctx, a.ID)
		require.NoError(t, err)
		assert.Empty(t, deps, "deleting an issue ends its dependencies")
		return nil
	})
}

// testIssueTimes: tracked times, their filters and pages, deletion marks,
// and stopwatches.
func testIssueTimes(t *testing.T, b Backend) {
	ctx := context.Background()
	s := b.Issues()
	ann, r1, r2 := newUserRepos(t, b, "tann", "times-one", "times-two")
	bob := newUser(t, b, "tbob")
	a := newIssue(t, s, r1.ID, ann.ID, "a")
	c := newIssue(t, s, r2.ID, ann.ID, "c")

	var times []*issues.TrackedTime
	for k, tt := range []issues.TrackedTime{
		{IssueID: a.ID, UserID: ann.ID, Seconds: 60},
		{IssueID: a.ID, UserID: bob.ID, Seconds: 120},
		{IssueID: c.ID, UserID: ann.ID, Seconds: 180},
		{IssueID: a.ID, UserID: ann.ID, Seconds: 240},
	} {
		tt.Created = issueAt.Add(time.Duration(k) * time.Hour)
		issueUpdate(t, s, func(tx issues.Tx) error { return tx.CreateTrackedTime(ctx, &tt) })
		require.NotZero(t, tt.ID)
		times = append(times, &tt)
	}
	issueUpdate(t, s, func(tx issues.Tx) error {
		err := tx.CreateTrackedTime(ctx, &issues.TrackedTime{IssueID: 999999, UserID: ann.ID, Created: issueAt})
		assert.ErrorIs(t, err, forge.ErrNotFound)
		return nil
	})
	all := forge.ListOptions{Page: 1, Limit: -1}
	list := func(f issues.TimeFilter, o forge.ListOptions) ([]forge.ID, int64) {
		var ids []forge.ID
		var n int64
		issueView(t, s, func(tx issues.Tx) error {
			got, total, err := tx.ListTrackedTimes(ctx, f, o)
			require.NoError(t, err)
			for _, tt := range got {
				ids = append(ids, tt.ID)
			}
			n = total
			return nil
		})
		return ids, n
	}
	ids, n := list(issues.TimeFilter{IssueID: a.ID}, all)
	assert.Equal(t, []forge.ID{times[0].ID, times[1].ID, times[3].ID}, ids)
	assert.EqualValues(t, 3, n)
	ids, _ = list(issues.TimeFilter{RepoID: r1.ID, UserID: ann.ID}, all)
	assert.Equal(t, []forge.ID{times[0].ID, times[3].ID}, ids)
	ids, _ = list(issues.TimeFilter{UserID: ann.ID, CreatedSince: issueAt.Add(time.Hour), CreatedBefore: issueAt.Add(2 * time.Hour)}, all)
	assert.Equal(t, []forge.ID{times[2].ID}, ids, "bounds are inclusive")
	ids, n = list(issues.TimeFilter{UserID: ann.ID}, forge.ListOptions{Page: 2, Limit: 2})
	assert.Equal(t, []forge.ID{times[3].ID}, ids)
	assert.EqualValues(t, 3, n)

	issueUpdate(t, s, func(tx issues.Tx) error { return tx.MarkTimesDeleted(ctx, []forge.ID{times[0].ID, 999999}) })
	ids, _ = list(issues.TimeFilter{IssueID: a.ID}, all)
	assert.Equal(t, []forge.ID{times[1].ID, times[3].ID}, ids, "deleted times are not listed")
	issueView(t, s, func(tx issues.Tx) error {
		got, err := tx.TrackedTimeByID(ctx, times[0].ID)
		require.NoError(t, err)
		assert.Equal(t, issues.TrackedTime{ID: times[0].ID, IssueID: a.ID, UserID: ann.ID, Created: issueAt, Seconds: 60, Deleted: true}, *got)
		_, err = tx.TrackedTimeByID(ctx, 999999)
		assert.ErrorIs(t, err, forge.ErrNotFound)
		return nil
	})

	sw := &issues.Stopwatch{IssueID: a.ID, UserID: bob.ID, Created: issueAt}
	issueUpdate(t, s, func(tx issues.Tx) error { return tx.CreateStopwatch(ctx, sw) })
	require.NotZero(t, sw.ID)
	issueUpdate(t, s, func(tx issues.Tx) error {
		require.NoError(t, tx.CreateStopwatch(ctx, &issues.Stopwatch{IssueID: c.ID, UserID: bob.ID, Created: issueAt.Add(time.Minute)}))
		err := tx.CreateStopwatch(ctx, &issues.Stopwatch{IssueID: a.ID, UserID: bob.ID, Created: issueAt})
		assert.ErrorIs(t, err, forge.ErrConflict, "one stopwatch per user and issue")
		return nil
	})
	issueView(t, s, func(tx issues.Tx) error {
		got, n, err := tx.Stopwatches(ctx, bob.ID, 0, all)
		require.NoError(t, err)
		assert.EqualValues(t, 2, n)
		require.Len(t, got, 2)
		assert.Equal(t, *sw, *got[0])
		got, n, err = tx.Stopwatches(ctx, bob.ID, c.ID, all)
		require.NoError(t, err)
		assert.EqualValues(t, 1, n)
		assert.Equal(t, c.ID, got[0].IssueID)
		got, _, err = tx.Stopwatches(ctx, ann.ID, 0, all)
		require.NoError(t, err)
		assert.NotNil(t, got)
		assert.Empty(t, got)
		return nil
	})
	issueUpdate(t, s, func(tx issues.Tx) error {
		deleteOnce(t, func() error { return tx.DeleteStopwatch(ctx, sw.ID) })
		return tx.DeleteIssue(ctx, c.ID)
	})
	issueView(t, s, func(tx issues.Tx) error {
		got, _, err := tx.Stopwatches(ctx, bob.ID, 0, all)
		require.NoError(t, err)
		assert.Empty(t, got, "deleting an issue ends its stopwatches")
		return nil
	})
	ids, _ = list(issues.TimeFilter{UserID: ann.ID}, all)
	assert.Equal(t, []forge.ID{times[3].ID}, ids, "deleting an issue ends its times")
}

// testIssueDependencyComments: a comment's DependentIssueID round trips
// through CreateComment, CommentByID, ListComments and UpdateComment, and
// a dependency event goes with the issue it names (Forgejo deletes the
// comments whose dependent_issue_id is a deleted issue), leaving the
// others.
func testIssueDependencyComments(t *testing.T, b Backend) {
	ctx := context.Background()
	s := b.Issues()
	ann, r := newUserRepo(t, b, "depcann", "depcomments")
	one := newIssue(t, s, r.ID, ann.ID, "one")
	two := newIssue(t, s, r.ID, ann.ID, "two")
	three := newIssue(t, s, r.ID, ann.ID, "three")
	ev := func(on, names *issues.Issue) *issues.Comment {
		return &issues.Comment{IssueID: on.ID, Type: issues.CommentAddDependency, PosterID: ann.ID,
			DependentIssueID: names.ID, Created: issueAt, Updated: issueAt}
	}
	oneNamesTwo, twoNamesOne, oneNamesThree := ev(one, two), ev(two, one), ev(one, three)
	plain := &issues.Comment{IssueID: one.ID, PosterID: ann.ID, Body: "hi", Created: issueAt, Updated: issueAt}
	issueUpdate(t, s, func(tx issues.Tx) error {
		for _, c := range []*issues.Comment{oneNamesTwo, twoNamesOne, oneNamesThree, plain} {
			if err := tx.CreateComment(ctx, c); err != nil {
				return err
			}
		}
		return nil
	})
	issueView(t, s, func(tx issues.Tx) error {
		got, err := tx.CommentByID(ctx, oneNamesTwo.ID)
		require.NoError(t, err)
		assert.Equal(t, two.ID, got.DependentIssueID)
		assert.Equal(t, issues.CommentAddDependency, got.Type)
		list, _, err := tx.ListComments(ctx, issues.CommentFilter{IssueID: one.ID}, forge.ListOptions{Page: 1, Limit: 10})
		require.NoError(t, err)
		var deps []forge.ID
		for _, c := range list {
			deps = append(deps, c.DependentIssueID)
		}
		assert.Equal(t, []forge.ID{two.ID, three.ID, 0}, deps)
		return nil
	})
	issueUpdate(t, s, func(tx issues.Tx) error {
		c := *oneNamesThree
		c.Type, c.DependentIssueID = issues.CommentRemoveDependency, two.ID
		return tx.UpdateComment(ctx, &c)
	})
	issueView(t, s, func(tx issues.Tx) error {
		got, err := tx.CommentByID(ctx, oneNamesThree.ID)
		require.NoError(t, err)
		assert.Equal(t, two.ID, got.DependentIssueID, "UpdateComment writes it")
		return nil
	})

	// Deleting two takes its own comments and those naming it.
	issueUpdate(t, s, func(tx issues.Tx) error { return tx.DeleteIssue(ctx, two.ID) })
	issueView(t, s, func(tx issues.Tx) error {
		for _, c := range []*issues.Comment{oneNamesTwo, twoNamesOne, oneNamesThree} {
			_, err := tx.CommentByID(ctx, c.ID)
			assert.ErrorIs(t, err, forge.ErrNotFound, "comment %d", c.ID)
		}
		_, err := tx.CommentByID(ctx, plain.ID)
		assert.NoError(t, err, "the plain comment of one stays")
		return nil
	})
}
