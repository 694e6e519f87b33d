package httpapi

// pullRoutes are the pull-request operations of Forgejo's "repository"
// group: pull requests, their reviews and review requests, the
// comparison of two refs, the pull request of a merge commit, and the
// reviewer and assignee candidates. Forgejo checks them against the
// repository token scope (reads read:repository, writes
// write:repository); Token marks its reqToken. Who may do what is decided
// by package issues, with Forgejo's messages; the handlers keep Forgejo's
// per-operation statuses (PATCH 201, merge 405/409, bare 403).
//
// GET /pulls/pinned is served with the issue pins (routes_issue_social.go).
func (a *API) pullRoutes() []route {
	const rp = "/repos/{owner}/{repo}"
	const pp = rp + "/pulls/{index}"
	const rv = pp + "/reviews/{id}"
	return []route{
		{Method: "GET", Path: rp + "/pulls", Op: "repoListPullRequests", Scopes: repo, h: a.listPulls},
		{Method: "POST", Path: rp + "/pulls", Op: "repoCreatePullRequest", Scopes: repo, Token: true, h: a.createPull},
		{Method: "GET", Path: rp + "/pulls/{base}/{head}", Op: "repoGetPullRequestByBaseHead", Scopes: repo, Wild: "head", h: a.getPullByBaseHead},
		{Method: "GET", Path: pp, Op: "repoGetPullRequest", Scopes: repo, h: a.getPull},
		{Method: "PATCH", Path: pp, Op: "repoEditPullRequest", Scopes: repo, Token: true, h: a.editPull},
		{Method: "GET", Path: rp + "/pulls/{index}.{diffType}", Op: "repoDownloadPullDiffOrPatch", Scopes: repo, h: a.pullDiff},
		{Method: "GET", Path: pp + "/commits", Op: "repoGetPullRequestCommits", Scopes: repo, h: a.pullCommits},
		{Method: "GET", Path: pp + "/files", Op: "repoGetPullRequestFiles", Scopes: repo, h: a.pullFiles},
		{Method: "GET", Path: pp + "/merge", Op: "repoPullRequestIsMerged", Scopes: repo, h: a.pullIsMerged},
		{Method: "POST", Path: pp + "/merge", Op: "repoMergePullRequest", Scopes: repo, Token: true, h: a.mergePull},
		{Method: "DELETE", Path: pp + "/merge", Op: "repoCancelScheduledAutoMerge", Scopes: repo, Token: true, h: a.cancelScheduledMerge},
		{Method: "POST", Path: pp + "/update", Op: "repoUpdatePullRequest", Scopes: repo, Token: true, h: a.updatePull},

		{Method: "POST", Path: pp + "/requested_reviewers", Op: "repoCreatePullReviewRequests", Scopes: repo, Token: true, h: a.requestReviews},
		{Method: "DELETE", Path: pp + "/requested_reviewers", Op: "repoDeletePullReviewRequests", Scopes: repo, Token: true, h: a.cancelReviewRequests},
		{Method: "GET", Path: pp + "/reviews", Op: "repoListPullReviews", Scopes: repo, h: a.listReviews},
		{Method: "POST", Path: pp + "/reviews", Op: "repoCreatePullReview", Scopes: repo, Token: true, h: a.createReview},
		{Method: "GET", Path: rv, Op: "repoGetPullReview", Scopes: repo, h: a.getReview},
		{Method: "POST", Path: rv, Op: "repoSubmitPullReview", Scopes: repo, Token: true, h: a.submitReview},
		{Method: "DELETE", Path: rv, Op: "repoDeletePullReview", Scopes: repo, Token: true, h: a.deleteReview},
		{Method: "GET", Path: rv + "/comments", Op: "repoGetPullReviewComments", Scopes: repo, h: a.listReviewComments},
		{Method: "POST", Path: rv + "/comments", Op: "repoCreatePullReviewComment", Scopes: repo, Token: true, h: a.createReviewComment},
		{Method: "GET", Path: rv + "/comments/{comment}", Op: "repoGetPullReviewComment", Scopes: repo, h: a.getReviewComment},
		{Method: "DELETE", Path: rv + "/comments/{comment}", Op: "repoDeletePullReviewComment", Scopes: repo, Token: true, h: a.deleteReviewComment},
		{Method: "POST", Path: rv + "/dismissals", Op: "repoDismissPullReview", Scopes: repo, Token: true, h: a.dismissReview},
		{Method: "POST", Path: rv + "/undismissals", Op: "repoUnDismissPullReview", Scopes: repo, Token: true, h: a.undismissReview},

		{Method: "GET", Path: rp + "/compare/{basehead}", Op: "repoCompareDiff", Scopes: repo, Wild: "basehead", h: a.compare},
		{Method: "GET", Path: rp + "/commits/{sha}/pull", Op: "repoGetCommitPullRequest", Scopes: repo, h: a.commitPull},
		{Method: "GET", Path: rp + "/reviewers", Op: "repoGetReviewers", Scopes: repo, h: a.candidates(true)},
		{Method: "GET", Path: rp + "/assignees", Op: "repoGetAssignees", Scopes: repo, h: a.candidates(false)},
	}
}
