package httpapi

// hookRoutes are the webhook operations, with Forgejo's scope groups:
// /admin/hooks admin (site administrators), /repos/{owner}/{repo}/hooks
// repository (repository administrators), /orgs/{org}/hooks organization
// (owners), /user/hooks user. Who may manage which hooks is decided by
// forge/hooks. /repos/{owner}/{repo}/hooks/git answers as Forgejo with git
// hooks disabled (403 `must be allowed to edit Git hooks` for repository
// administrators): Hearth has no server-side git hooks to edit. Served
// when Config.Hooks is set. What each operation requires (scopes, token,
// site administrator, gate) is not written here: forge/hooks declares it
// (hooks.Requirements) and the table derives it.
func (a *API) hookRoutes() []route {
	if a.cfg.Hooks == nil {
		return nil
	}
	const rp = "/repos/{owner}/{repo}/hooks"
	return []route{
		{Method: "GET", Path: "/admin/hooks", Op: "adminListHooks", h: a.adminListHooks},
		{Method: "POST", Path: "/admin/hooks", Op: "adminCreateHook", h: a.createHook},
		{Method: "GET", Path: "/admin/hooks/{id}", Op: "adminGetHook", h: a.getHook},
		{Method: "PATCH", Path: "/admin/hooks/{id}", Op: "adminEditHook", h: a.editHook},
		{Method: "DELETE", Path: "/admin/hooks/{id}", Op: "adminDeleteHook", h: a.deleteHook},

		{Method: "GET", Path: rp, Op: "repoListHooks", h: a.listHooks},
		{Method: "POST", Path: rp, Op: "repoCreateHook", h: a.createHook},
		{Method: "GET", Path: rp + "/{id}", Op: "repoGetHook", h: a.getHook},
		{Method: "PATCH", Path: rp + "/{id}", Op: "repoEditHook", h: a.editHook},
		{Method: "DELETE", Path: rp + "/{id}", Op: "repoDeleteHook", h: a.deleteHook},
		{Method: "POST", Path: rp + "/{id}/tests", Op: "repoTestHook", h: a.testHook},
		{Method: "GET", Path: rp + "/git", Op: "repoListGitHooks", h: a.gitHooks},
		{Method: "GET", Path: rp + "/git/{id}", Op: "repoGetGitHook", h: a.gitHooks},
		{Method: "PATCH", Path: rp + "/git/{id}", Op: "repoEditGitHook", h: a.gitHooks},
		{Method: "DELETE", Path: rp + "/git/{id}", Op: "repoDeleteGitHook", h: a.gitHooks},

		{Method: "GET", Path: "/orgs/{org}/hooks", Op: "orgListHooks", h: a.listHooks},
		{Method: "POST", Path: "/orgs/{org}/hooks", Op: "orgCreateHook", h: a.createHook},
		{Method: "GET", Path: "/orgs/{org}/hooks/{id}", Op: "orgGetHook", h: a.getHook},
		{Method: "PATCH", Path: "/orgs/{org}/hooks/{id}", Op: "orgEditHook", h: a.editHook},
		{Method: "DELETE", Path: "/orgs/{org}/hooks/{id}", Op: "orgDeleteHook", h: a.deleteHook},

		{Method: "GET", Path: "/user/hooks", Op: "userListHooks", h: a.listHooks},
		{Method: "POST", Path: "/user/hooks", Op: "userCreateHook", h: a.createHook},
		{Method: "GET", Path: "/user/hooks/{id}", Op: "userGetHook", h: a.getHook},
		{Method: "PATCH", Path: "/user/hooks/{id}", Op: "userEditHook", h: a.editHook},
		{Method: "DELETE", Path: "/user/hooks/{id}", Op: "userDeleteHook", h: a.deleteHook},
	}
}
