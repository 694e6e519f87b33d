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
// forge/orgs, with Forgejo's messages. What each of its operations
// requires (scopes, token, site administrator, gate) is not written here:
// forge/orgs declares it (orgs.Requirements) and the table derives it, as
// from forge/repos' declaration (repos.Requirements) for the organisation
// repository operations, which are served when Config.Repos is set too.
//
// Left out (501): organisation and team activity feeds (Hearth records no
// activity yet), organisation hooks, labels, Actions and quota.
func (a *API) orgRoutes() []route {
	const o = "/orgs/{org}"
	rt := []route{
		{Method: "GET", Path: "/orgs", Op: "orgGetAll", h: a.listOrgs},
		{Method: "POST", Path: "/orgs", Op: "orgCreate", h: a.createOrg},
		{Method: "GET", Path: o, Op: "orgGet", h: a.getOrg},
		{Method: "PATCH", Path: o, Op: "orgEdit", h: a.editOrg},
		{Method: "DELETE", Path: o, Op: "orgDelete", h: a.deleteOrg},
		{Method: "POST", Path: o + "/rename", Op: "renameOrg", h: a.renameOrg},
		{Method: "POST", Path: o + "/avatar", Op: "orgUpdateAvatar", h: a.setOrgAvatar},
		{Method: "DELETE", Path: o + "/avatar", Op: "orgDeleteAvatar", h: a.deleteOrgAvatar},

		{Method: "GET", Path: "/user/orgs", Op: "orgListCurrentUserOrgs", h: a.listMyOrgs},
		{Method: "GET", Path: "/users/{username}/orgs", Op: "orgListUserOrgs", h: a.listUserOrgs},
		{Method: "GET", Path: "/users/{username}/orgs/{org}/permissions", Op: "orgGetUserPermissions", h: a.orgPermissions},
		{Method: "GET", Path: "/admin/orgs", Op: "adminGetAllOrgs", h: a.adminListOrgs},
		{Method: "POST", Path: "/admin/users/{username}/orgs", Op: "adminCreateOrg", h: a.adminCreateOrg},

		{Method: "GET", Path: o + "/members", Op: "orgListMembers", h: a.listOrgMembers},
		{Method: "GET", Path: o + "/members/{username}", Op: "orgIsMember", h: a.isOrgMember},
		{Method: "DELETE", Path: o + "/members/{username}", Op: "orgDeleteMember", h: a.removeOrgMember},
		{Method: "GET", Path: o + "/public_members", Op: "orgListPublicMembers", h: a.listPublicMembers},
		{Method: "GET", Path: o + "/public_members/{username}", Op: "orgIsPublicMember", h: a.isPublicMember},
		{Method: "PUT", Path: o + "/public_members/{username}", Op: "orgPublicizeMember", h: a.publicizeMember},
		{Method: "DELETE", Path: o + "/public_members/{username}", Op: "orgConcealMember", h: a.concealMember},

		{Method: "GET", Path: o + "/list_blocked", Op: "orgListBlockedUsers", h: a.listOrgBlocked},
		{Method: "PUT", Path: o + "/block/{username}", Op: "orgBlockUser", h: a.blockOrgUser},
		{Method: "PUT", Path: o + "/unblock/{username}", Op: "orgUnblockUser", h: a.unblockOrgUser},

		{Method: "GET", Path: o + "/teams", Op: "orgListTeams", h: a.listOrgTeams},
		{Method: "POST", Path: o + "/teams", Op: "orgCreateTeam", h: a.createTeam},
		{Method: "GET", Path: o + "/teams/search", Op: "teamSearch", h: a.searchTeams},
		{Method: "GET", Path: "/user/teams", Op: "userListTeams", h: a.listMyTeams},
		{Method: "GET", Path: "/teams/{id}", Op: "orgGetTeam", h: a.getTeam},
		{Method: "PATCH", Path: "/teams/{id}", Op: "orgEditTeam", h: a.editTeam},
		{Method: "DELETE", Path: "/teams/{id}", Op: "orgDeleteTeam", h: a.deleteTeam},
		{Method: "GET", Path: "/teams/{id}/members", Op: "orgListTeamMembers", h: a.listTeamMembers},
		{Method: "GET", Path: "/teams/{id}/members/{username}", Op: "orgListTeamMember", h: a.getTeamMember},
		{Method: "PUT", Path: "/teams/{id}/members/{username}", Op: "orgAddTeamMember", h: a.addTeamMember},
		{Method: "DELETE", Path: "/teams/{id}/members/{username}", Op: "orgRemoveTeamMember", h: a.removeTeamMember},
	}
	if a.cfg.Repos == nil {
		return rt
	}
	const rp = "/repos/{owner}/{repo}"
	return append(rt, []route{
		{Method: "GET", Path: o + "/repos", Op: "orgListRepos", h: a.listOrgRepos},
		{Method: "POST", Path: o + "/repos", Op: "createOrgRepo", h: a.createOrgRepo},
		{Method: "POST", Path: "/org/{org}/repos", Op: "createOrgRepoDeprecated", h: a.createOrgRepoDeprecated},

		{Method: "GET", Path: "/teams/{id}/repos", Op: "orgListTeamRepos", h: a.listTeamRepos},
		{Method: "GET", Path: "/teams/{id}/repos/{org}/{repo}", Op: "orgListTeamRepo", h: a.getTeamRepo},
		{Method: "PUT", Path: "/teams/{id}/repos/{org}/{repo}", Op: "orgAddTeamRepository", h: a.addTeamRepo},
		{Method: "DELETE", Path: "/teams/{id}/repos/{org}/{repo}", Op: "orgRemoveTeamRepository", h: a.removeTeamRepo},

		{Method: "GET", Path: rp + "/teams", Op: "repoListTeams", h: a.listRepoTeams},
		{Method: "GET", Path: rp + "/teams/{team}", Op: "repoCheckTeam", h: a.checkRepoTeam},
		{Method: "PUT", Path: rp + "/teams/{team}", Op: "repoAddTeam", h: a.addRepoTeam},
		{Method: "DELETE", Path: rp + "/teams/{team}", Op: "repoDeleteTeam", h: a.removeRepoTeam},
	}...)
}
