package httpapi

import "github.com/hearthforge/hearth/forge"

// userScope is the scope category of /user/** (Forgejo's user group).
var userScope = []forge.ScopeCategory{forge.CategoryUser}

// issueDepsRoutes are the dependencies and blocks of issues, tracked
// times and stopwatches (Forgejo's issue group, and /user/times and
// /user/stopwatches of the user group). Forgejo requires a token for every
// time and stopwatch route (reqToken); the repository's time lists sit in
// its repository group (read:repository). Who may do what is decided by
// package issues. routes() adds them when Config.Issues is set.
func (a *API) issueDepsRoutes() []route {
	const rp = "/repos/{owner}/{repo}"
	const ip = rp + "/issues/{index}"
	return []route{
		{Method: "GET", Path: ip + "/dependencies", Op: "issueListIssueDependencies", Scopes: issueScope, h: a.listDependencies},
		{Method: "POST", Path: ip + "/dependencies", Op: "issueCreateIssueDependencies", Scopes: issueScope, Token: true, h: a.linkIssue(true, true)},
		{Method: "DELETE", Path: ip + "/dependencies", Op: "issueRemoveIssueDependencies", Scopes: issueScope, Token: true, h: a.linkIssue(true, false)},
		{Method: "GET", Path: ip + "/blocks", Op: "issueListBlocks", Scopes: issueScope, h: a.listBlocks},
		{Method: "POST", Path: ip + "/blocks", Op: "issueCreateIssueBlocking", Scopes: issueScope, Token: true, h: a.linkIssue(false, true)},
		{Method: "DELETE", Path: ip + "/blocks", Op: "issueRemoveIssueBlocking", Scopes: issueScope, Token: true, h: a.linkIssue(false, false)},

		{Method: "GET", Path: ip + "/times", Op: "issueTrackedTimes", Scopes: issueScope, Token: true, h: a.listIssueTimes},
		{Method: "POST", Path: ip + "/times", Op: "issueAddTime", Scopes: issueScope, Token: true, h: a.addTime},
		{Method: "DELETE", Path: ip + "/times", Op: "issueResetTime", Scopes: issueScope, Token: true, h: a.resetTime},
		{Method: "DELETE", Path: ip + "/times/{id}", Op: "issueDeleteTime", Scopes: issueScope, Token: true, h: a.deleteTime},
		{Method: "GET", Path: rp + "/times", Op: "repoTrackedTimes", Scopes: repo, Token: true, h: a.listRepoTimes},
		{Method: "GET", Path: rp + "/times/{user}", Op: "userTrackedTimes", Scopes: repo, Token: true, h: a.listUserRepoTimes},
		{Method: "GET", Path: "/user/times", Op: "userCurrentTrackedTimes", Scopes: userScope, Token: true, h: a.listMyTimes},

		{Method: "POST", Path: ip + "/stopwatch/start", Op: "issueStartStopWatch", Scopes: issueScope, Token: true, h: a.stopwatch(startWatch)},
		{Method: "POST", Path: ip + "/stopwatch/stop", Op: "issueStopStopWatch", Scopes: issueScope, Token: true, h: a.stopwatch(stopWatch)},
		{Method: "DELETE", Path: ip + "/stopwatch/delete", Op: "issueDeleteStopWatch", Scopes: issueScope, Token: true, h: a.stopwatch(cancelWatch)},
		{Method: "GET", Path: "/user/stopwatches", Op: "userGetStopWatches", Scopes: userScope, Token: true, h: a.listStopwatches},
	}
}
