package issues_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/orgs"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/issues"
	"github.com/hearthforge/hearth/storage/memstore"
)

// TestPullTeamReviewsAndWhitelists: a team of the organisation owning the
// repository can be asked to review (404 for an unknown team, invalid for a
// team without the private repository, ignored on a user's repository),
// the request is kept once and can be cancelled; a member of a team of the
// merge whitelist may merge and one of the approvals whitelist approves
// officially, a writer in no whitelisted team does neither.
func TestPullTeamReviewsAndWhitelists(t *testing.T) {
	t.Parallel()
	ms := memstore.New()
	e := newPullEnvOn(t, ms)
	orgSvc, orgPorts, err := orgs.NewWithPorts(orgs.Config{Store: ms.Orgs(), Repos: e.repos, Clock: e.clock})
	require.NoError(t, err)
	e.svc, err = issues.New(issues.Config{Store: ms.Issues(), Repos: e.repos, Clock: e.clock, Teams: orgSvc, TeamLookup: orgPorts,
		Pulls: issues.PullConfig{Git: e.git, Repos: e.repos}})
	require.NoError(t, err)
	ctx := e.ctx

	boss := e.user("boss")
	boss.User.AllowCreateOrganization = true
	dev1, dev3 := e.user("dev1"), e.user("dev3")
	_, err = orgSvc.Create(ctx, boss, orgs.CreateOptions{Name: "acme"})
	require.NoError(t, err)
	v, err := e.repos.CreateInOrg(ctx, boss, "acme", repos.CreateOptions{Name: "svc", Private: true, DefaultBranch: "main"})
	require.NoError(t, err)
	e.commit(boss, v.Repo, "", "main", "init\n", op("create", "a.txt", "1\n"))
	repo, _, err := e.repos.RepoAccess(ctx, boss, "acme", "svc")
	require.NoError(t, err)
	devs, err := orgSvc.CreateTeam(ctx, boss, "acme", orgs.CreateTeamOptions{Name: "devs", Permission: "write",
		UnitsMap: map[string]string{"repo.code": "write", "repo.pulls": "write"}})
	require.NoError(t, err)
	require.NoError(t, orgSvc.AddTeamMember(ctx, boss, devs.Team.ID, "dev1"))
	require.NoError(t, orgSvc.AddTeamRepo(ctx, boss, devs.Team.ID, "acme", "svc"))
	_, err = orgSvc.CreateTeam(ctx, boss, "acme", orgs.CreateTeamOptions{Name: "others", Permission: "read",
		UnitsMap: map[string]string{"repo.code": "read"}})
	require.NoError(t, err)
	require.NoError(t, e.repos.AddCollaborator(ctx, boss, "acme", "svc", "dev3", forge.AccessModeWrite))

	e.commit(boss, repo, "main", "feat", "feat\n", op("create", "f.txt", "f\n"))
	pr := e.pull(boss, repo, "feat", "main", "feature")

	req := func(names ...string) ([]*issues.ReviewView, error) {
		return e.svc.RequestReviews(ctx, boss, "acme", "svc", pr.Issue.Index, issues.ReviewRequestOption{TeamReviewers: names})
	}
	got, err := req("devs")
	require.NoError(t, err)
	require.Len(t, got, 1)
	require.NotNil(t, got[0].Team)
	assert.Equal(t, devs.Team.ID, got[0].Team.ID)
	again, err := req("DEVS")
	require.NoError(t, err)
	require.Len(t, again, 1)
	assert.Equal(t, got[0].Review.ID, again[0].Review.ID, "an existing request is kept")
	_, err = req("ghost")
	assert.ErrorIs(t, err, forge.ErrNotFound)
	_, err = req("others")
	assert.ErrorIs(t, err, forge.ErrInvalid, "a team without the private repository")
	pv := e.get(boss, repo, pr.Issue.Index)
	require.Len(t, pv.RequestedTeams, 1)
	assert.Equal(t, devs.Team.ID, pv.RequestedTeams[0].ID)
	require.NoError(t, e.svc.CancelReviewRequests(ctx, boss, "acme", "svc", pr.Issue.Index, issues.ReviewRequestOption{TeamReviewers: []string{"devs"}}))
	assert.Empty(t, e.get(boss, repo, pr.Issue.Index).RequestedTeams)

	// A user's repository: team reviewers are ignored.
	own := e.repo(dev3, "mine", forge.SHA1)
	e.commit(dev3, own, "main", "topic", "t\n", op("create", "t.txt", "t\n"))
	opr := e.pull(dev3, own, "topic", "main", "mine")
	none, err := e.svc.RequestReviews(ctx, dev3, "dev3", "mine", opr.Issue.Index, issues.ReviewRequestOption{TeamReviewers: []string{"devs"}})
	require.NoError(t, err)
	assert.Empty(t, none)

	// Whitelists by team.
	_, err = e.repos.CreateProtection(ctx, boss, "acme", "svc", repos.BranchProtection{RuleName: "main",
		EnableMergeWhitelist: true, MergeWhitelistTeams: []string{"devs"},
		EnableApprovalsWhitelist: true, ApprovalsWhitelistTeams: []string{"devs"}})
	require.NoError(t, err)
	r3, err := e.svc.CreateReview(ctx, dev3, "acme", "svc", pr.Issue.Index, issues.CreateReviewOption{Event: issues.ReviewStateApproved})
	require.NoError(t, err)
	assert.False(t, r3.Review.Official, "a writer in no whitelisted team")
	r1, err := e.svc.CreateReview(ctx, dev1, "acme", "svc", pr.Issue.Index, issues.CreateReviewOption{Event: issues.ReviewStateApproved})
	require.NoError(t, err)
	assert.True(t, r1.Review.Official, "a member of a whitelisted team")
	err = e.svc.MergePull(ctx, dev3, "acme", "svc", pr.Issue.Index, issues.MergePullOption{Do: issues.MergeStyleMerge})
	require.Error(t, err, "dev3 is in no team of the merge whitelist")
	require.NoError(t, e.svc.MergePull(ctx, dev1, "acme", "svc", pr.Issue.Index, issues.MergePullOption{Do: issues.MergeStyleMerge}))
	assert.True(t, e.get(boss, repo, pr.Issue.Index).Pull.HasMerged)
}
