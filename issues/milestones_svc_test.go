package issues_test

import (
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/issues"
)

func TestMilestones(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	alice := e.user("alice")
	e.repo(alice, "r", false)
	due := time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)
	m1, err := e.svc.CreateMilestone(e.ctx, alice, "alice", "r", issues.CreateMilestoneOption{Title: "v1", Deadline: &due})
	require.NoError(t, err)
	require.True(t, m1.HasDeadline())
	m2, err := e.svc.CreateMilestone(e.ctx, alice, "alice", "r", issues.CreateMilestoneOption{Title: "v2", State: issues.StateClosed})
	require.NoError(t, err)
	require.False(t, m2.HasDeadline(), "no deadline: the 9999 sentinel, shown as none")
	require.True(t, m2.IsClosed)
	require.Equal(t, e.clock.Now(), m2.Closed)

	list := func(state issues.State) int64 {
		_, n, err := e.svc.ListMilestones(e.ctx, alice, "alice", "r", issues.ListMilestonesOption{State: state})
		require.NoError(t, err)
		return n
	}
	require.EqualValues(t, 1, list(issues.StateOpen))
	require.EqualValues(t, 1, list(issues.StateClosed))
	require.EqualValues(t, 2, list(issues.StateAll))
	require.EqualValues(t, 2, list("weird"))

	// by id (any base) or by title
	for _, id := range []string{"1", "0x1", "v1"} {
		got, err := e.svc.GetMilestone(e.ctx, alice, "alice", "r", id)
		require.NoError(t, err, id)
		require.Equal(t, m1.ID, got.ID)
	}
	e.clock.Step(time.Hour)
	empty, open := "", issues.State("whatever")
	zero := time.Time{}
	got, err := e.svc.EditMilestone(e.ctx, alice, "alice", "r", "v2", issues.EditMilestoneOption{Title: &empty, State: &open, Deadline: &zero})
	require.NoError(t, err)
	require.Equal(t, "v2", got.Title, "an empty title is ignored")
	require.False(t, got.IsClosed, "any state but closed opens")
	require.False(t, got.HasDeadline(), "a zero deadline is ignored")
	require.Equal(t, e.clock.Now(), got.Updated)

	// deleting a milestone leaves its issues without one
	e.issue(alice, "alice", "r", "x")
	_, err = e.svc.Edit(e.ctx, alice, "alice", "r", 1, issues.EditIssueOption{Milestone: &m1.ID})
	require.NoError(t, err)
	require.NoError(t, e.svc.DeleteMilestone(e.ctx, alice, "alice", "r", "v1"))
	v, err := e.svc.Get(e.ctx, alice, "alice", "r", 1)
	require.NoError(t, err)
	require.Zero(t, v.Issue.MilestoneID)
	require.Nil(t, v.Milestone)
	_, err = e.svc.GetMilestone(e.ctx, alice, "alice", "r", "v1")
	require.True(t, errors.Is(err, issues.ErrMilestoneNotFound))
}
