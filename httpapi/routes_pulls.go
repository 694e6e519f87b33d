package httpapi

// pullRoutes are the pull-request operations of Forgejo's "repository"
// group: pull requests, their reviews and review requests, the
// comparison of two refs, the pull request of a merge commit, and the
// reviewer and assignee candidates. What each requires (the repository
// scope, Forgejo's reqToken, the gate) is package issues' declaration
// (issues.Requirements); who may do what is decided by package issues,
// with Forgejo's messages; the handlers keep Forgejo's per-operation
// statuses (PATCH 201, merge 405/409, bare 403).
//
// GET /pulls/pinned is served with the issue pins (routes_issue_social.go).
func (a *API) pullRoutes() []route {
	const rp = "/repos/{owner}/{repo}"
	const pp = rp + "/pulls/{index}"
	const rv = pp + "/reviews/{id}"
	return []route{
		{Method: "GET", Path: rp + "/pulls", Op: "repoListPullRequests", h: a.listPulls},
		{Method: "POST", Path: rp + "/pulls", Op: "repoCreatePullRequest", h: a.createPull},
		{Method: "GET", Path: rp + "/pulls/{base}/{head}", Op: "repoGetPullRequestByBaseHead", Wild: "head", h: a.getPullByBaseHead},
		{Method: "GET", Path: pp, Op: "repoGetPullRequest", h: a.getPull},
		{Method: "PATCH", Path: pp, Op: "repoEditPullRequest", h: a.editPull},
		{Method: "GET", Path: rp + "/pulls/{index}.{diffType}", Op: "repoDownloadPullDiffOrPatch", h: a.pullDiff},
		{Method: "GET", Path: pp + "/commits", Op: "repoGetPullRequestCommits", h: a.pullCommits},
		{Method: "GET", Path: pp + "/files", Op: "repoGetPullRequestFiles", h: a.pullFiles},
		{Method: "GET", Path: pp + "/merge", Op: "repoPullRequestIsMerged", h: a.pullIsMerged},
		{Method: "POST", Path: pp + "/merge", Op: "repoMergePullRequest", h: a.mergePull},
		{Method: "DELETE", Path: pp + "/merge", Op: "repoCancelScheduledAutoMerge", h: a.cancelScheduledMerge},
		{Method: "POST", Path: pp + "/update", Op: "repoUpdatePullRequest", h: a.updatePull},

		{Method: "POST", Path: pp + "/requested_reviewers", Op: "repoCreatePullReviewRequests", h: a.requestReviews},
		{Method: "DELETE", Path: pp + "/requested_reviewers", Op: "repoDeletePullReviewRequests", h: a.cancelReviewRequests},
		{Method: "GET", Path: pp + "/reviews", Op: "repoListPullReviews", h: a.listReviews},
		{Method: "POST", Path: pp + "/reviews", Op: "repoCreatePullReview", h: a.createReview},
		{Method: "GET", Path: rv, Op: "repoGetPullReview", h: a.getReview},
		{Method: "POST", Path: rv, Op: "repoSubmitPullReview", h: a.submitReview},
		{Method: "DELETE", Path: rv, Op: "repoDeletePullReview", h: a.deleteReview},
		{Method: "GET", Path: rv + "/comments", Op: "repoGetPullReviewComments", h: a.listReviewComments},
		{Method: "POST", Path: rv + "/comments", Op: "repoCreatePullReviewComment", h: a.createReviewComment},
		{Method: "GET", Path: rv + "/comments/{comment}", Op: "repoGetPullReviewComment", h: a.getReviewComment},
		{Method: "DELETE", Path: rv + "/comments/{comment}", Op: "repoDeletePullReviewComment", h: a.deleteReviewComment},
		{Method: "POST", Path: rv + "/dismissals", Op: "repoDismissPullReview", h: a.dismissReview},
		{Method: "POST", Path: rv + "/undismissals", Op: "repoUnDismissPullReview", h: a.undismissReview},

		{Method: "GET", Path: rp + "/compare/{basehead}", Op: "repoCompareDiff", Wild: "basehead", h: a.compare},
		{Method: "GET", Path: rp + "/commits/{sha}/pull", Op: "repoGetCommitPullRequest", h: a.commitPull},
		{Method: "GET", Path: rp + "/reviewers", Op: "repoGetReviewers", h: a.candidates(true)},
		{Method: "GET", Path: rp + "/assignees", Op: "repoGetAssignees", h: a.candidates(false)},
	}
}
