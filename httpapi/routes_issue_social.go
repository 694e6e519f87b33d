package httpapi

// issueSocialRoutes are the operations around issues that users add:
// reactions of issues and comments, issue subscriptions, pins, the
// timeline and the label templates. What each requires (scopes, token,
// gate) is package issues' declaration (issues.Requirements), as who may
// do what (pins need a repository administrator, Forgejo's reqAdmin).
func (a *API) issueSocialRoutes() []route {
	const rp = "/repos/{owner}/{repo}"
	const ip = rp + "/issues/{index}"
	const cp = rp + "/issues/comments/{id}"
	return []route{
		{Method: "GET", Path: ip + "/reactions", Op: "issueGetIssueReactions", h: a.listReactions(false)},
		{Method: "POST", Path: ip + "/reactions", Op: "issuePostIssueReaction", h: a.postReaction(false)},
		{Method: "DELETE", Path: ip + "/reactions", Op: "issueDeleteIssueReaction", h: a.deleteReaction(false)},
		{Method: "GET", Path: cp + "/reactions", Op: "issueGetCommentReactions", h: a.listReactions(true)},
		{Method: "POST", Path: cp + "/reactions", Op: "issuePostCommentReaction", h: a.postReaction(true)},
		{Method: "DELETE", Path: cp + "/reactions", Op: "issueDeleteCommentReaction", h: a.deleteReaction(true)},

		{Method: "GET", Path: ip + "/subscriptions", Op: "issueSubscriptions", h: a.listIssueSubscribers},
		{Method: "GET", Path: ip + "/subscriptions/check", Op: "issueCheckSubscription", h: a.checkSubscription},
		{Method: "PUT", Path: ip + "/subscriptions/{user}", Op: "issueAddSubscription", h: a.setSubscription(true)},
		{Method: "DELETE", Path: ip + "/subscriptions/{user}", Op: "issueDeleteSubscription", h: a.setSubscription(false)},

		{Method: "POST", Path: ip + "/pin", Op: "pinIssue", h: a.pinIssue},
		{Method: "DELETE", Path: ip + "/pin", Op: "unpinIssue", h: a.unpinIssue},
		{Method: "PATCH", Path: ip + "/pin/{position}", Op: "moveIssuePin", h: a.moveIssuePin},
		{Method: "GET", Path: rp + "/issues/pinned", Op: "repoListPinnedIssues", h: a.listPinned(false)},
		{Method: "GET", Path: rp + "/pulls/pinned", Op: "repoListPinnedPullRequests", h: a.listPinnedPulls},
		{Method: "GET", Path: rp + "/new_pin_allowed", Op: "repoNewPinAllowed", h: a.newPinAllowed},

		{Method: "GET", Path: ip + "/timeline", Op: "issueGetCommentsAndTimeline", h: a.listTimeline},

		{Method: "GET", Path: "/label/templates", Op: "listLabelTemplates", h: a.listLabelTemplates},
		{Method: "GET", Path: "/label/templates/{name}", Op: "getLabelTemplateInfo", h: a.getLabelTemplate},
	}
}
