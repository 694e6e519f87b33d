package httpapi

import "github.com/hearthforge/hearth/forge"

// issueScope is the issue routes' category; the organisation labels use
// orgScope (routes_orgs.go).
var issueScope = []forge.ScopeCategory{forge.CategoryIssue}

// issueRoutes are the issue tracker's operations (Forgejo's "Issue
// (requires issue scope)" group, and the organisation labels of the
// organization group). Reads need read:issue, writes write:issue; Token
// marks Forgejo's reqToken. Who may do what on an issue, a comment, a
// label or a milestone is decided by package issues, with Forgejo's
// messages; the handlers only keep Forgejo's per-operation statuses.
//
// Not served yet (501): reactions, subscriptions, tracked times,
// stopwatches, dependencies and blocks, pins and the timeline.
func (a *API) issueRoutes() []route {
	const rp = "/repos/{owner}/{repo}"
	const ip = rp + "/issues/{index}"
	const cp = rp + "/issues/comments/{id}"
	return []route{
		{Method: "GET", Path: "/repos/issues/search", Op: "issueSearchIssues", Scopes: issueScope, h: a.searchIssues},
		{Method: "GET", Path: rp + "/issues", Op: "issueListIssues", Scopes: issueScope, h: a.listIssues},
		{Method: "POST", Path: rp + "/issues", Op: "issueCreateIssue", Scopes: issueScope, Token: true, h: a.createIssue},
		{Method: "GET", Path: ip, Op: "issueGetIssue", Scopes: issueScope, h: a.getIssue},
		{Method: "PATCH", Path: ip, Op: "issueEditIssue", Scopes: issueScope, Token: true, h: a.editIssue},
		{Method: "DELETE", Path: ip, Op: "issueDelete", Scopes: issueScope, Token: true, h: a.deleteIssue},

		{Method: "GET", Path: rp + "/issues/comments", Op: "issueGetRepoComments", Scopes: issueScope, h: a.listRepoComments},
		{Method: "GET", Path: rp + "/issues/comments/{id}", Op: "issueGetComment", Scopes: issueScope, h: a.getComment},
		{Method: "PATCH", Path: rp + "/issues/comments/{id}", Op: "issueEditComment", Scopes: issueScope, Token: true, h: a.editComment(false)},
		{Method: "DELETE", Path: rp + "/issues/comments/{id}", Op: "issueDeleteComment", Scopes: issueScope, Token: true, h: a.deleteComment(false)},
		{Method: "GET", Path: ip + "/comments", Op: "issueGetComments", Scopes: issueScope, h: a.listIssueComments},
		{Method: "POST", Path: ip + "/comments", Op: "issueCreateComment", Scopes: issueScope, Token: true, h: a.createComment},
		{Method: "PATCH", Path: ip + "/comments/{id}", Op: "issueEditCommentDeprecated", Scopes: issueScope, Token: true, h: a.editComment(true)},
		{Method: "DELETE", Path: ip + "/comments/{id}", Op: "issueDeleteCommentDeprecated", Scopes: issueScope, Token: true, h: a.deleteComment(true)},

		{Method: "POST", Path: ip + "/deadline", Op: "issueEditIssueDeadline", Scopes: issueScope, Token: true, h: a.setIssueDeadline},

		{Method: "GET", Path: ip + "/assets", Op: "issueListIssueAttachments", Scopes: issueScope, h: a.listIssueAttachments(false)},
		{Method: "POST", Path: ip + "/assets", Op: "issueCreateIssueAttachment", Scopes: issueScope, Token: true, h: a.createIssueAttachment},
		{Method: "GET", Path: ip + "/assets/{attachment_id}", Op: "issueGetIssueAttachment", Scopes: issueScope, h: a.getIssueAttachment(false)},
		{Method: "PATCH", Path: ip + "/assets/{attachment_id}", Op: "issueEditIssueAttachment", Scopes: issueScope, Token: true, h: a.editIssueAttachment(false)},
		{Method: "DELETE", Path: ip + "/assets/{attachment_id}", Op: "issueDeleteIssueAttachment", Scopes: issueScope, Token: true, h: a.deleteIssueAttachment(false)},
		{Method: "GET", Path: cp + "/assets", Op: "issueListIssueCommentAttachments", Scopes: issueScope, h: a.listIssueAttachments(true)},
		{Method: "POST", Path: cp + "/assets", Op: "issueCreateIssueCommentAttachment", Scopes: issueScope, Token: true, h: a.createCommentAttachment},
		{Method: "GET", Path: cp + "/assets/{attachment_id}", Op: "issueGetIssueCommentAttachment", Scopes: issueScope, h: a.getIssueAttachment(true)},
		{Method: "PATCH", Path: cp + "/assets/{attachment_id}", Op: "issueEditIssueCommentAttachment", Scopes: issueScope, Token: true, h: a.editIssueAttachment(true)},
		{Method: "DELETE", Path: cp + "/assets/{attachment_id}", Op: "issueDeleteIssueCommentAttachment", Scopes: issueScope, Token: true, h: a.deleteIssueAttachment(true)},

		{Method: "GET", Path: ip + "/labels", Op: "issueGetLabels", Scopes: issueScope, h: a.listIssueLabels},
		{Method: "POST", Path: ip + "/labels", Op: "issueAddLabel", Scopes: issueScope, Token: true, h: a.addIssueLabels},
		{Method: "PUT", Path: ip + "/labels", Op: "issueReplaceLabels", Scopes: issueScope, Token: true, h: a.replaceIssueLabels},
		{Method: "DELETE", Path: ip + "/labels", Op: "issueClearLabels", Scopes: issueScope, Token: true, h: a.clearIssueLabels},
		{Method: "DELETE", Path: ip + "/labels/{identifier}", Op: "issueRemoveLabel", Scopes: issueScope, Token: true, h: a.removeIssueLabel},

		{Method: "GET", Path: rp + "/labels", Op: "issueListLabels", Scopes: issueScope, h: a.listRepoLabels},
		{Method: "POST", Path: rp + "/labels", Op: "issueCreateLabel", Scopes: issueScope, Token: true, h: a.createRepoLabel},
		{Method: "GET", Path: rp + "/labels/{id}", Op: "issueGetLabel", Scopes: issueScope, h: a.getRepoLabel},
		{Method: "PATCH", Path: rp + "/labels/{id}", Op: "issueEditLabel", Scopes: issueScope, Token: true, h: a.editRepoLabel},
		{Method: "DELETE", Path: rp + "/labels/{id}", Op: "issueDeleteLabel", Scopes: issueScope, Token: true, h: a.deleteRepoLabel},

		{Method: "GET", Path: rp + "/milestones", Op: "issueGetMilestonesList", Scopes: issueScope, h: a.listMilestones},
		{Method: "POST", Path: rp + "/milestones", Op: "issueCreateMilestone", Scopes: issueScope, Token: true, h: a.createMilestone},
		{Method: "GET", Path: rp + "/milestones/{id}", Op: "issueGetMilestone", Scopes: issueScope, h: a.getMilestone},
		{Method: "PATCH", Path: rp + "/milestones/{id}", Op: "issueEditMilestone", Scopes: issueScope, Token: true, h: a.editMilestone},
		{Method: "DELETE", Path: rp + "/milestones/{id}", Op: "issueDeleteMilestone", Scopes: issueScope, Token: true, h: a.deleteMilestone},

		// Organisation labels live in Forgejo's organization group: listing
		// needs no token, reading one does.
		{Method: "GET", Path: "/orgs/{org}/labels", Op: "orgListLabels", Scopes: orgScope, h: a.listOrgLabels},
		{Method: "POST", Path: "/orgs/{org}/labels", Op: "orgCreateLabel", Scopes: orgScope, Token: true, h: a.createOrgLabel},
		{Method: "GET", Path: "/orgs/{org}/labels/{id}", Op: "orgGetLabel", Scopes: orgScope, Token: true, h: a.getOrgLabel},
		{Method: "PATCH", Path: "/orgs/{org}/labels/{id}", Op: "orgEditLabel", Scopes: orgScope, Token: true, h: a.editOrgLabel},
		{Method: "DELETE", Path: "/orgs/{org}/labels/{id}", Op: "orgDeleteLabel", Scopes: orgScope, Token: true, h: a.deleteOrgLabel},
	}
}
