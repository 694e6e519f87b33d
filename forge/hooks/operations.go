package hooks

import "github.com/hearthforge/hearth/forge"

// operation is an operation this package serves: whose hooks it is about
// and whether it reads or writes them.
type operation struct {
	owner ownerKind
	level forge.AccessLevel
}

// operations are the operations this package serves, by Forgejo's
// operationId (routers/api/v1/api.go: /admin/hooks, /repos/{owner}/{repo}/hooks,
// /orgs/{org}/hooks, /user/hooks).
var operations = map[string]operation{
	"adminListHooks": {ownerAdmin, forge.AccessRead}, "adminGetHook": {ownerAdmin, forge.AccessRead},
	"adminCreateHook": {ownerAdmin, forge.AccessWrite}, "adminEditHook": {ownerAdmin, forge.AccessWrite},
	"adminDeleteHook": {ownerAdmin, forge.AccessWrite},

	"repoListHooks": {ownerRepo, forge.AccessRead}, "repoGetHook": {ownerRepo, forge.AccessRead},
	"repoCreateHook": {ownerRepo, forge.AccessWrite}, "repoEditHook": {ownerRepo, forge.AccessWrite},
	"repoDeleteHook": {ownerRepo, forge.AccessWrite}, "repoTestHook": {ownerRepo, forge.AccessWrite},
	"repoListGitHooks": {ownerRepo, forge.AccessRead}, "repoGetGitHook": {ownerRepo, forge.AccessRead},
	"repoEditGitHook": {ownerRepo, forge.AccessWrite}, "repoDeleteGitHook": {ownerRepo, forge.AccessWrite},

	"orgListHooks": {ownerOrg, forge.AccessRead}, "orgGetHook": {ownerOrg, forge.AccessRead},
	"orgCreateHook": {ownerOrg, forge.AccessWrite}, "orgEditHook": {ownerOrg, forge.AccessWrite},
	"orgDeleteHook": {ownerOrg, forge.AccessWrite},

	"userListHooks": {ownerUser, forge.AccessRead}, "userGetHook": {ownerUser, forge.AccessRead},
	"userCreateHook": {ownerUser, forge.AccessWrite}, "userEditHook": {ownerUser, forge.AccessWrite},
	"userDeleteHook": {ownerUser, forge.AccessWrite},
}

// gated are the operations whose resource check runs before their body is
// read (Forgejo's reqRepoAdmin and reqOrgOwnership middlewares of the hook
// writes that carry one): Authorize is their probe.
var gated = map[string]bool{"repoCreateHook": true, "repoEditHook": true, "orgCreateHook": true, "orgEditHook": true}

// requirementOf is what the operations on kind's hooks at level require
// before the owner is resolved: the token scope category of the owner
// (admin, repository, organization, user), a signed-in user, and a site
// administrator for the system and default hooks. The role in the owner
// (repository administrator, organisation owner) is resolve's.
func requirementOf(kind ownerKind, level forge.AccessLevel) forge.Requirement {
	r := forge.Requirement{Level: level, SignedIn: true}
	switch kind {
	case ownerAdmin:
		r.Categories, r.SiteAdmin = []forge.ScopeCategory{forge.CategoryAdmin}, true
	case ownerRepo:
		r.Categories = []forge.ScopeCategory{forge.CategoryRepository}
	case ownerOrg:
		r.Categories = []forge.ScopeCategory{forge.CategoryOrganization}
	case ownerUser:
		r.Categories = []forge.ScopeCategory{forge.CategoryUser}
	}
	return r
}

// Requirements returns what each operation this package serves requires,
// by Forgejo's operationId: the one statement of it, which the methods
// check (resolve) and the API derives its routes' scopes, token and
// administrator checks and gates (Requirement.Gate: Authorize) from. A
// new map at each call.
func Requirements() map[string]forge.Requirement {
	return forge.Declare(operations, func(o operation) forge.Requirement { return requirementOf(o.owner, o.level) }, gated)
}
