package httpapi_test

import (
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPullsGiteaSDK drives pull requests end to end with the Gitea Go SDK,
// as a Forgejo automation would, on branches pushed with the git CLI:
// create, list, get, files, commits, diff, review, merge. Every response
// is validated against the document by the environment.
func TestPullsGiteaSDK(t *testing.T) {
	t.Parallel()
	e, w := seededPulls(t)
	alice, err := gitea.NewClient(e.srv.URL, gitea.SetToken(e.alice))
	require.NoError(t, err)
	bob, err := gitea.NewClient(e.srv.URL, gitea.SetToken(e.bob))
	require.NoError(t, err)

	pr, _, err := bob.CreatePullRequest("alice", "proj", gitea.CreatePullRequestOption{Head: "b1", Base: "main", Title: "From the SDK", Body: "hello"})
	require.NoError(t, err)
	assert.EqualValues(t, 1, pr.Index)
	assert.Equal(t, "bob", pr.Poster.UserName)
	assert.Equal(t, "b1", pr.Head.Ref)
	assert.Equal(t, w.git("rev-parse", "b1"), pr.Head.Sha)
	assert.Equal(t, "main", pr.Base.Ref)
	assert.True(t, pr.Mergeable)
	_, _, err = bob.CreatePullRequest("alice", "proj", gitea.CreatePullRequestOption{Head: "b1", Base: "main", Title: "again"})
	require.Error(t, err, "a duplicate is 409")

	list, resp, err := alice.ListRepoPullRequests("alice", "proj", gitea.ListPullRequestsOptions{State: gitea.StateOpen})
	require.NoError(t, err)
	require.Len(t, list, 1)
	assert.Equal(t, "From the SDK", list[0].Title)
	assert.Equal(t, "1", resp.Header.Get("X-Total-Count"))
	got, _, err := alice.GetPullRequestByBaseHead("alice", "proj", "main", "b1")
	require.NoError(t, err)
	assert.Equal(t, pr.ID, got.ID)

	files, _, err := alice.ListPullRequestFiles("alice", "proj", 1, gitea.ListPullRequestFilesOptions{})
	require.NoError(t, err)
	require.Len(t, files, 2)
	assert.Equal(t, "a.txt", files[0].Filename)
	commits, _, err := alice.ListPullRequestCommits("alice", "proj", 1, gitea.ListPullRequestCommitsOptions{})
	require.NoError(t, err)
	require.Len(t, commits, 1)
	assert.Equal(t, "b1 change\n", commits[0].RepoCommit.Message)
	diff, _, err := alice.GetPullRequestDiff("alice", "proj", 1, gitea.PullRequestDiffOptions{})
	require.NoError(t, err)
	assert.Contains(t, string(diff), "+2 changed")

	rv, _, err := alice.CreatePullReview("alice", "proj", 1, gitea.CreatePullReviewOptions{State: gitea.ReviewStateApproved, Body: "ship it"})
	require.NoError(t, err)
	assert.Equal(t, gitea.ReviewStateApproved, rv.State)
	assert.Equal(t, "alice", rv.Reviewer.UserName)
	reviews, _, err := bob.ListPullReviews("alice", "proj", 1, gitea.ListPullReviewsOptions{})
	require.NoError(t, err)
	require.Len(t, reviews, 1)
	assert.Equal(t, "ship it", reviews[0].Body)

	merged, _, err := alice.IsPullRequestMerged("alice", "proj", 1)
	require.NoError(t, err)
	assert.False(t, merged)
	ok, _, err := alice.MergePullRequest("alice", "proj", 1, gitea.MergePullRequestOption{Style: gitea.MergeStyleSquash, Title: "Squashed"})
	require.NoError(t, err)
	assert.True(t, ok)
	merged, _, err = alice.IsPullRequestMerged("alice", "proj", 1)
	require.NoError(t, err)
	assert.True(t, merged)
	pr, _, err = alice.GetPullRequest("alice", "proj", 1)
	require.NoError(t, err)
	assert.True(t, pr.HasMerged)
	assert.Equal(t, gitea.StateClosed, pr.State)
	require.NotNil(t, pr.MergedCommitID)
	w.fetch()
	assert.Equal(t, *pr.MergedCommitID, w.git("rev-parse", "o/main"))
	assert.Equal(t, "Squashed", w.git("log", "-1", "--format=%s", "o/main"))
}
