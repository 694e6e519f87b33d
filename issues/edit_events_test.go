package issues_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/issues"
)

// TestEditEvents: edits tell their events after commit, with the state
// after and what changed; refused and no-op edits tell nothing.
func TestEditEvents(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	rec := newRecorder(t, e.store.Hooks())
	svc, err := issues.New(issues.Config{Store: e.store.Issues(), Repos: e.repos, Clock: e.clock})
	require.NoError(t, err)
	alice, bob, eve := e.user("alice"), e.user("bob"), e.user("eve")
	e.repo(alice, "proj", false)
	e.collab(alice, "proj", bob, forge.AccessModeWrite)
	l := e.label(alice, "alice", "proj", "bug", false)
	m, err := svc.CreateMilestone(e.ctx, alice, "alice", "proj", issues.CreateMilestoneOption{Title: "v1"})
	require.NoError(t, err)
	_, err = svc.Create(e.ctx, alice, "alice", "proj", issues.CreateIssueOption{Title: "t", Body: "b"})
	require.NoError(t, err)
	c, err := svc.CreateComment(e.ctx, alice, "alice", "proj", 1, issues.CreateCommentOption{Body: "c1"})
	require.NoError(t, err)
	rec.reset()

	title, body := "t2", "b2"
	_, err = svc.Edit(e.ctx, eve, "alice", "proj", 1, issues.EditIssueOption{Title: &title})
	require.Error(t, err)
	_, err = svc.Edit(e.ctx, alice, "alice", "proj", 1, issues.EditIssueOption{Title: &title, Body: &body,
		Assignees: []string{"bob"}, Milestone: &m.ID})
	require.NoError(t, err)
	_, err = svc.AddLabels(e.ctx, alice, "alice", "proj", 1, issues.LabelsOption{IDs: []forge.ID{l.ID}})
	require.NoError(t, err)
	_, err = svc.AddLabels(e.ctx, alice, "alice", "proj", 1, issues.LabelsOption{IDs: []forge.ID{l.ID}}) // no change, still told
	require.NoError(t, err)
	_, err = svc.ReplaceLabels(e.ctx, alice, "alice", "proj", 1, issues.LabelsOption{})
	require.NoError(t, err)
	_, err = svc.AddLabels(e.ctx, alice, "alice", "proj", 1, issues.LabelsOption{IDs: []forge.ID{l.ID}})
	require.NoError(t, err)
	require.NoError(t, svc.ClearLabels(e.ctx, alice, "alice", "proj", 1, nil))
	none := forge.ID(0)
	_, err = svc.Edit(e.ctx, alice, "alice", "proj", 1, issues.EditIssueOption{Assignees: []string{}, Milestone: &none})
	require.NoError(t, err)
	_, err = svc.EditComment(e.ctx, alice, "alice", "proj", c.Comment.ID, issues.EditCommentOption{Body: "c1"}) // same body
	require.NoError(t, err)
	_, err = svc.EditComment(e.ctx, alice, "alice", "proj", c.Comment.ID, issues.EditCommentOption{Body: "c2"})
	require.NoError(t, err)
	require.NoError(t, svc.DeleteComment(e.ctx, alice, "alice", "proj", 0, c.Comment.ID))

	assert.Equal(t, []issues.EventKind{
		issues.EventEdit, issues.EventEdit, issues.EventAssign, issues.EventMilestone,
		issues.EventLabel, issues.EventLabel, issues.EventLabel, issues.EventLabel, issues.EventLabelClear,
		issues.EventUnassign, issues.EventDemilestone,
		issues.EventCommentEdit, issues.EventCommentDelete,
	}, rec.kinds())
	ev := rec.all()
	require.NotNil(t, ev[0].Detail.OldTitle)
	assert.Equal(t, "t", *ev[0].Detail.OldTitle)
	assert.Nil(t, ev[0].Detail.OldBody)
	require.NotNil(t, ev[1].Detail.OldBody)
	assert.Equal(t, "b", *ev[1].Detail.OldBody)
	assert.Equal(t, bob.User.ID, ev[2].Comment.AssigneeID)
	require.Len(t, ev[2].Detail.Assignees, 1)
	assert.Equal(t, "bob", ev[2].Detail.Assignees[0].Name)
	require.NotNil(t, ev[3].Detail.Milestone)
	assert.Equal(t, "v1", ev[3].Detail.Milestone.Title)
	require.Len(t, ev[4].Detail.Labels, 1)
	assert.Equal(t, "bug", ev[4].Detail.Labels[0].Name)
	require.Len(t, ev[5].Detail.Labels, 1, "an add of a label already there is still told")
	assert.Empty(t, ev[6].Detail.Labels, "replaced by none: label_updated with no labels")
	assert.Empty(t, ev[8].Detail.Labels)
	assert.Equal(t, bob.User.ID, ev[9].Comment.AssigneeID)
	assert.True(t, ev[9].Comment.RemovedAssignee)
	assert.Nil(t, ev[10].Detail.Milestone)
	assert.Equal(t, "c2", ev[11].Comment.Body)
	require.NotNil(t, ev[11].Detail.OldBody)
	assert.Equal(t, "c1", *ev[11].Detail.OldBody)
	assert.Equal(t, c.Comment.ID, ev[12].Comment.ID)
	assert.Equal(t, "alice", ev[12].Repo.OwnerName)
	rec.reset()

	// A creation with an assignee tells assigned, then created (labels
	// and milestone given at creation tell nothing).
	_, err = svc.Create(e.ctx, alice, "alice", "proj", issues.CreateIssueOption{Title: "t", Assignees: []string{"bob"},
		Labels: []forge.ID{l.ID}, Milestone: m.ID})
	require.NoError(t, err)
	assert.Equal(t, []issues.EventKind{issues.EventAssign, issues.EventCreate}, rec.kinds())
	ev = rec.all()
	assert.Equal(t, bob.User.ID, ev[0].Comment.AssigneeID)
	assert.EqualValues(t, 2, ev[0].Issue.Index)
}

// Notifications follow creations, comments, state changes and pull events,
// never the edit events.
func TestEventKindNotifies(t *testing.T) {
	t.Parallel()
	for _, k := range []issues.EventKind{issues.EventCreate, issues.EventComment, issues.EventClose, issues.EventReopen} {
		if !k.Notifies() {
			t.Errorf("%s does not notify", k)
		}
	}
	for _, k := range []issues.EventKind{issues.EventEdit, issues.EventAssign, issues.EventUnassign, issues.EventLabel,
		issues.EventLabelClear, issues.EventMilestone, issues.EventDemilestone, issues.EventCommentEdit, issues.EventCommentDelete} {
		if k.Notifies() {
			t.Errorf("%s notifies", k)
		}
	}
}
