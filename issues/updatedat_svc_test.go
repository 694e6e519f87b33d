package issues_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/forgetest"
	"github.com/hearthforge/hearth/issues"
)

const (
	msgRight = "user needs to have admin or repository owner right to set an update date"
	msgRange = "unallowed update date, because given date must be between issue creation date and now"
)

// dated is the set-up of the updated_at tests: alice owns alice/r, bob
// writes, dave administers, sam is a site administrator; issue #1 by bob
// was created at created, and the clock is now two hours later.
type dated struct {
	*env
	alice, bob, dave, sam forge.Actor
	created, now, mid     time.Time
}

func newDated(t *testing.T) *dated {
	e := newEnv(t)
	d := &dated{env: e, alice: e.user("alice"), bob: e.user("bob"), dave: e.user("dave"), sam: e.user("sam", forgetest.Admin)}
	e.repo(d.alice, "r", true)
	e.collab(d.alice, "r", d.bob, forge.AccessModeWrite)
	e.collab(d.alice, "r", d.dave, forge.AccessModeAdmin)
	d.created = e.clock.Now()
	e.issue(d.bob, "alice", "r", "first")
	d.now = e.clock.Step(2 * time.Hour)
	d.mid = d.created.Add(time.Hour)
	return d
}

func (d *dated) get() *issues.IssueView {
	d.t.Helper()
	v, err := d.svc.Get(d.ctx, d.alice, "alice", "r", 1)
	require.NoError(d.t, err)
	return v
}

// timeline returns issue #1's comments of any type.
func (d *dated) timeline() []*issues.Comment {
	d.t.Helper()
	var out []*issues.Comment
	require.NoError(d.t, d.store.Issues().View(d.ctx, func(tx issues.Tx) error {
		is, err := tx.IssueByIndex(d.ctx, d.get().Repo.ID, 1)
		if err != nil {
			return err
		}
		out, _, err = tx.ListComments(d.ctx, issues.CommentFilter{IssueID: is.ID}, forge.ListOptions{Page: 1, Limit: -1})
		return err
	}))
	return out
}

func refused(t *testing.T, err error, msg string) {
	t.Helper()
	require.Error(t, err)
	require.True(t, errors.Is(err, forge.ErrForbidden), "not forbidden: %v", err)
	require.Equal(t, msg, err.Error())
}

// Rules 1-3: the six operations accept a date from the owner, a repository
// admin and a site administrator, and refuse it from a writer and out of
// range, with Forgejo's 403 messages.
func TestUpdatedAtWhoAndBounds(t *testing.T) {
	t.Parallel()
	d := newDated(t)
	title := func(s string) issues.EditIssueOption { return issues.EditIssueOption{Title: &s} }
	for _, who := range []forge.Actor{d.alice, d.dave, d.sam} {
		opt := title("by " + who.User.Name)
		opt.UpdatedAt = at(d.mid)
		_, err := d.svc.Edit(d.ctx, who, "alice", "r", 1, opt)
		require.NoError(t, err, who.User.Name)
	}
	opt := title("by bob")
	opt.UpdatedAt = at(d.mid)
	_, err := d.svc.Edit(d.ctx, d.bob, "alice", "r", 1, opt)
	refused(t, err, msgRight)
	opt.UpdatedAt = at(d.created.Add(-time.Second))
	_, err = d.svc.Edit(d.ctx, d.alice, "alice", "r", 1, opt)
	refused(t, err, msgRange)
	opt.UpdatedAt = at(d.now.Add(time.Second))
	_, err = d.svc.Edit(d.ctx, d.alice, "alice", "r", 1, opt)
	refused(t, err, msgRange)
	// the bounds are inclusive
	for _, b := range []time.Time{d.created, d.now} {
		opt.UpdatedAt = at(b)
		_, err = d.svc.Edit(d.ctx, d.alice, "alice", "r", 1, opt)
		require.NoError(t, err)
	}
	// Rule 1: each other operation refuses a writer's date too.
	ctx := context.Background()
	_, err = d.svc.CreateComment(ctx, d.bob, "alice", "r", 1, issues.CreateCommentOption{Body: "x", UpdatedAt: at(d.mid)})
	refused(t, err, msgRight)
	_, err = d.svc.AddLabels(ctx, d.bob, "alice", "r", 1, issues.LabelsOption{UpdatedAt: at(d.mid)})
	refused(t, err, msgRight)
	_, err = d.svc.ReplaceLabels(ctx, d.bob, "alice", "r", 1, issues.LabelsOption{UpdatedAt: at(d.mid)})
	refused(t, err, msgRight)
	refused(t, d.svc.ClearLabels(ctx, d.bob, "alice", "r", 1, at(d.mid)), msgRight)
	_, err = d.svc.CreateIssueAttachment(ctx, d.bob, "alice", "r", 1, issues.UploadOption{Name: "a.txt", Content: strings.NewReader("x"), UpdatedAt: at(d.mid)})
	refused(t, err, msgRight)
	c, err := d.svc.CreateComment(ctx, d.bob, "alice", "r", 1, issues.CreateCommentOption{Body: "x"})
	require.NoError(t, err)
	_, err = d.svc.EditComment(ctx, d.bob, "alice", "r", c.Comment.ID, issues.EditCommentOption{Body: "y", UpdatedAt: at(d.mid)})
	refused(t, err, msgRight)
	_, err = d.svc.CreateCommentAttachment(ctx, d.bob, "alice", "r", c.Comment.ID, issues.UploadOption{Name: "a.txt", Content: strings.NewReader("x"), UpdatedAt: at(d.mid)})
	refused(t, err, msgRight)
	require.Zero(t, d.blobs.len(), "a refused upload left its bytes")
}

