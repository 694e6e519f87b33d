package httpapi

import "github.com/hearthforge/hearth/forge"

// issueSocialRoutes are the operations around issues that users add:
// reactions of issues and comments, issue subscriptions, pins, the
// timeline and the label templates (Forgejo's issue group, and the
// repository group for the pinned lists and new_pin_allowed). Reads need
// read:issue, writes write:issue; the label templates are public as
// Forgejo's misc routes; pins need a repository administrator (Forgejo's
// reqAdmin, decided by package issues).
func (a *API) issueSocialRoutes() []route {
	// /issues/pinned sits in Forgejo's issue group (a /repos group of its
	// own, issue scope only); /pulls/pinned and new_pin_allowed in the
	// repository group.
	repoOnlyScope := []forge.ScopeCategory{forge.CategoryRepository}
	const rp = "/repos/{owner}/{repo}"
	const ip = rp + "/issues/{index}"
	const cp = rp + "/issues/comments/{id}"
	return []route{
		{Method: "GET", Path: ip + "/reactions", Op: "issueGetIssueReactions", Scopes: issueScope, h: a.listReactions(false)},
		{Method: "POST", Path: ip + "/reactions", Op: "issuePostIssueReaction", Scopes: issueScope, Token: true, h: a.postReaction(false)},
		{Method: "DELETE", Path: ip + "/reactions", Op: "issueDeleteIssueReaction", Scopes: issueScope, Token: true, h: a.deleteReaction(false)},
		{Method: "GET", Path: cp + "/reactions", Op: "issueGetCommentReactions", Scopes: issueScope, h: a.listReactions(true)},
		{Method: "POST", Path: cp + "/reactions", Op: "issuePostCommentReaction", Scopes: issueScope, Token: true, h: a.postReaction(true)},
		{Method: "DELETE", Path: cp + "/reactions", Op: "issueDeleteCommentReaction", Scopes: issueScope, Token: true, h: a.deleteReaction(true)},

		{Method: "GET", Path: ip + "/subscriptions", Op: "issueSubscriptions", Scopes: issueScope, h: a.listIssueSubscribers},
		{Method: "GET", Path: ip + "/subscriptions/check", Op: "issueCheckSubscription", Scopes: issueScope, Token: true, h: a.checkSubscription},
		{Method: "PUT", Path: ip + "/subscriptions/{user}", Op: "issueAddSubscription", Scopes: issueScope, Token: true, h: a.setSubscription(true)},
		{Method: "DELETE", Path: ip + "/subscriptions/{user}", Op: "issueDeleteSubscription", Scopes: issueScope, Token: true, h: a.setSubscription(false)},

		{Method: "POST", Path: ip + "/pin", Op: "pinIssue", Scopes: issueScope, Token: true, h: a.pinIssue},
		{Method: "DELETE", Path: ip + "/pin", Op: "unpinIssue", Scopes: issueScope, Token: true, h: a.unpinIssue},
		{Method: "PATCH", Path: ip + "/pin/{position}", Op: "moveIssuePin", Scopes: issueScope, Token: true, h: a.moveIssuePin},
		{Method: "GET", Path: rp + "/issues/pinned", Op: "repoListPinnedIssues", Scopes: issueScope, h: a.listPinned(false)},
		{Method: "GET", Path: rp + "/pulls/pinned", Op: "repoListPinnedPullRequests", Scopes: repoOnlyScope, h: a.listPinnedPulls},
		{Method: "GET", Path: rp + "/new_pin_allowed", Op: "repoNewPinAllowed", Scopes: repoOnlyScope, h: a.newPinAllowed},

		{Method: "GET", Path: ip + "/timeline", Op: "issueGetCommentsAndTimeline", Scopes: issueScope, h: a.listTimeline},

		{Method: "GET", Path: "/label/templates", Op: "listLabelTemplates", Public: true, h: a.listLabelTemplates},
		{Method: "GET", Path: "/label/templates/{name}", Op: "getLabelTemplateInfo", Public: true, h: a.getLabelTemplate},
	}
}
