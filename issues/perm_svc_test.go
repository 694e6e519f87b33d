package issues_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/forgetest"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/issues"
)

// permEnv: alice owns public alice/pub and private alice/priv; bob writes
// to both; carol is a stranger; #1 of alice/pub is carol's, #1 of
// alice/priv is alice's.
type permEnv struct {
	*env
	alice, bob, carol forge.Actor
}

func newPermEnv(t *testing.T) *permEnv {
	e := newEnv(t)
	p := &permEnv{env: e, alice: e.user("alice"), bob: e.user("bob"), carol: e.user("carol")}
	e.repo(p.alice, "pub", false)
	e.repo(p.alice, "priv", true)
	e.collab(p.alice, "pub", p.bob, forge.AccessModeWrite)
	e.collab(p.alice, "priv", p.bob, forge.AccessModeWrite)
	e.issue(p.carol, "alice", "pub", "carol's")
	e.issue(p.alice, "alice", "priv", "secret")
	return p
}

func isKind(t *testing.T, err error, kind error) {
	t.Helper()
	require.Error(t, err)
	require.True(t, errors.Is(err, kind), "want %v, got %v", kind, err)
}

func TestPrivateRepoIsNotFound(t *testing.T) {
	t.Parallel()
	p := newPermEnv(t)
	_, err := p.svc.Get(p.ctx, p.carol, "alice", "priv", 1)
	isKind(t, err, forge.ErrNotFound)
	_, err = p.svc.Get(p.ctx, forge.Anonymous, "alice", "priv", 1)
	isKind(t, err, forge.ErrNotFound)
	_, err = p.svc.CreateComment(p.ctx, p.carol, "alice", "priv", 1, issues.CreateCommentOption{Body: "x"})
	isKind(t, err, forge.ErrNotFound)
	_, _, err = p.svc.List(p.ctx, p.carol, "alice", "priv", issues.ListIssuesOption{})
	isKind(t, err, forge.ErrNotFound)
	_, _, err = p.svc.ListLabels(p.ctx, p.carol, "alice", "priv", "", forge.ListOptions{})
	isKind(t, err, forge.ErrNotFound)
	v, err := p.svc.Get(p.ctx, p.bob, "alice", "priv", 1)
	require.NoError(t, err)
	require.Equal(t, "secret", v.Issue.Title)
}

func TestUnknownIssueCommentLabelMilestone(t *testing.T) {
	t.Parallel()
	p := newPermEnv(t)
	_, err := p.svc.Get(p.ctx, p.alice, "alice", "pub", 99)
	isKind(t, err, issues.ErrIssueNotFound)
	require.Equal(t, "issue does not exist [id: 0, repo_id: 1, index: 99]", err.Error())
	_, err = p.svc.GetComment(p.ctx, p.alice, "alice", "pub", 99)
	isKind(t, err, issues.ErrCommentNotFound)
	_, err = p.svc.GetLabel(p.ctx, p.alice, "alice", "pub", "99")
	isKind(t, err, issues.ErrLabelNotFound)
	_, err = p.svc.GetMilestone(p.ctx, p.alice, "alice", "pub", "99")
	isKind(t, err, issues.ErrMilestoneNotFound)
	// a comment of another repository is not found through this one
	c, err := p.svc.CreateComment(p.ctx, p.alice, "alice", "priv", 1, issues.CreateCommentOption{Body: "x"})
	require.NoError(t, err)
	_, err = p.svc.GetComment(p.ctx, p.alice, "alice", "pub", c.Comment.ID)
	isKind(t, err, forge.ErrNotFound)
	_, err = p.svc.EditComment(p.ctx, p.alice, "alice", "pub", c.Comment.ID, issues.EditCommentOption{Body: "y"})
	isKind(t, err, forge.ErrNotFound)
	// a label of another repository is not found through this one
	l := p.label(p.alice, "alice", "priv", "hidden", false)
	_, err = p.svc.EditLabel(p.ctx, p.alice, "alice", "pub", l.ID, issues.EditLabelOption{})
	isKind(t, err, forge.ErrNotFound)
	isKind(t, p.svc.DeleteLabel(p.ctx, p.alice, "alice", "pub", l.ID), forge.ErrNotFound)
}