// Rule 2: without a date every operation stamps now, for writers too.
func TestUpdatedAtAbsentIsNow(t *testing.T) {
	t.Parallel()
	d := newDated(t)
	c, err := d.svc.CreateComment(d.ctx, d.bob, "alice", "r", 1, issues.CreateCommentOption{Body: "hi"})
	require.NoError(t, err)
	require.Equal(t, d.now, c.Comment.Created)
	require.Equal(t, d.now, d.get().Issue.Updated)
	later := d.clock.Step(time.Minute)
	s := "t2"
	v, err := d.svc.Edit(d.ctx, d.bob, "alice", "r", 1, issues.EditIssueOption{Title: &s})
	require.NoError(t, err)
	require.Equal(t, later, v.Issue.Updated)
}

// Rules 3-4: an accepted date is the issue's update date exactly (the
// automatic one is suppressed); a refused edit changes nothing.
func TestUpdatedAtIssueEdit(t *testing.T) {
	t.Parallel()
	d := newDated(t)
	s, body := "new", "body"
	v, err := d.svc.Edit(d.ctx, d.alice, "alice", "r", 1, issues.EditIssueOption{Title: &s, Body: &body, UpdatedAt: at(d.mid.Add(123 * time.Millisecond))})
	require.NoError(t, err)
	require.Equal(t, d.mid, v.Issue.Updated)
	require.Equal(t, d.mid, d.get().Issue.Updated)
	tl := d.timeline()
	require.Len(t, tl, 1)
	require.Equal(t, issues.CommentTitle, tl[0].Type)
	require.Equal(t, d.mid, tl[0].Created)
	require.Equal(t, d.mid, tl[0].Updated)

	s2 := "refused"
	closed := issues.StateClosed
	_, err = d.svc.Edit(d.ctx, d.alice, "alice", "r", 1, issues.EditIssueOption{Title: &s2, State: &closed, UpdatedAt: at(d.now.Add(time.Hour))})
	refused(t, err, msgRange)
	got := d.get()
	require.Equal(t, "new", got.Issue.Title)
	require.False(t, got.Issue.IsClosed)
	require.Equal(t, d.mid, got.Issue.Updated)
	require.Len(t, d.timeline(), 1)
}

