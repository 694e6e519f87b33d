package issues_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/issues"
)

// TestStaleApprovalSettings: the three combinations of the stale-approval
// settings (repos.md §6.3–4): a push marks earlier reviews stale; with the
// dismiss setting approvals are dismissed and never count; with the ignore
// setting they stay undismissed but are not counted; with neither they
// still count.
func TestStaleApprovalSettings(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name             string
		dismiss, ignore  bool
		wantDismissed    bool
		wantCountAfter   int64
		wantEnoughAfter1 bool
	}{
		{"neither", false, false, false, 2, true},
		{"dismiss", true, false, true, 1, true},
		{"ignore", false, true, false, 1, true},
		{"both", true, true, true, 1, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			rule := &repos.BranchProtection{RequiredApprovals: 2, DismissStaleApprovals: c.dismiss, IgnoreStaleApprovals: c.ignore}
			old := &issues.Review{ID: 1, Type: issues.ReviewApprove, Official: true, CommitID: "h1"}
			unofficial := &issues.Review{ID: 2, Type: issues.ReviewApprove, CommitID: "h1"}
			comment := &issues.Review{ID: 3, Type: issues.ReviewComment, CommitID: "h1"}
			request := &issues.Review{ID: 4, Type: issues.ReviewRequest}
			list := []*issues.Review{old, unofficial, comment, request}
			assert.EqualValues(t, 1, issues.ApprovalCount(rule, list), "only official approvals count")

			changed := issues.StaleOnPush(rule, list, "h2", true)
			assert.ElementsMatch(t, []*issues.Review{old, unofficial, comment}, changed, "requests are left alone")
			assert.True(t, old.Stale)
			assert.True(t, comment.Stale)
			assert.False(t, request.Stale)
			assert.Equal(t, c.wantDismissed, old.Dismissed)
			assert.False(t, comment.Dismissed, "only approvals are dismissed")

			fresh := &issues.Review{ID: 5, Type: issues.ReviewApprove, Official: true, CommitID: "h2"}
			list = append(list, fresh)
			assert.Equal(t, c.wantCountAfter, issues.ApprovalCount(rule, list))
			assert.Empty(t, issues.StaleOnPush(rule, list, "h2", true), "a second run changes nothing")
			if c.dismiss {
				// Pushing back to h1 un-stales the old approval but it stays dismissed.
				issues.StaleOnPush(rule, list, "h1", true)
				assert.False(t, old.Stale)
				assert.True(t, old.Dismissed)
			}
		})
	}
}

// TestStaleOnPushContent: a push that keeps the pull request's content
// (Forgejo's checkIfPRContentChanged false) marks nothing stale and
// dismisses nothing, whatever the settings; only reviews made on the new
// head become not stale. A push that changes it marks the others stale.
func TestStaleOnPushContent(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name                   string
		dismiss, ignore        bool
		changed                bool
		wasStale               bool
		wantStale, wantDismiss bool
		wantCount              int64
	}{
		{"same content, neither", false, false, false, false, false, false, 1},
		{"same content, dismiss", true, false, false, false, false, false, 1},
		{"same content, ignore", false, true, false, false, false, false, 1},
		{"same content, both", true, true, false, false, false, false, 1},
		{"same content keeps an earlier staleness", false, true, false, true, true, false, 0},
		{"changed, neither", false, false, true, false, true, false, 1},
		{"changed, dismiss", true, false, true, false, true, true, 0},
		{"changed, ignore", false, true, true, false, true, false, 0},
		{"changed, both", true, true, true, false, true, true, 0},
	} {
		rule := &repos.BranchProtection{RequiredApprovals: 1, DismissStaleApprovals: c.dismiss, IgnoreStaleApprovals: c.ignore}
		approval := &issues.Review{ID: 1, Type: issues.ReviewApprove, Official: true, CommitID: "h1", Stale: c.wasStale}
		onHead := &issues.Review{ID: 2, Type: issues.ReviewComment, CommitID: "h2", Stale: true}
		list := []*issues.Review{approval, onHead}
		issues.StaleOnPush(rule, list, "h2", c.changed)
		assert.Equal(t, c.wantStale, approval.Stale, c.name)
		assert.Equal(t, c.wantDismiss, approval.Dismissed, c.name)
		assert.False(t, onHead.Stale, c.name+": a review of the new head is not stale")
		assert.Equal(t, c.wantCount, issues.ApprovalCount(rule, list), c.name)
	}
}