func TestPosterAndWriterRules(t *testing.T) {
	t.Parallel()
	p := newPermEnv(t)
	dave := p.user("dave")
	title := "x"
	// a stranger may not edit carol's issue: the bare 403
	_, err := p.svc.Edit(p.ctx, dave, "alice", "pub", 1, issues.EditIssueOption{Title: &title})
	isKind(t, err, issues.ErrNotPoster)
	isKind(t, err, forge.ErrForbidden)
	// the poster may edit title and state, but not the milestone
	m, err := p.svc.CreateMilestone(p.ctx, p.bob, "alice", "pub", issues.CreateMilestoneOption{Title: "m"})
	require.NoError(t, err)
	closed := issues.StateClosed
	v, err := p.svc.Edit(p.ctx, p.carol, "alice", "pub", 1, issues.EditIssueOption{Title: &title, State: &closed, Milestone: &m.ID})
	require.NoError(t, err)
	require.Equal(t, "x", v.Issue.Title)
	require.True(t, v.Issue.IsClosed)
	require.Zero(t, v.Issue.MilestoneID, "poster may not set the milestone")
	// a writer may
	v, err = p.svc.Edit(p.ctx, p.bob, "alice", "pub", 1, issues.EditIssueOption{Milestone: &m.ID})
	require.NoError(t, err)
	require.Equal(t, m.ID, v.Issue.MilestoneID)
	require.Equal(t, 1, v.Milestone.NumClosedIssues)
	// labels: posters may not
	l := p.label(p.alice, "alice", "pub", "bug", false)
	_, err = p.svc.AddLabels(p.ctx, p.carol, "alice", "pub", 1, issues.LabelsOption{IDs: []forge.ID{l.ID}})
	isKind(t, err, issues.ErrNotPoster)
	// label and milestone writes: writers only, with Forgejo's message
	_, err = p.svc.CreateLabel(p.ctx, p.carol, "alice", "pub", issues.CreateLabelOption{Name: "x", Color: "fff"})
	isKind(t, err, forge.ErrForbidden)
	require.Equal(t, "user should have a permission to write to a repo", err.Error())
	_, err = p.svc.CreateMilestone(p.ctx, p.carol, "alice", "pub", issues.CreateMilestoneOption{Title: "x"})
	isKind(t, err, forge.ErrForbidden)
	// comments: poster or writer
	c, err := p.svc.CreateComment(p.ctx, p.carol, "alice", "pub", 1, issues.CreateCommentOption{Body: "mine"})
	require.NoError(t, err)
	_, err = p.svc.EditComment(p.ctx, dave, "alice", "pub", c.Comment.ID, issues.EditCommentOption{Body: "x"})
	isKind(t, err, issues.ErrNotPoster)
	isKind(t, p.svc.DeleteComment(p.ctx, dave, "alice", "pub", 0, c.Comment.ID), issues.ErrNotPoster)
	_, err = p.svc.EditComment(p.ctx, p.bob, "alice", "pub", c.Comment.ID, issues.EditCommentOption{Body: "by bob"})
	require.NoError(t, err)
	// delete: repository admins only
	isKind(t, p.svc.Delete(p.ctx, p.bob, "alice", "pub", 1), forge.ErrForbidden)
	require.NoError(t, p.svc.Delete(p.ctx, p.alice, "alice", "pub", 1))
	_, err = p.svc.Get(p.ctx, p.alice, "alice", "pub", 1)
	isKind(t, err, issues.ErrIssueNotFound)
	got, err := p.svc.GetMilestone(p.ctx, p.alice, "alice", "pub", "m")
	require.NoError(t, err)
	require.Zero(t, got.NumIssues, "deleting the issue updates its milestone's counters")
}

