package httpapi

import "github.com/hearthforge/hearth/forge"

// quotaRoutes are the quota operations (spec/quota.md §6): /user/quota*
// (scope user), /orgs/{org}/quota* (scope organization; organisation
// owners and site administrators) and /admin/quota/**,
// /admin/users/{username}/quota* (scope admin, site administrators).
// Without Config.Quota they are left out (501); with quota disabled they
// answer 404 before anything else, as Forgejo, which does not register
// them then.
func (a *API) quotaRoutes() []route {
	if a.cfg.Quota == nil {
		return nil
	}
	const (
		o  = "/orgs/{org}/quota"
		ar = "/admin/quota/rules"
		ag = "/admin/quota/groups"
	)
	orgs := []forge.ScopeCategory{forge.CategoryOrganization}
	rt := []route{
		{Method: "GET", Path: "/user/quota", Op: "userGetQuota", Scopes: user, Token: true, h: a.quotaInfo(false)},
		{Method: "GET", Path: "/user/quota/check", Op: "userCheckQuota", Scopes: user, Token: true, h: a.quotaCheck(false)},
		{Method: "GET", Path: "/user/quota/attachments", Op: "userListQuotaAttachments", Scopes: user, Token: true, h: a.quotaAttachments(false)},
		{Method: "GET", Path: "/user/quota/packages", Op: "userListQuotaPackages", Scopes: user, Token: true, h: a.quotaPackages(false)},
		{Method: "GET", Path: "/user/quota/artifacts", Op: "userListQuotaArtifacts", Scopes: user, Token: true, h: a.quotaArtifacts(false)},

		// The organisation's existence (404) is checked before the token
		// (401), as Forgejo's orgAssignment runs before reqToken.
		{Method: "GET", Path: o, Op: "orgGetQuota", Scopes: orgs, h: a.quotaInfo(true)},
		{Method: "GET", Path: o + "/check", Op: "orgCheckQuota", Scopes: orgs, h: a.quotaCheck(true)},
		{Method: "GET", Path: o + "/attachments", Op: "orgListQuotaAttachments", Scopes: orgs, h: a.quotaAttachments(true)},
		{Method: "GET", Path: o + "/packages", Op: "orgListQuotaPackages", Scopes: orgs, h: a.quotaPackages(true)},
		{Method: "GET", Path: o + "/artifacts", Op: "orgListQuotaArtifacts", Scopes: orgs, h: a.quotaArtifacts(true)},

		{Method: "GET", Path: ar, Op: "adminListQuotaRules", Scopes: admin, Token: true, Admin: true, h: a.quotaListRules},
		{Method: "POST", Path: ar, Op: "adminCreateQuotaRule", Scopes: admin, Token: true, Admin: true, h: a.quotaCreateRule},
		{Method: "GET", Path: ar + "/{quotarule}", Op: "adminGetQuotaRule", Scopes: admin, Token: true, Admin: true, h: a.quotaGetRule},
		{Method: "PATCH", Path: ar + "/{quotarule}", Op: "adminEditQuotaRule", Scopes: admin, Token: true, Admin: true, h: a.quotaEditRule},
		{Method: "DELETE", Path: ar + "/{quotarule}", Op: "adminDeleteQuotaRule", Scopes: admin, Token: true, Admin: true, h: a.quotaDeleteRule},
		{Method: "GET", Path: ag, Op: "adminListQuotaGroups", Scopes: admin, Token: true, Admin: true, h: a.quotaListGroups},
		{Method: "POST", Path: ag, Op: "adminCreateQuotaGroup", Scopes: admin, Token: true, Admin: true, h: a.quotaCreateGroup},
		{Method: "GET", Path: ag + "/{quotagroup}", Op: "adminGetQuotaGroup", Scopes: admin, Token: true, Admin: true, h: a.quotaGetGroup},
		{Method: "DELETE", Path: ag + "/{quotagroup}", Op: "adminDeleteQuotaGroup", Scopes: admin, Token: true, Admin: true, h: a.quotaDeleteGroup},
		{Method: "PUT", Path: ag + "/{quotagroup}/rules/{quotarule}", Op: "adminAddRuleToQuotaGroup", Scopes: admin, Token: true, Admin: true, h: a.quotaGroupRule(true)},
		{Method: "DELETE", Path: ag + "/{quotagroup}/rules/{quotarule}", Op: "adminRemoveRuleFromQuotaGroup", Scopes: admin, Token: true, Admin: true, h: a.quotaGroupRule(false)},
		{Method: "GET", Path: ag + "/{quotagroup}/users", Op: "adminListUsersInQuotaGroup", Scopes: admin, Token: true, Admin: true, h: a.quotaGroupUsers},
		{Method: "PUT", Path: ag + "/{quotagroup}/users/{username}", Op: "adminAddUserToQuotaGroup", Scopes: admin, Token: true, Admin: true, h: a.quotaGroupUser(true)},
		{Method: "DELETE", Path: ag + "/{quotagroup}/users/{username}", Op: "adminRemoveUserFromQuotaGroup", Scopes: admin, Token: true, Admin: true, h: a.quotaGroupUser(false)},
		{Method: "GET", Path: "/admin/users/{username}/quota", Op: "adminGetUserQuota", Scopes: admin, Token: true, Admin: true, h: a.quotaAdminInfo},
		{Method: "POST", Path: "/admin/users/{username}/quota/groups", Op: "adminSetUserQuotaGroups", Scopes: admin, Token: true, Admin: true, h: a.quotaSetUserGroups},
	}
	if !a.cfg.Quota.Enabled() {
		for i := range rt {
			rt[i] = route{Method: rt[i].Method, Path: rt[i].Path, Op: rt[i].Op, Public: true, h: func(c *call) { c.notFound() }}
		}
	}
	return rt
}