func TestRetargetPlan(t *testing.T) {
	t.Parallel()
	const repo, fork = forge.ID(1), forge.ID(2)
	merged := &issues.PullRequest{ID: 1, BaseRepoID: repo, HeadRepoID: repo, BaseBranch: "main", HeadBranch: "b1", HasMerged: true}
	forkMerged := &issues.PullRequest{ID: 1, BaseRepoID: repo, HeadRepoID: fork, BaseBranch: "main", HeadBranch: "b1", HasMerged: true}
	child := &issues.PullRequest{ID: 2, BaseRepoID: repo, HeadRepoID: repo, BaseBranch: "b1", HeadBranch: "b2"}
	forkChild := &issues.PullRequest{ID: 3, BaseRepoID: repo, HeadRepoID: fork, BaseBranch: "b1", HeadBranch: "x"}
	sameHead := &issues.PullRequest{ID: 4, BaseRepoID: repo, HeadRepoID: repo, BaseBranch: "dev", HeadBranch: "b1"}
	toBase := &issues.PullRequest{ID: 5, BaseRepoID: repo, HeadRepoID: repo, BaseBranch: "b1", HeadBranch: "main"}
	other := &issues.PullRequest{ID: 6, BaseRepoID: repo, HeadRepoID: repo, BaseBranch: "main", HeadBranch: "b3"}
	inFork := &issues.PullRequest{ID: 7, BaseRepoID: fork, HeadRepoID: fork, BaseBranch: "b1", HeadBranch: "y"}
	open := []*issues.PullRequest{merged, child, forkChild, sameHead, toBase, other, inFork}
	ids := func(l []*issues.PullRequest) []forge.ID {
		out := []forge.ID{}
		for _, p := range l {
			out = append(out, p.ID)
		}
		return out
	}
	for _, c := range []struct {
		name                string
		repo                forge.ID
		merged              *issues.PullRequest
		byMerge, retarget   bool
		wantRetarget, close []forge.ID
	}{
		{"merge deletes the head: children retargeted, fork children too", repo, merged, true, true, []forge.ID{2, 3}, []forge.ID{4, 5}},
		{"option off: children closed", repo, merged, true, false, []forge.ID{}, []forge.ID{2, 3, 4, 5}},
		{"plain deletion: closed", repo, nil, false, true, []forge.ID{}, []forge.ID{2, 3, 4, 5}},
		{"parent from a fork: the fork's children closed", fork, forkMerged, true, true, []forge.ID{}, []forge.ID{7}},
	} {
		t.Run(c.name, func(t *testing.T) {
			rt, cl := issues.RetargetPlan(c.repo, "b1", c.merged, c.byMerge, c.retarget, open)
			assert.Equal(t, c.wantRetarget, ids(rt))
			assert.Equal(t, c.close, ids(cl))
		})
	}
}

