package issues_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/issues"
)

// orgRoles is a fake forge/orgs: org "acme" owned by alice, with member
// bob; other names are unknown.
type orgRoles struct {
	org          *forge.User
	owner, membr forge.ID
}

func (o orgRoles) MemberRole(_ context.Context, actor forge.Actor, org string) (*forge.User, bool, bool, error) {
	if org != o.org.Name {
		return nil, false, false, forge.Errorf(forge.ErrNotFound, "GetOrgByName")
	}
	id := actor.UserID()
	return o.org, id == o.owner, id == o.owner || id == o.membr, nil
}

func TestOrgLabels(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	alice, bob := e.user("alice"), e.user("bob")
	org := e.user("acme", func(u *forge.User) { u.Type = forge.UserTypeOrganization })
	svc, err := issues.New(issues.Config{Store: e.store.Issues(), Repos: e.repos, Clock: e.clock,
		Orgs: orgRoles{org: org.User, owner: alice.User.ID, membr: bob.User.ID}})
	require.NoError(t, err)

	_, err = svc.CreateOrgLabel(e.ctx, bob, "acme", issues.CreateLabelOption{Name: "x", Color: "fff"})
	require.True(t, errors.Is(err, forge.ErrForbidden), "%v", err)
	require.Equal(t, "Must be an organization owner", err.Error())
	_, err = svc.CreateOrgLabel(e.ctx, forge.Anonymous, "acme", issues.CreateLabelOption{Name: "x", Color: "fff"})
	require.True(t, errors.Is(err, forge.ErrUnauthenticated), "%v", err)
	_, err = svc.CreateOrgLabel(e.ctx, alice, "nope", issues.CreateLabelOption{Name: "x", Color: "fff"})
	require.True(t, errors.Is(err, forge.ErrNotFound), "%v", err)

	l, err := svc.CreateOrgLabel(e.ctx, alice, "acme", issues.CreateLabelOption{Name: "team/core", Color: "ABC", Exclusive: true})
	require.NoError(t, err)
	require.Equal(t, org.User.ID, l.OrgID)
	require.Equal(t, "#aabbcc", l.Color)
	got, err := svc.GetOrgLabel(e.ctx, bob, "acme", "team/core")
	require.NoError(t, err)
	require.Equal(t, l.ID, got.ID)
	ls, n, err := svc.ListOrgLabels(e.ctx, forge.Anonymous, "acme", "", forge.ListOptions{})
	require.NoError(t, err)
	require.EqualValues(t, 1, n)
	require.Len(t, ls, 1)

	// an organisation label applies to the issues of the organisation's
	// repositories, by id and by name (here a repository stored with the
	// organisation as owner, alice a collaborator)
	require.NoError(t, e.store.Repos().Update(e.ctx, func(tx repos.Tx) error {
		r := &forge.Repository{OwnerID: org.User.ID, Name: "or", DefaultBranch: "main", ObjectFormat: forge.SHA1, HasIssues: true, HasPullRequests: true}
		if err := tx.CreateRepo(e.ctx, r); err != nil {
			return err
		}
		return tx.SetCollaborator(e.ctx, r.ID, alice.User.ID, forge.AccessModeWrite)
	}))
	_, err = svc.Create(e.ctx, alice, "acme", "or", issues.CreateIssueOption{Title: "t", Labels: []forge.ID{l.ID}})
	require.NoError(t, err)
	got2, err := svc.IssueLabels(e.ctx, alice, "acme", "or", 1)
	require.NoError(t, err)
	require.Equal(t, "team/core", labelNames(got2))
	rm, err := svc.RemoveLabel(e.ctx, alice, "acme", "or", 1, "team/core", nil)
	require.NoError(t, err)
	require.Equal(t, l.ID, rm.ID)
	got2, err = svc.IssueLabels(e.ctx, alice, "acme", "or", 1)
	require.NoError(t, err)
	require.Empty(t, got2)
	got2, err = svc.AddLabels(e.ctx, alice, "acme", "or", 1, issues.LabelsOption{Names: []string{"team/core"}})
	require.NoError(t, err)
	require.Equal(t, "team/core", labelNames(got2))
	name := "renamed"
	_, err = svc.EditOrgLabel(e.ctx, alice, "acme", l.ID, issues.EditLabelOption{Name: &name})
	require.NoError(t, err)
	_, err = svc.EditOrgLabel(e.ctx, bob, "acme", l.ID, issues.EditLabelOption{Name: &name})
	require.True(t, errors.Is(err, forge.ErrForbidden))
	require.NoError(t, svc.DeleteOrgLabel(e.ctx, alice, "acme", l.ID))
	_, err = svc.GetOrgLabel(e.ctx, alice, "acme", "renamed")
	require.True(t, errors.Is(err, issues.ErrLabelNotFound), "%v", err)
	// a repository label is no organisation label
	e.repo(alice, "r", false)
	rl := e.label(alice, "alice", "r", "bug", false)
	_, err = svc.GetOrgLabel(e.ctx, alice, "acme", "bug")
	require.True(t, errors.Is(err, forge.ErrNotFound))
	err = svc.DeleteOrgLabel(e.ctx, alice, "acme", rl.ID)
	require.True(t, errors.Is(err, forge.ErrNotFound))
	// without Config.Orgs organisation labels are not found
	_, _, err = e.svc.ListOrgLabels(e.ctx, alice, "acme", "", forge.ListOptions{})
	require.True(t, errors.Is(err, forge.ErrNotFound))
}

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