func TestScopesAndTokens(t *testing.T) {
	t.Parallel()
	p := newPermEnv(t)
	readOnly := forgetest.TokenActor(p.bob.User, "read:issue")
	_, err := p.svc.Get(p.ctx, readOnly, "alice", "pub", 1)
	require.NoError(t, err)
	_, err = p.svc.CreateComment(p.ctx, readOnly, "alice", "pub", 1, issues.CreateCommentOption{Body: "x"})
	isKind(t, err, forge.ErrForbidden)
	require.Equal(t, "token does not have at least one of required scope(s): [write:issue]", err.Error())
	repoOnly := forgetest.TokenActor(p.bob.User, "write:repository")
	_, err = p.svc.Get(p.ctx, repoOnly, "alice", "pub", 1)
	isKind(t, err, forge.ErrForbidden)
	_, err = p.svc.CreateComment(p.ctx, forge.Anonymous, "alice", "pub", 1, issues.CreateCommentOption{Body: "x"})
	isKind(t, err, forge.ErrUnauthenticated)
	require.Equal(t, "token is required", err.Error())
	inactive := p.user("ina", func(u *forge.User) { u.IsActive = false })
	_, err = p.svc.Get(p.ctx, inactive, "alice", "pub", 1)
	isKind(t, err, forge.ErrForbidden)
}

func TestArchivedAndLockedAndUnits(t *testing.T) {
	t.Parallel()
	p := newPermEnv(t)
	r, err := p.repos.Get(p.ctx, p.alice, "alice", "pub")
	require.NoError(t, err)
	p.setRepo(r.Repo, func(r *forge.Repository) { r.Archived = true })
	_, err = p.svc.Create(p.ctx, p.alice, "alice", "pub", issues.CreateIssueOption{Title: "x"})
	isKind(t, err, forge.ErrArchived)
	require.Equal(t, "<Repository 1:alice/pub> is archived", err.Error())
	_, err = p.svc.CreateComment(p.ctx, p.alice, "alice", "pub", 1, issues.CreateCommentOption{Body: "x"})
	isKind(t, err, forge.ErrArchived)
	// issue edits and label changes have no archived check
	title := "still"
	_, err = p.svc.Edit(p.ctx, p.alice, "alice", "pub", 1, issues.EditIssueOption{Title: &title})
	require.NoError(t, err)
	p.setRepo(r.Repo, func(r *forge.Repository) { r.Archived = false })

	// locked: only writers and site admins comment
	require.NoError(t, p.store.Issues().Update(p.ctx, func(tx issues.Tx) error {
		is, err := tx.IssueByIndex(p.ctx, r.Repo.ID, 1)
		if err != nil {
			return err
		}
		is.IsLocked = true
		return tx.UpdateIssue(p.ctx, is)
	}))
	_, err = p.svc.CreateComment(p.ctx, p.carol, "alice", "pub", 1, issues.CreateCommentOption{Body: "x"})
	isKind(t, err, forge.ErrForbidden)
	require.Equal(t, "You cannot comment on a locked issue.", err.Error())
	_, err = p.svc.CreateComment(p.ctx, p.bob, "alice", "pub", 1, issues.CreateCommentOption{Body: "x"})
	require.NoError(t, err)

	// issues unit disabled: 404
	p.setRepo(r.Repo, func(r *forge.Repository) { r.HasIssues = false })
	_, err = p.svc.Get(p.ctx, p.alice, "alice", "pub", 1)
	isKind(t, err, forge.ErrNotFound)
	_, err = p.svc.Create(p.ctx, p.alice, "alice", "pub", issues.CreateIssueOption{Title: "x"})
	isKind(t, err, forge.ErrNotFound)
}

