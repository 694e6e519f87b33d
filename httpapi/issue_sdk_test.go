package httpapi_test

import (
	"strings"
	"testing"
	"time"

	"code.gitea.io/sdk/gitea"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestIssuesGiteaSDK drives issues, comments, labels and milestones end to
// end with the Gitea Go SDK, as a Forgejo automation would; every response
// is validated against the document by the environment.
func TestIssuesGiteaSDK(t *testing.T) {
	t.Parallel()
	e := newIssueEnv(t)
	c, err := gitea.NewClient(e.srv.URL, gitea.SetToken(e.alice))
	require.NoError(t, err)
	bob, err := gitea.NewClient(e.srv.URL, gitea.SetToken(e.bob))
	require.NoError(t, err)

	// Labels.
	bug, _, err := c.CreateLabel("alice", "proj", gitea.CreateLabelOption{Name: "bug", Color: "#ee0701", Description: "broken"})
	require.NoError(t, err)
	assert.Equal(t, "ee0701", bug.Color)
	high, _, err := c.CreateLabel("alice", "proj", gitea.CreateLabelOption{Name: "prio/high", Color: "#ff0000", Exclusive: true})
	require.NoError(t, err)
	low, _, err := c.CreateLabel("alice", "proj", gitea.CreateLabelOption{Name: "prio/low", Color: "00ff00", Exclusive: true})
	require.NoError(t, err)
	desc := "really broken"
	edited, _, err := c.EditLabel("alice", "proj", bug.ID, gitea.EditLabelOption{Description: &desc})
	require.NoError(t, err)
	assert.Equal(t, desc, edited.Description)
	got, _, err := c.GetRepoLabel("alice", "proj", bug.ID)
	require.NoError(t, err)
	assert.Equal(t, "bug", got.Name)
	labels, _, err := c.ListRepoLabels("alice", "proj", gitea.ListLabelsOptions{})
	require.NoError(t, err)
	assert.Len(t, labels, 3)

	// Milestones.
	due := time.Date(2030, 6, 1, 0, 0, 0, 0, time.UTC)
	ms, _, err := c.CreateMilestone("alice", "proj", gitea.CreateMilestoneOption{Title: "v1", Description: "first", Deadline: &due})
	require.NoError(t, err)
	assert.Equal(t, gitea.StateOpen, ms.State)
	byName, _, err := c.GetMilestoneByName("alice", "proj", "v1")
	require.NoError(t, err)
	assert.Equal(t, ms.ID, byName.ID)

	// Issues.
	is, _, err := bob.CreateIssue("alice", "proj", gitea.CreateIssueOption{Title: "crash on start", Body: "trace"})
	require.NoError(t, err)
	assert.EqualValues(t, 1, is.Index)
	assert.Equal(t, "bob", is.Poster.UserName)
	assert.Equal(t, "alice/proj", is.Repository.FullName)
	title := "crash on start-up"
	is, _, err = c.EditIssue("alice", "proj", is.Index, gitea.EditIssueOption{Title: title, Milestone: &ms.ID, Assignees: []string{"bob"}})
	require.NoError(t, err, "the SDK accepts Forgejo's 201")
	assert.Equal(t, title, is.Title)
	require.NotNil(t, is.Milestone)
	assert.Equal(t, "v1", is.Milestone.Title)
	require.Len(t, is.Assignees, 1)
	other, _, err := c.CreateIssue("alice", "proj", gitea.CreateIssueOption{Title: "docs", Labels: []int64{bug.ID}})
	require.NoError(t, err)
	require.Len(t, other.Labels, 1)

	// Issue labels, with an exclusive scope.
	ls, _, err := c.AddIssueLabels("alice", "proj", is.Index, gitea.IssueLabelsOption{Labels: []int64{high.ID, bug.ID}})
	require.NoError(t, err)
	assert.Len(t, ls, 2)
	ls, _, err = c.AddIssueLabels("alice", "proj", is.Index, gitea.IssueLabelsOption{Labels: []int64{low.ID}})
	require.NoError(t, err)
	assert.ElementsMatch(t, []string{"bug", "prio/low"}, labelNamesOf(ls))
	ls, _, err = c.ReplaceIssueLabels("alice", "proj", is.Index, gitea.IssueLabelsOption{Labels: []int64{high.ID}})
	require.NoError(t, err)
	assert.Equal(t, []string{"prio/high"}, labelNamesOf(ls))
	_, err = c.DeleteIssueLabel("alice", "proj", is.Index, high.ID)
	require.NoError(t, err)
	ls, _, err = c.GetIssueLabels("alice", "proj", is.Index, gitea.ListLabelsOptions{})
	require.NoError(t, err)
	assert.Empty(t, ls)
	_, _, err = c.AddIssueLabels("alice", "proj", is.Index, gitea.IssueLabelsOption{Labels: []int64{bug.ID}})
	require.NoError(t, err)
	_, err = c.ClearIssueLabels("alice", "proj", is.Index)
	require.NoError(t, err)

	// Listing with filters.
	list, resp, err := c.ListRepoIssues("alice", "proj", gitea.ListIssueOption{State: gitea.StateOpen, Type: gitea.IssueTypeIssue, CreatedBy: "bob"})
	require.NoError(t, err)
	require.Len(t, list, 1)
	assert.Equal(t, title, list[0].Title)
	assert.Equal(t, "1", resp.Header.Get("X-Total-Count"))
	list, _, err = c.ListRepoIssues("alice", "proj", gitea.ListIssueOption{Labels: []string{"bug"}})
	require.NoError(t, err)
	require.Len(t, list, 1)
	assert.Equal(t, "docs", list[0].Title)
	list, _, err = c.ListRepoIssues("alice", "proj", gitea.ListIssueOption{Milestones: []string{"v1"}, KeyWord: "crash"})
	require.NoError(t, err)
	require.Len(t, list, 1)

	// Comments.
	cm, _, err := bob.CreateIssueComment("alice", "proj", is.Index, gitea.CreateIssueCommentOption{Body: "me too"})
	require.NoError(t, err)
	assert.Equal(t, "me too", cm.Body)
	cm, _, err = bob.EditIssueComment("alice", "proj", cm.ID, gitea.EditIssueCommentOption{Body: "me too!"})
	require.NoError(t, err)
	assert.Equal(t, "me too!", cm.Body)
	one, _, err := c.GetIssueComment("alice", "proj", cm.ID)
	require.NoError(t, err)
	assert.Equal(t, "me too!", one.Body)
	comments, _, err := c.ListIssueComments("alice", "proj", is.Index, gitea.ListIssueCommentOptions{})
	require.NoError(t, err)
	assert.Len(t, comments, 1)
	all, _, err := c.ListRepoIssueComments("alice", "proj", gitea.ListIssueCommentOptions{})
	require.NoError(t, err)
	assert.Len(t, all, 1)
	at, _, err := bob.CreateIssueCommentAttachment("alice", "proj", cm.ID, strings.NewReader("log"), "log.txt")
	require.NoError(t, err)
	assert.Equal(t, "log.txt", at.Name)
	at, _, err = bob.CreateIssueAttachment("alice", "proj", is.Index, strings.NewReader("shot"), "shot.png")
	require.NoError(t, err)
	assert.EqualValues(t, 4, at.Size)
	_, err = bob.DeleteIssueComment("alice", "proj", cm.ID)
	require.NoError(t, err)

	// Close, milestone counters, clean-up.
	closed := gitea.StateClosed
	is, _, err = c.EditIssue("alice", "proj", is.Index, gitea.EditIssueOption{State: &closed})
	require.NoError(t, err)
	assert.Equal(t, gitea.StateClosed, is.State)
	ms, _, err = c.GetMilestone("alice", "proj", ms.ID)
	require.NoError(t, err)
	assert.Equal(t, 1, ms.ClosedIssues)
	assert.Equal(t, 0, ms.OpenIssues)
	mss, _, err := c.ListRepoMilestones("alice", "proj", gitea.ListMilestoneOption{State: gitea.StateAll})
	require.NoError(t, err)
	assert.Len(t, mss, 1)
	newTitle := "v1.0"
	ms, _, err = c.EditMilestone("alice", "proj", ms.ID, gitea.EditMilestoneOption{Title: newTitle})
	require.NoError(t, err)
	assert.Equal(t, newTitle, ms.Title)
	_, err = c.DeleteMilestone("alice", "proj", ms.ID)
	require.NoError(t, err)
	_, err = c.DeleteLabel("alice", "proj", bug.ID)
	require.NoError(t, err)
	_, err = c.DeleteIssue("alice", "proj", other.Index)
	require.NoError(t, err)
	_, resp, err = c.GetIssue("alice", "proj", other.Index)
	require.Error(t, err)
	assert.Equal(t, 404, resp.StatusCode)
}

func labelNamesOf(ls []*gitea.Label) []string {
	out := make([]string, len(ls))
	for i, l := range ls {
		out[i] = l.Name
	}
	return out
}