func TestClearLabelsAndIssueListFilters(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	alice, bob := e.user("alice"), e.user("bob")
	e.repo(alice, "r", false)
	e.collab(alice, "r", bob, forge.AccessModeWrite)
	e.issue(alice, "alice", "r", "one crash")
	e.issue(bob, "alice", "r", "two")
	l := e.label(alice, "alice", "r", "bug", false)
	_, err := e.svc.AddLabels(e.ctx, alice, "alice", "r", 2, issues.LabelsOption{Names: []string{"bug"}})
	require.NoError(t, err)

	list := func(opt issues.ListIssuesOption) string {
		vs, _, err := e.svc.List(e.ctx, alice, "alice", "r", opt)
		require.NoError(t, err)
		s := ""
		for _, v := range vs {
			s += v.Issue.Title + ";"
		}
		return s
	}
	require.Equal(t, "two;one crash;", list(issues.ListIssuesOption{}))
	require.Equal(t, "two;", list(issues.ListIssuesOption{Labels: []string{"bug"}}))
	require.Equal(t, "", list(issues.ListIssuesOption{Labels: []string{"nope"}}))
	require.Equal(t, "two;", list(issues.ListIssuesOption{CreatedBy: "bob"}))
	require.Equal(t, "", list(issues.ListIssuesOption{CreatedBy: "nobody"}))
	require.Equal(t, "one crash;", list(issues.ListIssuesOption{Keyword: "CRASH"}))
	require.Equal(t, "", list(issues.ListIssuesOption{State: issues.StateClosed}))
	require.Equal(t, "", list(issues.ListIssuesOption{Type: issues.TypePulls}))

	require.NoError(t, e.svc.ClearLabels(e.ctx, alice, "alice", "r", 2, nil))
	ls, err := e.svc.IssueLabels(e.ctx, alice, "alice", "r", 2)
	require.NoError(t, err)
	require.Empty(t, ls)
	require.NotNil(t, ls)
	got, err := e.svc.GetLabel(e.ctx, alice, "alice", "r", "bug")
	require.NoError(t, err)
	require.Zero(t, got.NumIssues)
	require.NoError(t, e.svc.DeleteLabel(e.ctx, alice, "alice", "r", l.ID))
	_, _, err = e.svc.ListLabels(e.ctx, alice, "alice", "r", "", forge.ListOptions{})
	require.NoError(t, err)
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