func TestProtectionRefusal(t *testing.T) {
	t.Parallel()
	approve := func(official, dismissed, stale bool) *issues.Review {
		return &issues.Review{Type: issues.ReviewApprove, Official: official, Dismissed: dismissed, Stale: stale}
	}
	ok := &repos.CommitStatus{Context: "ci/build", State: repos.StatusSuccess}
	failed := &repos.CommitStatus{Context: "ci/build", State: repos.StatusFailure}
	for _, c := range []struct {
		name   string
		checks issues.MergeChecks
		want   string
	}{
		{"no rule", issues.MergeChecks{}, ""},
		{"approvals met", issues.MergeChecks{Rule: &repos.BranchProtection{RequiredApprovals: 1}, Reviews: []*issues.Review{approve(true, false, false)}}, ""},
		{"approvals missing", issues.MergeChecks{Rule: &repos.BranchProtection{RequiredApprovals: 1}, Reviews: []*issues.Review{approve(false, false, false)}}, "Does not have enough approvals"},
		{"dismissed does not count", issues.MergeChecks{Rule: &repos.BranchProtection{RequiredApprovals: 1}, Reviews: []*issues.Review{approve(true, true, false)}}, "Does not have enough approvals"},
		{"stale counts without ignore", issues.MergeChecks{Rule: &repos.BranchProtection{RequiredApprovals: 1}, Reviews: []*issues.Review{approve(true, false, true)}}, ""},
		{"stale ignored", issues.MergeChecks{Rule: &repos.BranchProtection{RequiredApprovals: 1, IgnoreStaleApprovals: true}, Reviews: []*issues.Review{approve(true, false, true)}}, "Does not have enough approvals"},
		{"status checks pass", issues.MergeChecks{Rule: &repos.BranchProtection{EnableStatusCheck: true, StatusCheckContexts: []string{"ci/*"}}, Statuses: []*repos.CommitStatus{ok}}, ""},
		{"status checks fail", issues.MergeChecks{Rule: &repos.BranchProtection{EnableStatusCheck: true, StatusCheckContexts: []string{"ci/*"}}, Statuses: []*repos.CommitStatus{failed}}, "Not all required status checks successful"},
		{"status checks missing", issues.MergeChecks{Rule: &repos.BranchProtection{EnableStatusCheck: true, StatusCheckContexts: []string{"ci/build"}}}, "Not all required status checks successful"},
		{"rejected", issues.MergeChecks{Rule: &repos.BranchProtection{BlockOnRejectedReviews: true}, Reviews: []*issues.Review{{Type: issues.ReviewReject, Official: true}}}, "There are requested changes"},
		{"official request", issues.MergeChecks{Rule: &repos.BranchProtection{BlockOnOfficialReviewRequests: true}, Reviews: []*issues.Review{{Type: issues.ReviewRequest, Official: true}}}, "There are official review requests"},
		{"outdated", issues.MergeChecks{Rule: &repos.BranchProtection{BlockOnOutdatedBranch: true}, Behind: true}, "The head branch is behind the base branch"},
		{"protected files", issues.MergeChecks{Rule: &repos.BranchProtection{}, ProtectedFiles: []string{"x"}}, "Changed protected files"},
	} {
		assert.Equal(t, c.want, issues.ProtectionRefusal(c.checks), c.name)
	}
}

func TestProtectedFilesAndStyles(t *testing.T) {
	t.Parallel()
	files := []string{"README.md", "docs/a.md", "docs/deep/b.md", "src/main.go", "Makefile"}
	assert.Equal(t, []string{"README.md", "docs/a.md"}, issues.ProtectedFiles("*.md; docs/*.md", files))
	assert.Equal(t, []string{"docs/a.md", "docs/deep/b.md"}, issues.ProtectedFiles("docs/**", files))
	assert.Equal(t, []string{"Makefile"}, issues.ProtectedFiles("makefile", files), "ignoring case")
	assert.Empty(t, issues.ProtectedFiles("", files))
	r := &forge.Repository{AllowMerge: true, AllowSquash: true}
	assert.True(t, issues.StyleAllowed(r, issues.MergeStyleMerge))
	assert.True(t, issues.StyleAllowed(r, issues.MergeStyleSquash))
	assert.False(t, issues.StyleAllowed(r, issues.MergeStyleRebase))
	assert.False(t, issues.StyleAllowed(r, issues.MergeStyleManuallyMerged))
	assert.False(t, issues.StyleAllowed(r, "octopus"))
}
