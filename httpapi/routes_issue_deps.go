package httpapi

// issueDepsRoutes are the dependencies and blocks of issues, tracked
// times and stopwatches (Forgejo's issue group, and /user/times and
// /user/stopwatches of the user group). What each requires is package
// issues' declaration (issues.Requirements), and who may do what its
// decision. routes() adds them when Config.Issues is set.
func (a *API) issueDepsRoutes() []route {
	const rp = "/repos/{owner}/{repo}"
	const ip = rp + "/issues/{index}"
	return []route{
		{Method: "GET", Path: ip + "/dependencies", Op: "issueListIssueDependencies", h: a.listDependencies},
		{Method: "POST", Path: ip + "/dependencies", Op: "issueCreateIssueDependencies", h: a.linkIssue(true, true)},
		{Method: "DELETE", Path: ip + "/dependencies", Op: "issueRemoveIssueDependencies", h: a.linkIssue(true, false)},
		{Method: "GET", Path: ip + "/blocks", Op: "issueListBlocks", h: a.listBlocks},
		{Method: "POST", Path: ip + "/blocks", Op: "issueCreateIssueBlocking", h: a.linkIssue(false, true)},
		{Method: "DELETE", Path: ip + "/blocks", Op: "issueRemoveIssueBlocking", h: a.linkIssue(false, false)},

		{Method: "GET", Path: ip + "/times", Op: "issueTrackedTimes", h: a.listIssueTimes},
		{Method: "POST", Path: ip + "/times", Op: "issueAddTime", h: a.addTime},
		{Method: "DELETE", Path: ip + "/times", Op: "issueResetTime", h: a.resetTime},
		{Method: "DELETE", Path: ip + "/times/{id}", Op: "issueDeleteTime", h: a.deleteTime},
		{Method: "GET", Path: rp + "/times", Op: "repoTrackedTimes", h: a.listRepoTimes},
		{Method: "GET", Path: rp + "/times/{user}", Op: "userTrackedTimes", h: a.listUserRepoTimes},
		{Method: "GET", Path: "/user/times", Op: "userCurrentTrackedTimes", h: a.listMyTimes},

		{Method: "POST", Path: ip + "/stopwatch/start", Op: "issueStartStopWatch", h: a.stopwatch(startWatch)},
		{Method: "POST", Path: ip + "/stopwatch/stop", Op: "issueStopStopWatch", h: a.stopwatch(stopWatch)},
		{Method: "DELETE", Path: ip + "/stopwatch/delete", Op: "issueDeleteStopWatch", h: a.stopwatch(cancelWatch)},
		{Method: "GET", Path: "/user/stopwatches", Op: "userGetStopWatches", h: a.listStopwatches},
	}
}