func TestEditValidation(t *testing.T) {
	t.Parallel()
	p := newPermEnv(t)
	no := false
	_, err := p.svc.Edit(p.ctx, p.alice, "alice", "pub", 1, issues.EditIssueOption{UnsetDeadline: &no})
	isKind(t, err, issues.ErrBadRequest)
	require.Equal(t, "The due_date cannot be empty", err.Error())
	bad := forge.ID(42)
	_, err = p.svc.Edit(p.ctx, p.alice, "alice", "pub", 1, issues.EditIssueOption{Milestone: &bad})
	isKind(t, err, issues.ErrMilestoneNotFound)
	_, err = p.svc.Edit(p.ctx, p.alice, "alice", "pub", 1, issues.EditIssueOption{Assignees: []string{"nobody"}})
	isKind(t, err, forge.ErrInvalid)
	_, err = p.svc.Edit(p.ctx, p.alice, "alice", "pub", 1, issues.EditIssueOption{Assignees: []string{"carol"}})
	isKind(t, err, forge.ErrInvalid) // carol cannot write: not assignable
	v, err := p.svc.Edit(p.ctx, p.alice, "alice", "pub", 1, issues.EditIssueOption{Assignees: []string{"bob", "alice", "bob"}})
	require.NoError(t, err)
	require.Len(t, v.Assignees, 2)
	require.Equal(t, "bob", v.Assignees[0].Name)
	v, err = p.svc.Edit(p.ctx, p.alice, "alice", "pub", 1, issues.EditIssueOption{Assignees: []string{}})
	require.NoError(t, err)
	require.Empty(t, v.Assignees)
	_, err = p.svc.Create(p.ctx, p.alice, "alice", "pub", issues.CreateIssueOption{Title: "  "})
	isKind(t, err, forge.ErrInvalid)
	_, err = p.svc.CreateComment(p.ctx, p.alice, "alice", "pub", 1, issues.CreateCommentOption{})
	isKind(t, err, forge.ErrInvalid)
	require.Equal(t, "[Body]: Required", err.Error())
}

func TestCreateCountersAndRepoCounts(t *testing.T) {
	t.Parallel()
	p := newPermEnv(t)
	m, err := p.svc.CreateMilestone(p.ctx, p.alice, "alice", "pub", issues.CreateMilestoneOption{Title: "m"})
	require.NoError(t, err)
	v, err := p.svc.Create(p.ctx, p.alice, "alice", "pub", issues.CreateIssueOption{Title: "closed one", Closed: true, Milestone: m.ID})
	require.NoError(t, err)
	require.True(t, v.Issue.IsClosed)
	require.Equal(t, 1, v.Milestone.NumIssues)
	require.Equal(t, 1, v.Milestone.NumClosedIssues)
	// a poster who cannot write sets no milestone
	v, err = p.svc.Create(p.ctx, p.carol, "alice", "pub", issues.CreateIssueOption{Title: "c", Milestone: m.ID})
	require.NoError(t, err)
	require.Nil(t, v.Milestone)
	r, err := p.repos.Get(p.ctx, p.alice, "alice", "pub")
	require.NoError(t, err)
	counter := issues.NewRepoCounter(p.store.Issues())
	counts, err := counter.RepoIssueCounts(p.ctx, []forge.ID{r.Repo.ID, 999})
	require.NoError(t, err)
	require.Equal(t, repos.IssueCounts{OpenIssues: 2, ClosedIssues: 1}, counts[r.Repo.ID])
	require.NotContains(t, counts, forge.ID(999))
	// closing with the edit moves the counters; deleting too
	closed := issues.StateClosed
	_, err = p.svc.Edit(p.ctx, p.alice, "alice", "pub", 1, issues.EditIssueOption{State: &closed})
	require.NoError(t, err)
	counts, err = counter.RepoIssueCounts(p.ctx, []forge.ID{r.Repo.ID})
	require.NoError(t, err)
	require.Equal(t, repos.IssueCounts{OpenIssues: 1, ClosedIssues: 2}, counts[r.Repo.ID])
}

func TestAssigneeMessages(t *testing.T) {
	t.Parallel()
	p := newPermEnv(t)
	_, err := p.svc.Create(p.ctx, p.alice, "alice", "pub", issues.CreateIssueOption{Title: "t", Assignees: []string{"Nobody"}})
	require.Equal(t, "Assignee does not exist: [name: user does not exist [uid: 0, name: Nobody]]", err.Error())
	_, err = p.svc.Create(p.ctx, p.alice, "alice", "pub", issues.CreateIssueOption{Title: "t", Assignees: []string{"carol"}})
	require.Equal(t, fmt.Sprintf("user doesn't have access to repo [user_id: %d, repo_name: pub]", p.carol.User.ID), err.Error())
	v, err := p.svc.Create(p.ctx, p.alice, "alice", "pub", issues.CreateIssueOption{Title: "t", Assignees: []string{"bob"}})
	require.NoError(t, err)
	require.Equal(t, "bob", v.Assignees[0].Name)
}
