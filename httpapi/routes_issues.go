package httpapi

// issueRoutes are the issue tracker's operations (Forgejo's "Issue
// (requires issue scope)" group, and the organisation labels of the
// organization group). What each requires (scopes, token, gate) is
// package issues' declaration (issues.Requirements); who may do what on
// an issue, a comment, a label or a milestone is decided by package
// issues, with Forgejo's messages; the handlers only keep Forgejo's
// per-operation statuses.
func (a *API) issueRoutes() []route {
	const rp = "/repos/{owner}/{repo}"
	const ip = rp + "/issues/{index}"
	const cp = rp + "/issues/comments/{id}"
	return []route{
		{Method: "GET", Path: "/repos/issues/search", Op: "issueSearchIssues", h: a.searchIssues},
		{Method: "GET", Path: rp + "/issues", Op: "issueListIssues", h: a.listIssues},
		{Method: "POST", Path: rp + "/issues", Op: "issueCreateIssue", h: a.createIssue},
		{Method: "GET", Path: ip, Op: "issueGetIssue", h: a.getIssue},
		{Method: "PATCH", Path: ip, Op: "issueEditIssue", h: a.editIssue},
		{Method: "DELETE", Path: ip, Op: "issueDelete", h: a.deleteIssue},

		{Method: "GET", Path: rp + "/issues/comments", Op: "issueGetRepoComments", h: a.listRepoComments},
		{Method: "GET", Path: rp + "/issues/comments/{id}", Op: "issueGetComment", h: a.getComment},
		{Method: "PATCH", Path: rp + "/issues/comments/{id}", Op: "issueEditComment", h: a.editComment(false)},
		{Method: "DELETE", Path: rp + "/issues/comments/{id}", Op: "issueDeleteComment", h: a.deleteComment(false)},
		{Method: "GET", Path: ip + "/comments", Op: "issueGetComments", h: a.listIssueComments},
		{Method: "POST", Path: ip + "/comments", Op: "issueCreateComment", h: a.createComment},
		{Method: "PATCH", Path: ip + "/comments/{id}", Op: "issueEditCommentDeprecated", h: a.editComment(true)},
		{Method: "DELETE", Path: ip + "/comments/{id}", Op: "issueDeleteCommentDeprecated", h: a.deleteComment(true)},

		{Method: "POST", Path: ip + "/deadline", Op: "issueEditIssueDeadline", h: a.setIssueDeadline},

		{Method: "GET", Path: ip + "/assets", Op: "issueListIssueAttachments", h: a.listIssueAttachments(false)},
		{Method: "POST", Path: ip + "/assets", Op: "issueCreateIssueAttachment", h: a.createIssueAttachment},
		{Method: "GET", Path: ip + "/assets/{attachment_id}", Op: "issueGetIssueAttachment", h: a.getIssueAttachment(false)},
		{Method: "PATCH", Path: ip + "/assets/{attachment_id}", Op: "issueEditIssueAttachment", h: a.editIssueAttachment(false)},
		{Method: "DELETE", Path: ip + "/assets/{attachment_id}", Op: "issueDeleteIssueAttachment", h: a.deleteIssueAttachment(false)},
		{Method: "GET", Path: cp + "/assets", Op: "issueListIssueCommentAttachments", h: a.listIssueAttachments(true)},
		{Method: "POST", Path: cp + "/assets", Op: "issueCreateIssueCommentAttachment", h: a.createCommentAttachment},
		{Method: "GET", Path: cp + "/assets/{attachment_id}", Op: "issueGetIssueCommentAttachment", h: a.getIssueAttachment(true)},
		{Method: "PATCH", Path: cp + "/assets/{attachment_id}", Op: "issueEditIssueCommentAttachment", h: a.editIssueAttachment(true)},
		{Method: "DELETE", Path: cp + "/assets/{attachment_id}", Op: "issueDeleteIssueCommentAttachment", h: a.deleteIssueAttachment(true)},

		{Method: "GET", Path: ip + "/labels", Op: "issueGetLabels", h: a.listIssueLabels},
		{Method: "POST", Path: ip + "/labels", Op: "issueAddLabel", h: a.addIssueLabels},
		{Method: "PUT", Path: ip + "/labels", Op: "issueReplaceLabels", h: a.replaceIssueLabels},
		{Method: "DELETE", Path: ip + "/labels", Op: "issueClearLabels", h: a.clearIssueLabels},
		{Method: "DELETE", Path: ip + "/labels/{identifier}", Op: "issueRemoveLabel", h: a.removeIssueLabel},

		{Method: "GET", Path: rp + "/labels", Op: "issueListLabels", h: a.listRepoLabels},
		{Method: "POST", Path: rp + "/labels", Op: "issueCreateLabel", h: a.createRepoLabel},
		{Method: "GET", Path: rp + "/labels/{id}", Op: "issueGetLabel", h: a.getRepoLabel},
		{Method: "PATCH", Path: rp + "/labels/{id}", Op: "issueEditLabel", h: a.editRepoLabel},
		{Method: "DELETE", Path: rp + "/labels/{id}", Op: "issueDeleteLabel", h: a.deleteRepoLabel},

		{Method: "GET", Path: rp + "/milestones", Op: "issueGetMilestonesList", h: a.listMilestones},
		{Method: "POST", Path: rp + "/milestones", Op: "issueCreateMilestone", h: a.createMilestone},
		{Method: "GET", Path: rp + "/milestones/{id}", Op: "issueGetMilestone", h: a.getMilestone},
		{Method: "PATCH", Path: rp + "/milestones/{id}", Op: "issueEditMilestone", h: a.editMilestone},
		{Method: "DELETE", Path: rp + "/milestones/{id}", Op: "issueDeleteMilestone", h: a.deleteMilestone},

		// Organisation labels live in Forgejo's organization group.
		{Method: "GET", Path: "/orgs/{org}/labels", Op: "orgListLabels", h: a.listOrgLabels},
		{Method: "POST", Path: "/orgs/{org}/labels", Op: "orgCreateLabel", h: a.createOrgLabel},
		{Method: "GET", Path: "/orgs/{org}/labels/{id}", Op: "orgGetLabel", h: a.getOrgLabel},
		{Method: "PATCH", Path: "/orgs/{org}/labels/{id}", Op: "orgEditLabel", h: a.editOrgLabel},
		{Method: "DELETE", Path: "/orgs/{org}/labels/{id}", Op: "orgDeleteLabel", h: a.deleteOrgLabel},
	}
}
