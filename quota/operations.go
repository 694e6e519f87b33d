package quota

import "github.com/hearthforge/hearth/forge"

// kind is whose quota an operation is about.
type kind int

const (
	kindUser  kind = iota + 1 // the acting user's (/user/quota*)
	kindOrg                   // an organisation's (/orgs/{org}/quota*)
	kindAdmin                 // the instance's rules and groups, any user's (/admin/**)
)

// operation is an operation this package serves: whose quota it is about
// and whether it reads or writes.
type operation struct {
	kind   kind
	access forge.AccessLevel
}

// operations are the operations this package serves, by Forgejo's
// operationId (routers/api/v1/api.go; spec/quota.md §6).
var operations = map[string]operation{
	"userGetQuota": {kindUser, forge.AccessRead}, "userCheckQuota": {kindUser, forge.AccessRead},
	"userListQuotaAttachments": {kindUser, forge.AccessRead}, "userListQuotaPackages": {kindUser, forge.AccessRead},
	"userListQuotaArtifacts": {kindUser, forge.AccessRead},

	"orgGetQuota": {kindOrg, forge.AccessRead}, "orgCheckQuota": {kindOrg, forge.AccessRead},
	"orgListQuotaAttachments": {kindOrg, forge.AccessRead}, "orgListQuotaPackages": {kindOrg, forge.AccessRead},
	"orgListQuotaArtifacts": {kindOrg, forge.AccessRead},

	"adminListQuotaRules": {kindAdmin, forge.AccessRead}, "adminCreateQuotaRule": {kindAdmin, forge.AccessWrite},
	"adminGetQuotaRule": {kindAdmin, forge.AccessRead}, "adminEditQuotaRule": {kindAdmin, forge.AccessWrite},
	"adminDeleteQuotaRule": {kindAdmin, forge.AccessWrite},
	"adminListQuotaGroups": {kindAdmin, forge.AccessRead}, "adminCreateQuotaGroup": {kindAdmin, forge.AccessWrite},
	"adminGetQuotaGroup": {kindAdmin, forge.AccessRead}, "adminDeleteQuotaGroup": {kindAdmin, forge.AccessWrite},
	"adminAddRuleToQuotaGroup": {kindAdmin, forge.AccessWrite}, "adminRemoveRuleFromQuotaGroup": {kindAdmin, forge.AccessWrite},
	"adminListUsersInQuotaGroup": {kindAdmin, forge.AccessRead}, "adminAddUserToQuotaGroup": {kindAdmin, forge.AccessWrite},
	"adminRemoveUserFromQuotaGroup": {kindAdmin, forge.AccessWrite},
	"adminGetUserQuota":             {kindAdmin, forge.AccessRead}, "adminSetUserQuotaGroups": {kindAdmin, forge.AccessWrite},
}

// requirementOf is what the operations on k's quota at access require
// before the quota's owner is resolved: the token scope category (user,
// organization, admin), a signed-in user for the user's and the admin
// operations (Forgejo's reqToken; an organisation's quota checks the
// organisation's existence first, as Forgejo's orgAssignment runs before
// reqToken: owner checks the sign-in after it), and a site administrator
// for the admin operations. The ownership of an organisation is owner's.
func requirementOf(k kind, access forge.AccessLevel) forge.Requirement {
	switch k {
	case kindUser:
		return forge.Requirement{Level: access, Categories: []forge.ScopeCategory{forge.CategoryUser}, SignedIn: true}
	case kindOrg:
		return forge.Requirement{Level: access, Categories: []forge.ScopeCategory{forge.CategoryOrganization}}
	}
	return forge.Requirement{Level: access, Categories: []forge.ScopeCategory{forge.CategoryAdmin}, SignedIn: true, SiteAdmin: true}
}

// Requirements returns what each operation this package serves requires,
// by Forgejo's operationId: the one statement of it, which the methods
// check (owner, admin) and the API derives its routes' scopes, token and
// administrator checks from. No quota operation is gated: none reads a
// body before its checks. A new map at each call.
func Requirements() map[string]forge.Requirement {
	return forge.Declare(operations, func(o operation) forge.Requirement { return requirementOf(o.kind, o.access) }, nil)
}
