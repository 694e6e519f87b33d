package httpapi

import "github.com/hearthforge/hearth/forge"

// The scope categories of the organisation routes (routes.go has the
// others).
var (
	orgScope     = []forge.ScopeCategory{forge.CategoryOrganization}
	userOrgScope = []forge.ScopeCategory{forge.CategoryUser, forge.CategoryOrganization}
	orgRepoScope = []forge.ScopeCategory{forge.CategoryOrganization, forge.CategoryRepository}
)

// orgRoutes are the organisation and team operations, with Forgejo's scope
// groups (routers/api/v1/api.go): /orgs/** and /teams/** need the
// organization category, /user/orgs and /users/{username}/orgs/** user
// and organization, /user/teams user, /repos/{owner}/{repo}/teams/**
// repository, /admin/** admin. Who may do what inside an organisation
// (owner, member, team member, site administrator) is decided by
// forge/orgs, with Forgejo's messages. The organisation repository routes
// are served when Config.Repos is set too.
//
// Left out (501): organisation and team activity feeds (Hearth records no
// activity yet), organisation hooks, labels, Actions and quota.
func (a *API) orgRoutes() []route {
	const o = "/orgs/{org}"
	rt := []route{
		// Forgejo registers GET /orgs' scope check after its handler, so it
		// never runs (spec/auth.md §4): no scope is required.
		{Method: "GET", Path: "/orgs", Op: "orgGetAll", Public: true, h: a.listOrgs},
		{Method: "POST", Path: "/orgs", Op: "orgCreate", Scopes: orgScope, Token: true, h: a.createOrg},
		{Method: "GET", Path: o, Op: "orgGet", Scopes: orgScope, h: a.getOrg},
		{Method: "PATCH", Path: o, Op: "orgEdit", Scopes: orgScope, Token: true, h: a.editOrg},
		{Method: "DELETE", Path: o, Op: "orgDelete", Scopes: orgScope, Token: true, h: a.deleteOrg},
		{Method: "POST", Path: o + "/rename", Op: "renameOrg", Scopes: orgScope, Token: true, h: a.renameOrg},
		{Method: "POST", Path: o + "/avatar", Op: "orgUpdateAvatar", Scopes: orgScope, Token: true, h: a.setOrgAvatar},
		{Method: "DELETE", Path: o + "/avatar", Op: "orgDeleteAvatar", Scopes: orgScope, Token: true, h: a.deleteOrgAvatar},

		{Method: "GET", Path: "/user/orgs", Op: "orgListCurrentUserOrgs", Scopes: userOrgScope, Token: true, h: a.listMyOrgs},
		{Method: "GET", Path: "/users/{username}/orgs", Op: "orgListUserOrgs", Scopes: userOrgScope, Token: true, h: a.listUserOrgs},
		{Method: "GET", Path: "/users/{username}/orgs/{org}/permissions", Op: "orgGetUserPermissions", Scopes: userOrgScope, Token: true, h: a.orgPermissions},
		{Method: "GET", Path: "/admin/orgs", Op: "adminGetAllOrgs", Scopes: admin, Token: true, Admin: true, h: a.adminListOrgs},
		{Method: "POST", Path: "/admin/users/{username}/orgs", Op: "adminCreateOrg", Scopes: admin, Token: true, Admin: true, h: a.adminCreateOrg},

		{Method: "GET", Path: o + "/members", Op: "orgListMembers", Scopes: orgScope, Token: true, h: a.listOrgMembers},
		{Method: "GET", Path: o + "/members/{username}", Op: "orgIsMember", Scopes: orgScope, Token: true, h: a.isOrgMember},
		{Method: "DELETE", Path: o + "/members/{username}", Op: "orgDeleteMember", Scopes: orgScope, Token: true, h: a.removeOrgMember},
		{Method: "GET", Path: o + "/public_members", Op: "orgListPublicMembers", Scopes: orgScope, h: a.listPublicMembers},
		{Method: "GET", Path: o + "/public_members/{username}", Op: "orgIsPublicMember", Scopes: orgScope, h: a.isPublicMember},
		{Method: "PUT", Path: o + "/public_members/{username}", Op: "orgPublicizeMember", Scopes: orgScope, Token: true, h: a.publicizeMember},
		{Method: "DELETE", Path: o + "/public_members/{username}", Op: "orgConcealMember", Scopes: orgScope, Token: true, h: a.concealMember},

		{Method: "GET", Path: o + "/list_blocked", Op: "orgListBlockedUsers", Scopes: orgScope, Token: true, h: a.listOrgBlocked},
		{Method: "PUT", Path: o + "/block/{username}", Op: "orgBlockUser", Scopes: orgScope, Token: true, h: a.blockOrgUser},
		{Method: "PUT", Path: o + "/unblock/{username}", Op: "orgUnblockUser", Scopes: orgScope, Token: true, h: a.unblockOrgUser},

		{Method: "GET", Path: o + "/teams", Op: "orgListTeams", Scopes: orgScope, Token: true, h: a.listOrgTeams},
		{Method: "POST", Path: o + "/teams", Op: "orgCreateTeam", Scopes: orgScope, Token: true, h: a.createTeam},
		{Method: "GET", Path: o + "/teams/search", Op: "teamSearch", Scopes: orgScope, Token: true, h: a.searchTeams},
		{Method: "GET", Path: "/user/teams", Op: "userListTeams", Scopes: user, Token: true, h: a.listMyTeams},
		{Method: "GET", Path: "/teams/{id}", Op: "orgGetTeam", Scopes: orgScope, Token: true, h: a.getTeam},
		{Method: "PATCH", Path: "/teams/{id}", Op: "orgEditTeam", Scopes: orgScope, Token: true, h: a.editTeam},
		{Method: "DELETE", Path: "/teams/{id}", Op: "orgDeleteTeam", Scopes: orgScope, Token: true, h: a.deleteTeam},
		{Method: "GET", Path: "/teams/{id}/members", Op: "orgListTeamMembers", Scopes: orgScope, Token: true, h: a.listTeamMembers},
		{Method: "GET", Path: "/teams/{id}/members/{username}", Op: "orgListTeamMember", Scopes: orgScope, Token: true, h: a.getTeamMember},
		{Method: "PUT", Path: "/teams/{id}/members/{username}", Op: "orgAddTeamMember", Scopes: orgScope, Token: true, h: a.addTeamMember},
		{Method: "DELETE", Path: "/teams/{id}/members/{username}", Op: "orgRemoveTeamMember", Scopes: orgScope, Token: true, h: a.removeTeamMember},
	}
	if a.cfg.Repos == nil {
		return rt
	}
	const rp = "/repos/{owner}/{repo}"
	return append(rt, []route{
		{Method: "GET", Path: o + "/repos", Op: "orgListRepos", Scopes: orgScope, h: a.listOrgRepos},
		{Method: "POST", Path: o + "/repos", Op: "createOrgRepo", Scopes: orgScope, Token: true, h: a.createOrgRepo},
		{Method: "POST", Path: "/org/{org}/repos", Op: "createOrgRepoDeprecated", Scopes: orgRepoScope, Token: true, h: a.createOrgRepoDeprecated},

		{Method: "GET", Path: "/teams/{id}/repos", Op: "orgListTeamRepos", Scopes: orgScope, Token: true, h: a.listTeamRepos},
		{Method: "GET", Path: "/teams/{id}/repos/{org}/{repo}", Op: "orgListTeamRepo", Scopes: orgScope, Token: true, h: a.getTeamRepo},
		{Method: "PUT", Path: "/teams/{id}/repos/{org}/{repo}", Op: "orgAddTeamRepository", Scopes: orgScope, Token: true, h: a.addTeamRepo},
		{Method: "DELETE", Path: "/teams/{id}/repos/{org}/{repo}", Op: "orgRemoveTeamRepository", Scopes: orgScope, Token: true, h: a.removeTeamRepo},

		{Method: "GET", Path: rp + "/teams", Op: "repoListTeams", Scopes: repo, Token: true, h: a.listRepoTeams},
		{Method: "GET", Path: rp + "/teams/{team}", Op: "repoCheckTeam", Scopes: repo, Token: true, h: a.checkRepoTeam},
		{Method: "PUT", Path: rp + "/teams/{team}", Op: "repoAddTeam", Scopes: repo, Token: true, h: a.addRepoTeam},
		{Method: "DELETE", Path: rp + "/teams/{team}", Op: "repoDeleteTeam", Scopes: repo, Token: true, h: a.removeRepoTeam},
	}...)
}
