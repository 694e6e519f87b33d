package storetest

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/orgs"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/issues"
)

// testPullsDeletions: what other deletions do to pull requests and review
// requests. Deleting the head fork leaves its pull requests with head
// repository 0 (PullRequest.HeadRepoID's contract); deleting a team, or its
// organisation, withdraws the reviews requested from it (Forgejo's
// DeleteTeam), and no other review.
func testPullsDeletions(t *testing.T, b Backend) {
	ctx := context.Background()
	s := b.Issues()
	ann := newUser(t, b, "dpann")
	r := newRepo(t, b, ann, "dpulls")
	fork := newRepo(t, b, ann, "dpulls-fork")
	i := newIssue(t, s, r.ID, ann.ID, "from the fork", func(i *issues.Issue) { i.IsPull = true })
	p := &issues.PullRequest{IssueID: i.ID, Index: i.Index, BaseRepoID: r.ID, HeadRepoID: fork.ID, BaseBranch: "main", HeadBranch: "h"}
	issueUpdate(t, s, func(tx issues.Tx) error { return tx.CreatePull(ctx, p) })

	org := newOrg(t, b, "dpreviewers")
	t1 := &forge.Team{OrgID: org.ID, Name: "one", Mode: forge.AccessModeRead}
	t2 := &forge.Team{OrgID: org.ID, Name: "two", Mode: forge.AccessModeRead}
	orgUpdate(t, b.Orgs(), func(tx orgs.Tx) error {
		require.NoError(t, tx.CreateTeam(ctx, t1))
		return tx.CreateTeam(ctx, t2)
	})
	req := func(team, user forge.ID) *issues.Review {
		return &issues.Review{IssueID: i.ID, Type: issues.ReviewRequest, ReviewerTeamID: team, ReviewerID: user, Created: issueAt, Updated: issueAt}
	}
	r1, r2, userReq := req(t1.ID, 0), req(t2.ID, 0), req(0, ann.ID)
	issueUpdate(t, s, func(tx issues.Tx) error {
		for _, rv := range []*issues.Review{r1, r2, userReq} {
			require.NoError(t, tx.CreateReview(ctx, rv))
		}
		return nil
	})
	exists := func(id forge.ID) bool {
		var err error
		issueView(t, s, func(tx issues.Tx) error { _, err = tx.ReviewByID(ctx, id); return nil })
		return err == nil
	}

	t.Run("HeadFork", func(t *testing.T) {
		repoUpdate(t, b.Repos(), func(tx repos.Tx) error { return tx.DeleteRepo(ctx, fork.ID) })
		issueView(t, s, func(tx issues.Tx) error {
			got, err := tx.PullByIssueID(ctx, i.ID)
			require.NoError(t, err, "the base's pull request stays")
			assert.Zero(t, got.HeadRepoID, "a deleted head fork is head repository 0")
			assert.Equal(t, "h", got.HeadBranch)
			list, err := tx.FindPulls(ctx, issues.PullFilter{HeadRepoID: fork.ID})
			require.NoError(t, err)
			assert.Empty(t, list)
			list, err = tx.FindPulls(ctx, issues.PullFilter{BaseRepoID: r.ID})
			require.NoError(t, err)
			assert.Len(t, list, 1)
			return nil
		})
	})

	t.Run("Teams", func(t *testing.T) {
		orgUpdate(t, b.Orgs(), func(tx orgs.Tx) error { return tx.DeleteTeam(ctx, t1.ID) })
		assert.False(t, exists(r1.ID), "the deleted team's request")
		assert.True(t, exists(r2.ID), "another team's request")
		orgUpdate(t, b.Orgs(), func(tx orgs.Tx) error { return tx.DeleteOrg(ctx, org.ID) })
		assert.False(t, exists(r2.ID), "the requests of a deleted organisation's teams")
		assert.True(t, exists(userReq.ID), "a user's request")
		issueView(t, s, func(tx issues.Tx) error {
			list, n, err := tx.ListReviews(ctx, issues.ReviewFilter{IssueID: i.ID}, forge.ListOptions{Page: 1, Limit: 10})
			require.NoError(t, err)
			assert.EqualValues(t, 1, n)
			require.Len(t, list, 1)
			assert.Equal(t, userReq.ID, list[0].ID)
			return nil
		})
	})
}