// Rule 5: moving an issue between milestones with a date moves each
// milestone's update date to the later of its own and the date; a
// refused move changes no milestone.
func TestUpdatedAtMilestone(t *testing.T) {
	t.Parallel()
	d := newDated(t)
	// m1 is created (updated) now, after mid; m2 is created at created.
	d.clock.Set(d.created)
	m2, err := d.svc.CreateMilestone(d.ctx, d.alice, "alice", "r", issues.CreateMilestoneOption{Title: "m2"})
	require.NoError(t, err)
	d.clock.Set(d.now)
	m1, err := d.svc.CreateMilestone(d.ctx, d.alice, "alice", "r", issues.CreateMilestoneOption{Title: "m1"})
	require.NoError(t, err)

	_, err = d.svc.Edit(d.ctx, d.alice, "alice", "r", 1, issues.EditIssueOption{Milestone: &m1.ID, UpdatedAt: at(d.mid)})
	require.NoError(t, err)
	got1, err := d.svc.GetMilestone(d.ctx, d.alice, "alice", "r", "m1")
	require.NoError(t, err)
	require.Equal(t, d.now, got1.Updated, "a milestone's update date never moves backwards")
	require.Equal(t, 1, got1.NumOpenIssues())

	_, err = d.svc.Edit(d.ctx, d.bob, "alice", "r", 1, issues.EditIssueOption{Milestone: &m2.ID, UpdatedAt: at(d.mid)})
	refused(t, err, msgRight)
	got2, err := d.svc.GetMilestone(d.ctx, d.alice, "alice", "r", "m2")
	require.NoError(t, err)
	require.Equal(t, d.created, got2.Updated)
	require.Zero(t, got2.NumIssues)

	_, err = d.svc.Edit(d.ctx, d.alice, "alice", "r", 1, issues.EditIssueOption{Milestone: &m2.ID, UpdatedAt: at(d.mid)})
	require.NoError(t, err)
	got2, err = d.svc.GetMilestone(d.ctx, d.alice, "alice", "r", "m2")
	require.NoError(t, err)
	require.Equal(t, d.mid, got2.Updated, "the later of its own and the given date")
	require.Equal(t, 1, got2.NumIssues)
	got1, err = d.svc.GetMilestone(d.ctx, d.alice, "alice", "r", "m1")
	require.NoError(t, err)
	require.Zero(t, got1.NumIssues)
	require.Equal(t, d.now, got1.Updated)
}

// Rule 6: the label-change comment takes the date; refused, no label.
func TestUpdatedAtLabels(t *testing.T) {
	t.Parallel()
	d := newDated(t)
	l := d.label(d.alice, "alice", "r", "bug", false)
	_, err := d.svc.AddLabels(d.ctx, d.bob, "alice", "r", 1, issues.LabelsOption{IDs: []forge.ID{l.ID}, UpdatedAt: at(d.mid)})
	refused(t, err, msgRight)
	require.Empty(t, d.get().Labels)
	require.Empty(t, d.timeline())

	got, err := d.svc.AddLabels(d.ctx, d.alice, "alice", "r", 1, issues.LabelsOption{IDs: []forge.ID{l.ID}, UpdatedAt: at(d.mid)})
	require.NoError(t, err)
	require.Equal(t, "bug", labelNames(got))
	tl := d.timeline()
	require.Len(t, tl, 1)
	require.Equal(t, issues.CommentLabel, tl[0].Type)
	require.Equal(t, d.mid, tl[0].Created)
	require.Equal(t, d.mid, d.get().Issue.Updated)

	// remove with a date: the removal comment too
	_, err = d.svc.RemoveLabel(d.ctx, d.alice, "alice", "r", 1, "bug", at(d.mid.Add(time.Minute)))
	require.NoError(t, err)
	tl = d.timeline()
	require.Len(t, tl, 2)
	require.Equal(t, d.mid.Add(time.Minute), tl[1].Created)
}

