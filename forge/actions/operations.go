package actions

import "github.com/hearthforge/hearth/forge"

// operation is an operation this package serves: the level it acts on,
// whether it reads or writes, and what it needs on its target.
type operation struct {
	level  Level
	access forge.AccessLevel
	need   need
}

// operations are the operations this package serves, by Forgejo's
// operationId (routers/api/v1/api.go: /repos/{owner}/{repo}/actions,
// /orgs/{org}/actions, /user/actions, /admin/runners, /admin/actions).
var operations = map[string]operation{
	"repoListActionsSecrets": {LevelRepo, forge.AccessRead, needOwner}, "updateRepoSecret": {LevelRepo, forge.AccessWrite, needOwner},
	"deleteRepoSecret":     {LevelRepo, forge.AccessWrite, needOwner},
	"getRepoVariablesList": {LevelRepo, forge.AccessRead, needOwner}, "getRepoVariable": {LevelRepo, forge.AccessRead, needOwner},
	"createRepoVariable": {LevelRepo, forge.AccessWrite, needOwner}, "updateRepoVariable": {LevelRepo, forge.AccessWrite, needOwner},
	"deleteRepoVariable":             {LevelRepo, forge.AccessWrite, needOwner},
	"repoGetRunnerRegistrationToken": {LevelRepo, forge.AccessRead, needOwner},
	"getRepoRunners":                 {LevelRepo, forge.AccessRead, needOwner}, "registerRepoRunner": {LevelRepo, forge.AccessWrite, needOwner},
	"repoSearchRunJobs": {LevelRepo, forge.AccessRead, needOwner}, "getRepoRunner": {LevelRepo, forge.AccessRead, needOwner},
	"deleteRepoRunner": {LevelRepo, forge.AccessWrite, needOwner},
	"ListActionRuns":   {LevelRepo, forge.AccessRead, needRead}, "ActionRun": {LevelRepo, forge.AccessRead, needRead},
	"ListActionTasks": {LevelRepo, forge.AccessRead, needRead}, "DispatchWorkflow": {LevelRepo, forge.AccessWrite, needWrite},

	"orgListActionsSecrets": {LevelOrg, forge.AccessRead, needOwner}, "updateOrgSecret": {LevelOrg, forge.AccessWrite, needOwner},
	"deleteOrgSecret":     {LevelOrg, forge.AccessWrite, needOwner},
	"getOrgVariablesList": {LevelOrg, forge.AccessRead, needOwner}, "getOrgVariable": {LevelOrg, forge.AccessRead, needOwner},
	"createOrgVariable": {LevelOrg, forge.AccessWrite, needOwner}, "updateOrgVariable": {LevelOrg, forge.AccessWrite, needOwner},
	"deleteOrgVariable":             {LevelOrg, forge.AccessWrite, needOwner},
	"orgGetRunnerRegistrationToken": {LevelOrg, forge.AccessRead, needOwner},
	"getOrgRunners":                 {LevelOrg, forge.AccessRead, needOwner}, "registerOrgRunner": {LevelOrg, forge.AccessWrite, needOwner},
	"orgSearchRunJobs": {LevelOrg, forge.AccessRead, needOwner}, "getOrgRunner": {LevelOrg, forge.AccessRead, needOwner},
	"deleteOrgRunner": {LevelOrg, forge.AccessWrite, needOwner},

	"updateUserSecret": {LevelUser, forge.AccessWrite, needOwner}, "deleteUserSecret": {LevelUser, forge.AccessWrite, needOwner},
	"getUserVariablesList": {LevelUser, forge.AccessRead, needOwner}, "getUserVariable": {LevelUser, forge.AccessRead, needOwner},
	"createUserVariable": {LevelUser, forge.AccessWrite, needOwner}, "updateUserVariable": {LevelUser, forge.AccessWrite, needOwner},
	"deleteUserVariable":             {LevelUser, forge.AccessWrite, needOwner},
	"userGetRunnerRegistrationToken": {LevelUser, forge.AccessRead, needOwner},
	"getUserRunners":                 {LevelUser, forge.AccessRead, needOwner}, "registerUserRunner": {LevelUser, forge.AccessWrite, needOwner},
	"userSearchRunJobs": {LevelUser, forge.AccessRead, needOwner}, "getUserRunner": {LevelUser, forge.AccessRead, needOwner},
	"deleteUserRunner": {LevelUser, forge.AccessWrite, needOwner},

	"adminGetRegistrationToken": {LevelGlobal, forge.AccessRead, needOwner}, "adminSearchRunJobs": {LevelGlobal, forge.AccessRead, needOwner},
	"adminGetRunnerRegistrationToken": {LevelGlobal, forge.AccessRead, needOwner},
	"getAdminRunners":                 {LevelGlobal, forge.AccessRead, needOwner}, "registerAdminRunner": {LevelGlobal, forge.AccessWrite, needOwner},
	"adminGetActionRunJobs": {LevelGlobal, forge.AccessRead, needOwner}, "getAdminRunner": {LevelGlobal, forge.AccessRead, needOwner},
	"deleteAdminRunner": {LevelGlobal, forge.AccessWrite, needOwner},
}

// gated are the operations whose target check runs before their body is
// read (Forgejo's reqOwner, reqOrgOwnership and reqRepoWriter middlewares
// of the writes that carry a body): Authorize is their probe.
var gated = map[string]bool{
	"createRepoVariable": true, "updateRepoVariable": true, "updateRepoSecret": true, "registerRepoRunner": true,
	"createOrgVariable": true, "updateOrgVariable": true, "updateOrgSecret": true, "registerOrgRunner": true,
	"DispatchWorkflow": true,
}

// requirementOf is what an operation on level l at access that needs n
// on its target requires before the target is resolved: the token scope
// category of the level (repository, organization, user, admin), a
// signed-in user for everything but reading a repository's runs and tasks
// (Forgejo's reqToken), and a site administrator at the instance level.
// The role on the target (repository owner, Actions writer, organisation
// owner) is resolve's.
func requirementOf(l Level, access forge.AccessLevel, n need) forge.Requirement {
	return forge.Requirement{
		Level:      access,
		Categories: []forge.ScopeCategory{Target{Level: l}.scopeCategory()},
		SignedIn:   n != needRead,
		SiteAdmin:  l == LevelGlobal,
	}
}

// Requirements returns what each operation this package serves requires,
// by Forgejo's operationId: the one statement of it, which the methods
// check (resolve) and the API derives its routes' scopes, token and
// administrator checks and gates (Requirement.Gate: Authorize) from. A
// new map at each call.
func Requirements() map[string]forge.Requirement {
	return forge.Declare(operations, func(o operation) forge.Requirement { return requirementOf(o.level, o.access, o.need) }, gated)
}
