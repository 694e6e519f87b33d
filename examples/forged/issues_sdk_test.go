package main

import (
	"path/filepath"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestIssuesWired checks forged serves the issue tracker, and that it
// survives a restart on the same data directory: an issue, a label, a
// milestone and a comment made through the Gitea SDK are there after.
func TestIssuesWired(t *testing.T) {
	t.Parallel()
	data := filepath.Join(t.TempDir(), "data")
	env := map[string]string{"FORGED_ADMIN_USER": "boss", "FORGED_ADMIN_PASSWORD": "boss-password"}
	s := start(t, data, env)
	c, err := gitea.NewClient(s.url, gitea.SetBasicAuth("boss", "boss-password"))
	require.NoError(t, err)
	_, _, err = c.CreateRepo(gitea.CreateRepoOption{Name: "tracker"})
	require.NoError(t, err)
	l, _, err := c.CreateLabel("boss", "tracker", gitea.CreateLabelOption{Name: "bug", Color: "#ee0701"})
	require.NoError(t, err)
	m, _, err := c.CreateMilestone("boss", "tracker", gitea.CreateMilestoneOption{Title: "v1"})
	require.NoError(t, err)
	is, _, err := c.CreateIssue("boss", "tracker", gitea.CreateIssueOption{Title: "it breaks", Labels: []int64{l.ID}, Milestone: m.ID})
	require.NoError(t, err)
	_, _, err = c.CreateIssueComment("boss", "tracker", is.Index, gitea.CreateIssueCommentOption{Body: "confirmed"})
	require.NoError(t, err)
	require.NoError(t, s.stop())

	s = start(t, data, env)
	c, err = gitea.NewClient(s.url, gitea.SetBasicAuth("boss", "boss-password"))
	require.NoError(t, err)
	got, _, err := c.GetIssue("boss", "tracker", is.Index)
	require.NoError(t, err)
	assert.Equal(t, "it breaks", got.Title)
	require.Len(t, got.Labels, 1)
	assert.Equal(t, "bug", got.Labels[0].Name)
	require.NotNil(t, got.Milestone)
	assert.Equal(t, 1, got.Milestone.OpenIssues)
	assert.Equal(t, 1, got.Comments)
}
