package httpapi

import "github.com/hearthforge/hearth/forge"

var (
	hookOrgScope = []forge.ScopeCategory{forge.CategoryOrganization}
)

// hookRoutes are the webhook operations, with Forgejo's scope groups:
// /admin/hooks admin (site administrators), /repos/{owner}/{repo}/hooks
// repository (repository administrators), /orgs/{org}/hooks organization
// (owners), /user/hooks user. Who may manage which hooks is decided by
// forge/hooks. /repos/{owner}/{repo}/hooks/git answers as Forgejo with git
// hooks disabled (403 `must be allowed to edit Git hooks` for repository
// administrators): Hearth has no server-side git hooks to edit. Served
// when Config.Hooks is set.
func (a *API) hookRoutes() []route {
	if a.cfg.Hooks == nil {
		return nil
	}
	const rp = "/repos/{owner}/{repo}/hooks"
	return []route{
		{Method: "GET", Path: "/admin/hooks", Op: "adminListHooks", Scopes: admin, Token: true, Admin: true, h: a.adminListHooks},
		{Method: "POST", Path: "/admin/hooks", Op: "adminCreateHook", Scopes: admin, Token: true, Admin: true, h: a.createHook},
		{Method: "GET", Path: "/admin/hooks/{id}", Op: "adminGetHook", Scopes: admin, Token: true, Admin: true, h: a.getHook},
		{Method: "PATCH", Path: "/admin/hooks/{id}", Op: "adminEditHook", Scopes: admin, Token: true, Admin: true, h: a.editHook},
		{Method: "DELETE", Path: "/admin/hooks/{id}", Op: "adminDeleteHook", Scopes: admin, Token: true, Admin: true, h: a.deleteHook},

		{Method: "GET", Path: rp, Op: "repoListHooks", Scopes: repo, Token: true, h: a.listHooks},
		{Method: "POST", Path: rp, Op: "repoCreateHook", Scopes: repo, Token: true, h: a.createHook},
		{Method: "GET", Path: rp + "/{id}", Op: "repoGetHook", Scopes: repo, Token: true, h: a.getHook},
		{Method: "PATCH", Path: rp + "/{id}", Op: "repoEditHook", Scopes: repo, Token: true, h: a.editHook},
		{Method: "DELETE", Path: rp + "/{id}", Op: "repoDeleteHook", Scopes: repo, Token: true, h: a.deleteHook},
		{Method: "POST", Path: rp + "/{id}/tests", Op: "repoTestHook", Scopes: repo, Token: true, h: a.testHook},
		{Method: "GET", Path: rp + "/git", Op: "repoListGitHooks", Scopes: repo, Token: true, h: a.gitHooks},
		{Method: "GET", Path: rp + "/git/{id}", Op: "repoGetGitHook", Scopes: repo, Token: true, h: a.gitHooks},
		{Method: "PATCH", Path: rp + "/git/{id}", Op: "repoEditGitHook", Scopes: repo, Token: true, h: a.gitHooks},
		{Method: "DELETE", Path: rp + "/git/{id}", Op: "repoDeleteGitHook", Scopes: repo, Token: true, h: a.gitHooks},

		{Method: "GET", Path: "/orgs/{org}/hooks", Op: "orgListHooks", Scopes: hookOrgScope, Token: true, h: a.listHooks},
		{Method: "POST", Path: "/orgs/{org}/hooks", Op: "orgCreateHook", Scopes: hookOrgScope, Token: true, h: a.createHook},
		{Method: "GET", Path: "/orgs/{org}/hooks/{id}", Op: "orgGetHook", Scopes: hookOrgScope, Token: true, h: a.getHook},
		{Method: "PATCH", Path: "/orgs/{org}/hooks/{id}", Op: "orgEditHook", Scopes: hookOrgScope, Token: true, h: a.editHook},
		{Method: "DELETE", Path: "/orgs/{org}/hooks/{id}", Op: "orgDeleteHook", Scopes: hookOrgScope, Token: true, h: a.deleteHook},

		{Method: "GET", Path: "/user/hooks", Op: "userListHooks", Scopes: user, Token: true, h: a.listHooks},
		{Method: "POST", Path: "/user/hooks", Op: "userCreateHook", Scopes: user, Token: true, h: a.createHook},
		{Method: "GET", Path: "/user/hooks/{id}", Op: "userGetHook", Scopes: user, Token: true, h: a.getHook},
		{Method: "PATCH", Path: "/user/hooks/{id}", Op: "userEditHook", Scopes: user, Token: true, h: a.editHook},
		{Method: "DELETE", Path: "/user/hooks/{id}", Op: "userDeleteHook", Scopes: user, Token: true, h: a.deleteHook},
	}
}