// Rule 7: the attachment's creation and the issue's update take the date.
func TestUpdatedAtIssueAttachment(t *testing.T) {
	t.Parallel()
	d := newDated(t)
	_, err := d.svc.CreateIssueAttachment(d.ctx, d.alice, "alice", "r", 1, issues.UploadOption{Name: "a.txt", Content: strings.NewReader("hello"), UpdatedAt: at(d.now.Add(time.Minute))})
	refused(t, err, msgRange)
	require.Empty(t, d.get().Assets)
	require.Zero(t, d.blobs.len())

	a, err := d.svc.CreateIssueAttachment(d.ctx, d.alice, "alice", "r", 1, issues.UploadOption{Name: "a.txt", Content: strings.NewReader("hello"), UpdatedAt: at(d.mid)})
	require.NoError(t, err)
	require.Equal(t, d.mid, a.Created)
	require.EqualValues(t, 5, a.Size)
	v := d.get()
	require.Equal(t, d.mid, v.Issue.Updated)
	require.Len(t, v.Assets, 1)
	require.Equal(t, 1, d.blobs.len())
}

// Rule 8: the comment's creation and the issue's update take the date.
func TestUpdatedAtCommentCreate(t *testing.T) {
	t.Parallel()
	d := newDated(t)
	_, err := d.svc.CreateComment(d.ctx, d.dave, "alice", "r", 1, issues.CreateCommentOption{Body: "x", UpdatedAt: at(d.created.Add(-time.Hour))})
	refused(t, err, msgRange)
	require.Zero(t, d.get().Issue.NumComments)

	c, err := d.svc.CreateComment(d.ctx, d.dave, "alice", "r", 1, issues.CreateCommentOption{Body: "x", UpdatedAt: at(d.mid)})
	require.NoError(t, err)
	require.Equal(t, d.mid, c.Comment.Created)
	require.Equal(t, d.mid, c.Comment.Updated)
	v := d.get()
	require.Equal(t, d.mid, v.Issue.Updated)
	require.Equal(t, 1, v.Issue.NumComments)
}

// Rule 9: the comment's and the issue's update take the date.
func TestUpdatedAtCommentEdit(t *testing.T) {
	t.Parallel()
	d := newDated(t)
	c, err := d.svc.CreateComment(d.ctx, d.bob, "alice", "r", 1, issues.CreateCommentOption{Body: "x"})
	require.NoError(t, err)
	_, err = d.svc.EditComment(d.ctx, d.bob, "alice", "r", c.Comment.ID, issues.EditCommentOption{Body: "y", UpdatedAt: at(d.mid)})
	refused(t, err, msgRight)
	got, err := d.svc.GetComment(d.ctx, d.bob, "alice", "r", c.Comment.ID)
	require.NoError(t, err)
	require.Equal(t, "x", got.Comment.Body)

	e, err := d.svc.EditComment(d.ctx, d.alice, "alice", "r", c.Comment.ID, issues.EditCommentOption{Body: "y", UpdatedAt: at(d.mid)})
	require.NoError(t, err)
	require.Equal(t, "y", e.Comment.Body)
	require.Equal(t, d.mid, e.Comment.Updated)
	require.Equal(t, d.now, e.Comment.Created)
	require.Equal(t, d.mid, d.get().Issue.Updated)
}

// Rule 10: the comment's update and the attachment's creation take it.
func TestUpdatedAtCommentAttachment(t *testing.T) {
	t.Parallel()
	d := newDated(t)
	c, err := d.svc.CreateComment(d.ctx, d.bob, "alice", "r", 1, issues.CreateCommentOption{Body: "x"})
	require.NoError(t, err)
	_, err = d.svc.CreateCommentAttachment(d.ctx, d.alice, "alice", "r", c.Comment.ID, issues.UploadOption{Name: "a", Content: strings.NewReader("1"), UpdatedAt: at(d.now.Add(time.Hour))})
	refused(t, err, msgRange)
	require.Zero(t, d.blobs.len())

	a, err := d.svc.CreateCommentAttachment(d.ctx, d.alice, "alice", "r", c.Comment.ID, issues.UploadOption{Name: "a", Content: strings.NewReader("1"), UpdatedAt: at(d.mid)})
	require.NoError(t, err)
	require.Equal(t, d.mid, a.Created)
	got, err := d.svc.GetComment(d.ctx, d.bob, "alice", "r", c.Comment.ID)
	require.NoError(t, err)
	require.Equal(t, d.mid, got.Comment.Updated)
	require.Len(t, got.Assets, 1)
}
