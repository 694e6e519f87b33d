package httpapi

// quotaRoutes are the quota operations (spec/quota.md §6): /user/quota*
// (scope user), /orgs/{org}/quota* (scope organization; organisation
// owners and site administrators) and /admin/quota/**,
// /admin/users/{username}/quota* (scope admin, site administrators).
// Without Config.Quota they are left out (501); with quota disabled they
// answer 404 before anything else, as Forgejo, which does not register
// them then. What each operation requires (scopes, token, site
// administrator) is not written here: quota declares it
// (quota.Requirements) and the table derives it while quota is enabled.
func (a *API) quotaRoutes() []route {
	if a.cfg.Quota == nil {
		return nil
	}
	const (
		o  = "/orgs/{org}/quota"
		ar = "/admin/quota/rules"
		ag = "/admin/quota/groups"
	)
	rt := []route{
		{Method: "GET", Path: "/user/quota", Op: "userGetQuota", h: a.quotaInfo(false)},
		{Method: "GET", Path: "/user/quota/check", Op: "userCheckQuota", h: a.quotaCheck(false)},
		{Method: "GET", Path: "/user/quota/attachments", Op: "userListQuotaAttachments", h: a.quotaAttachments(false)},
		{Method: "GET", Path: "/user/quota/packages", Op: "userListQuotaPackages", h: a.quotaPackages(false)},
		{Method: "GET", Path: "/user/quota/artifacts", Op: "userListQuotaArtifacts", h: a.quotaArtifacts(false)},

		{Method: "GET", Path: o, Op: "orgGetQuota", h: a.quotaInfo(true)},
		{Method: "GET", Path: o + "/check", Op: "orgCheckQuota", h: a.quotaCheck(true)},
		{Method: "GET", Path: o + "/attachments", Op: "orgListQuotaAttachments", h: a.quotaAttachments(true)},
		{Method: "GET", Path: o + "/packages", Op: "orgListQuotaPackages", h: a.quotaPackages(true)},
		{Method: "GET", Path: o + "/artifacts", Op: "orgListQuotaArtifacts", h: a.quotaArtifacts(true)},

		{Method: "GET", Path: ar, Op: "adminListQuotaRules", h: a.quotaListRules},
		{Method: "POST", Path: ar, Op: "adminCreateQuotaRule", h: a.quotaCreateRule},
		{Method: "GET", Path: ar + "/{quotarule}", Op: "adminGetQuotaRule", h: a.quotaGetRule},
		{Method: "PATCH", Path: ar + "/{quotarule}", Op: "adminEditQuotaRule", h: a.quotaEditRule},
		{Method: "DELETE", Path: ar + "/{quotarule}", Op: "adminDeleteQuotaRule", h: a.quotaDeleteRule},
		{Method: "GET", Path: ag, Op: "adminListQuotaGroups", h: a.quotaListGroups},
		{Method: "POST", Path: ag, Op: "adminCreateQuotaGroup", h: a.quotaCreateGroup},
		{Method: "GET", Path: ag + "/{quotagroup}", Op: "adminGetQuotaGroup", h: a.quotaGetGroup},
		{Method: "DELETE", Path: ag + "/{quotagroup}", Op: "adminDeleteQuotaGroup", h: a.quotaDeleteGroup},
		{Method: "PUT", Path: ag + "/{quotagroup}/rules/{quotarule}", Op: "adminAddRuleToQuotaGroup", h: a.quotaGroupRule(true)},
		{Method: "DELETE", Path: ag + "/{quotagroup}/rules/{quotarule}", Op: "adminRemoveRuleFromQuotaGroup", h: a.quotaGroupRule(false)},
		{Method: "GET", Path: ag + "/{quotagroup}/users", Op: "adminListUsersInQuotaGroup", h: a.quotaGroupUsers},
		{Method: "PUT", Path: ag + "/{quotagroup}/users/{username}", Op: "adminAddUserToQuotaGroup", h: a.quotaGroupUser(true)},
		{Method: "DELETE", Path: ag + "/{quotagroup}/users/{username}", Op: "adminRemoveUserFromQuotaGroup", h: a.quotaGroupUser(false)},
		{Method: "GET", Path: "/admin/users/{username}/quota", Op: "adminGetUserQuota", h: a.quotaAdminInfo},
		{Method: "POST", Path: "/admin/users/{username}/quota/groups", Op: "adminSetUserQuotaGroups", h: a.quotaSetUserGroups},
	}
	if !a.cfg.Quota.Enabled() {
		for i := range rt {
			rt[i] = route{Method: rt[i].Method, Path: rt[i].Path, Op: rt[i].Op, Public: true, h: func(c *call) { c.notFound() }}
		}
	}
	return rt
}
