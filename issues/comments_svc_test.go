package issues_test

import (
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/issues"
)

func TestCommentsListAndDelete(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	alice, bob := e.user("alice"), e.user("bob")
	e.repo(alice, "r", false)
	e.issue(alice, "alice", "r", "one")
	e.issue(alice, "alice", "r", "two")
	t0 := e.clock.Now()
	c1, err := e.svc.CreateComment(e.ctx, bob, "alice", "r", 1, issues.CreateCommentOption{Body: "first"})
	require.NoError(t, err)
	t1 := e.clock.Step(time.Hour)
	_, err = e.svc.CreateComment(e.ctx, bob, "alice", "r", 1, issues.CreateCommentOption{Body: "second"})
	require.NoError(t, err)
	_, err = e.svc.CreateComment(e.ctx, alice, "alice", "r", 2, issues.CreateCommentOption{Body: "other"})
	require.NoError(t, err)
	// a label event is no comment in the lists
	l := e.label(alice, "alice", "r", "bug", false)
	_, err = e.svc.AddLabels(e.ctx, alice, "alice", "r", 1, issues.LabelsOption{IDs: []forge.ID{l.ID}})
	require.NoError(t, err)

	cs, n, err := e.svc.ListComments(e.ctx, forge.Anonymous, "alice", "r", 1, issues.ListCommentsOption{})
	require.NoError(t, err)
	require.EqualValues(t, 2, n)
	require.Equal(t, "first", cs[0].Comment.Body)
	require.Equal(t, "bob", cs[0].Poster.Name)
	cs, _, err = e.svc.ListComments(e.ctx, forge.Anonymous, "alice", "r", 1, issues.ListCommentsOption{Since: t1})
	require.NoError(t, err)
	require.Len(t, cs, 1)
	cs, n, err = e.svc.ListRepoComments(e.ctx, forge.Anonymous, "alice", "r", issues.ListCommentsOption{ListOptions: forge.ListOptions{Page: 1, Limit: 2}})
	require.NoError(t, err)
	require.EqualValues(t, 3, n)
	require.Len(t, cs, 2)
	require.Equal(t, t0, cs[0].Comment.Created)

	// timeline events are not edited nor deleted (204)
	var ev *issues.Comment
	require.NoError(t, e.store.Issues().View(e.ctx, func(tx issues.Tx) error {
		list, _, err := tx.ListComments(e.ctx, issues.CommentFilter{IssueID: c1.Issue.ID, Types: []issues.CommentType{issues.CommentLabel}}, forge.ListOptions{Page: 1, Limit: -1})
		ev = list[0]
		return err
	}))
	_, err = e.svc.EditComment(e.ctx, alice, "alice", "r", ev.ID, issues.EditCommentOption{Body: "x"})
	require.True(t, errors.Is(err, issues.ErrNotEditable), "%v", err)
	require.True(t, errors.Is(e.svc.DeleteComment(e.ctx, alice, "alice", "r", 0, ev.ID), issues.ErrNotEditable))
	_, err = e.svc.GetComment(e.ctx, alice, "alice", "r", ev.ID)
	require.True(t, errors.Is(err, issues.ErrNotEditable))

	// deleting a comment with an attachment: the count, the row and the bytes
	_, err = e.svc.CreateCommentAttachment(e.ctx, bob, "alice", "r", c1.Comment.ID, issues.UploadOption{Name: "f", Content: bytesReader("abc")})
	require.NoError(t, err)
	require.Equal(t, 1, e.blobs.len())
	require.NoError(t, e.svc.DeleteComment(e.ctx, bob, "alice", "r", 0, c1.Comment.ID))
	require.Zero(t, e.blobs.len())
	v, err := e.svc.Get(e.ctx, alice, "alice", "r", 1)
	require.NoError(t, err)
	require.Equal(t, 1, v.Issue.NumComments)
	_, err = e.svc.GetComment(e.ctx, alice, "alice", "r", c1.Comment.ID)
	require.True(t, errors.Is(err, issues.ErrCommentNotFound))
}

// Comments of pull requests are neither listed nor counted where the
// actor may not read pull requests.
func TestRepoCommentsOfUnreadablePulls(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	alice := e.user("alice")
	r := e.repo(alice, "r", false)
	e.issue(alice, "alice", "r", "issue")
	_, err := e.svc.CreateComment(e.ctx, alice, "alice", "r", 1, issues.CreateCommentOption{Body: "on the issue"})
	require.NoError(t, err)
	require.NoError(t, e.store.Issues().Update(e.ctx, func(tx issues.Tx) error {
		pr := &issues.Issue{RepoID: r.ID, Index: 2, PosterID: alice.User.ID, Title: "pr", IsPull: true, Created: e.clock.Now(), Updated: e.clock.Now()}
		if err := tx.CreateIssue(e.ctx, pr); err != nil {
			return err
		}
		return tx.CreateComment(e.ctx, &issues.Comment{IssueID: pr.ID, PosterID: alice.User.ID, Body: "on the pr", Created: e.clock.Now(), Updated: e.clock.Now()})
	}))
	_, n, err := e.svc.ListRepoComments(e.ctx, alice, "alice", "r", issues.ListCommentsOption{})
	require.NoError(t, err)
	require.EqualValues(t, 2, n)
	e.setRepo(r, func(r *forge.Repository) { r.HasPullRequests = false })
	cs, n, err := e.svc.ListRepoComments(e.ctx, alice, "alice", "r", issues.ListCommentsOption{})
	require.NoError(t, err)
	require.EqualValues(t, 1, n)
	require.Len(t, cs, 1)
	require.Equal(t, "on the issue", cs[0].Comment.Body)
	_, err = e.svc.Get(e.ctx, alice, "alice", "r", 2)
	require.True(t, errors.Is(err, issues.ErrIssueNotFound), "a pull request in a repository without pulls: %v", err)
}
