package issues_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/issues"
)

func TestAttachmentsCRUD(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	alice, bob, carol := e.user("alice"), e.user("bob"), e.user("carol")
	e.repo(alice, "r", false)
	e.issue(bob, "alice", "r", "bob's")
	c, err := e.svc.CreateComment(e.ctx, carol, "alice", "r", 1, issues.CreateCommentOption{Body: "carol's"})
	require.NoError(t, err)
	onIssue := issues.AttachmentTarget{Index: 1}
	onComment := issues.AttachmentTarget{CommentID: c.Comment.ID}

	// the issue's poster may attach, a stranger may not
	_, err = e.svc.CreateIssueAttachment(e.ctx, carol, "alice", "r", 1, issues.UploadOption{Name: "x", Content: strings.NewReader("x")})
	require.True(t, errors.Is(err, forge.ErrForbidden), "%v", err)
	require.Equal(t, "user should have permission to write issue", err.Error())
	ia, err := e.svc.CreateIssueAttachment(e.ctx, bob, "alice", "r", 1, issues.UploadOption{Name: "log.txt", Content: strings.NewReader("log")})
	require.NoError(t, err)
	require.NotEmpty(t, ia.UUID)
	_, err = e.svc.CreateCommentAttachment(e.ctx, bob, "alice", "r", c.Comment.ID, issues.UploadOption{Name: "x", Content: strings.NewReader("x")})
	require.Equal(t, "user should have permission to edit comment", err.Error())
	ca, err := e.svc.CreateCommentAttachment(e.ctx, carol, "alice", "r", c.Comment.ID, issues.UploadOption{Name: "shot.png", Content: strings.NewReader("png")})
	require.NoError(t, err)

	list, err := e.svc.ListAttachments(e.ctx, forge.Anonymous, "alice", "r", onIssue)
	require.NoError(t, err)
	require.Len(t, list, 1)
	require.Equal(t, "log.txt", list[0].Name)
	list, err = e.svc.ListAttachments(e.ctx, forge.Anonymous, "alice", "r", onComment)
	require.NoError(t, err)
	require.Len(t, list, 1)
	require.Equal(t, "shot.png", list[0].Name)

	// an attachment is found only through what it hangs on
	_, err = e.svc.GetAttachment(e.ctx, alice, "alice", "r", onIssue, ca.ID)
	require.True(t, errors.Is(err, issues.ErrAttachmentNotFound), "%v", err)
	_, err = e.svc.GetAttachment(e.ctx, alice, "alice", "r", onComment, ia.ID)
	require.True(t, errors.Is(err, issues.ErrAttachmentNotFound), "%v", err)
	got, err := e.svc.GetAttachment(e.ctx, alice, "alice", "r", onComment, ca.ID)
	require.NoError(t, err)
	require.EqualValues(t, 3, got.Size)

	ren, err := e.svc.EditAttachment(e.ctx, bob, "alice", "r", onIssue, ia.ID, "renamed.txt")
	require.NoError(t, err)
	require.Equal(t, "renamed.txt", ren.Name)
	_, err = e.svc.EditAttachment(e.ctx, carol, "alice", "r", onIssue, ia.ID, "mine")
	require.True(t, errors.Is(err, forge.ErrForbidden))
	require.NoError(t, e.svc.DeleteAttachment(e.ctx, alice, "alice", "r", onComment, ca.ID)) // owner: a writer
	require.Equal(t, 1, e.blobs.len())
	_, err = e.svc.GetAttachment(e.ctx, alice, "alice", "r", onComment, ca.ID)
	require.True(t, errors.Is(err, issues.ErrAttachmentNotFound))

	// deleting the issue takes its attachments' bytes
	require.NoError(t, e.svc.Delete(e.ctx, alice, "alice", "r", 1))
	require.Zero(t, e.blobs.len())
}

func TestAttachmentLimitsAndDisabled(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	alice := e.user("alice")
	e.repo(alice, "r", false)
	e.issue(alice, "alice", "r", "x")
	small, err := issues.New(issues.Config{Store: e.store.Issues(), Repos: e.repos, Clock: e.clock, Blobs: e.blobs, MaxAttachmentSize: 4})
	require.NoError(t, err)
	_, err = small.CreateIssueAttachment(e.ctx, alice, "alice", "r", 1, issues.UploadOption{Name: "big", Content: strings.NewReader("12345")})
	require.True(t, errors.Is(err, forge.ErrInvalid), "%v", err)
	v, err := e.svc.Get(e.ctx, alice, "alice", "r", 1)
	require.NoError(t, err)
	require.Empty(t, v.Assets)
	require.Zero(t, e.blobs.len())
	off, err := issues.New(issues.Config{Store: e.store.Issues(), Repos: e.repos, Clock: e.clock})
	require.NoError(t, err)
	_, err = off.CreateIssueAttachment(e.ctx, alice, "alice", "r", 1, issues.UploadOption{Name: "a", Content: strings.NewReader("1")})
	require.True(t, errors.Is(err, forge.ErrNotFound), "%v", err)
}

func TestSetDeadline(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	alice, carol := e.user("alice"), e.user("carol")
	e.repo(alice, "r", false)
	e.issue(carol, "alice", "r", "x")
	in := time.Date(2031, 5, 6, 7, 8, 9, 0, time.FixedZone("plus2", 2*3600))
	_, err := e.svc.SetDeadline(e.ctx, carol, "alice", "r", 1, &in)
	require.True(t, errors.Is(err, forge.ErrForbidden), "%v", err)
	dl, err := e.svc.SetDeadline(e.ctx, alice, "alice", "r", 1, &in)
	require.NoError(t, err)
	want := time.Date(2031, 5, 6, 21, 59, 59, 0, time.UTC) // 23:59:59 at +02:00
	require.Equal(t, want, dl)
	v, err := e.svc.Get(e.ctx, alice, "alice", "r", 1)
	require.NoError(t, err)
	require.Equal(t, want, v.Issue.Deadline)
	dl, err = e.svc.SetDeadline(e.ctx, alice, "alice", "r", 1, nil)
	require.NoError(t, err)
	require.True(t, dl.IsZero())
	v, err = e.svc.Get(e.ctx, alice, "alice", "r", 1)
	require.NoError(t, err)
	require.True(t, v.Issue.Deadline.IsZero())
}

func TestEndOfDay(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ in, want time.Time }{
		{time.Time{}, time.Time{}},
		{time.Date(2024, 2, 29, 0, 0, 0, 0, time.UTC), time.Date(2024, 2, 29, 23, 59, 59, 0, time.UTC)},
		{time.Date(2024, 1, 1, 23, 0, 0, 0, time.FixedZone("m5", -5*3600)), time.Date(2024, 1, 2, 4, 59, 59, 0, time.UTC)},
	} {
		if got := issues.EndOfDay(c.in); !got.Equal(c.want) || got.Location() != time.UTC && !got.IsZero() {
			t.Errorf("EndOfDay(%v) = %v, want %v", c.in, got, c.want)
		}
	}
}
