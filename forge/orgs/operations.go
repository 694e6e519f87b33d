package orgs

import "github.com/hearthforge/hearth/forge"

// The scope categories of this package's operations (Forgejo's route
// groups in routers/api/v1/api.go): /orgs/** and /teams/** organization,
// /user/orgs and /users/{username}/orgs/** user and organization,
// /user/teams user, /repos/{owner}/{repo}/teams/** repository, /admin/**
// admin.
var (
	org     = []forge.ScopeCategory{forge.CategoryOrganization}
	userOrg = []forge.ScopeCategory{forge.CategoryUser, forge.CategoryOrganization}
	repo    = []forge.ScopeCategory{forge.CategoryRepository}
	user    = []forge.ScopeCategory{forge.CategoryUser}
)

const (
	r = forge.AccessRead
	w = forge.AccessWrite
)

// operations are the operations this package serves, by Forgejo's
// operationId, with what each requires of its actor before the
// organisation, team or repository it names is resolved. Forgejo
// registers GET /orgs' (orgGetAll) scope check after its handler, so it
// never runs (spec/auth.md §4): it requires no scope. The organisation
// repository operations are forge/repos'.
var operations = map[string]forge.Requirement{
	"orgGetAll":               forge.Anyone(r),
	"orgCreate":               forge.SignedInTo(w, org...),
	"orgGet":                  forge.Anyone(r, org...),
	"orgEdit":                 forge.SignedInTo(w, org...),
	"orgDelete":               forge.SignedInTo(w, org...),
	"renameOrg":               forge.SignedInTo(w, org...),
	"orgUpdateAvatar":         forge.SignedInTo(w, org...),
	"orgDeleteAvatar":         forge.SignedInTo(w, org...),
	"orgListCurrentUserOrgs":  forge.SignedInTo(r, userOrg...),
	"orgListUserOrgs":         forge.SignedInTo(r, userOrg...),
	"orgGetUserPermissions":   forge.SignedInTo(r, userOrg...),
	"adminGetAllOrgs":         forge.SiteAdminTo(r),
	"adminCreateOrg":          forge.SiteAdminTo(w),
	"orgListMembers":          forge.SignedInTo(r, org...),
	"orgIsMember":             forge.SignedInTo(r, org...),
	"orgDeleteMember":         forge.SignedInTo(w, org...),
	"orgListPublicMembers":    forge.Anyone(r, org...),
	"orgIsPublicMember":       forge.Anyone(r, org...),
	"orgPublicizeMember":      forge.SignedInTo(w, org...),
	"orgConcealMember":        forge.SignedInTo(w, org...),
	"orgListBlockedUsers":     forge.SignedInTo(r, org...),
	"orgBlockUser":            forge.SignedInTo(w, org...),
	"orgUnblockUser":          forge.SignedInTo(w, org...),
	"orgListTeams":            forge.SignedInTo(r, org...),
	"orgCreateTeam":           forge.SignedInTo(w, org...),
	"teamSearch":              forge.SignedInTo(r, org...),
	"userListTeams":           forge.SignedInTo(r, user...),
	"orgGetTeam":              forge.SignedInTo(r, org...),
	"orgEditTeam":             forge.SignedInTo(w, org...),
	"orgDeleteTeam":           forge.SignedInTo(w, org...),
	"orgListTeamMembers":      forge.SignedInTo(r, org...),
	"orgListTeamMember":       forge.SignedInTo(r, org...),
	"orgAddTeamMember":        forge.SignedInTo(w, org...),
	"orgRemoveTeamMember":     forge.SignedInTo(w, org...),
	"orgListTeamRepos":        forge.SignedInTo(r, org...),
	"orgListTeamRepo":         forge.SignedInTo(r, org...),
	"orgAddTeamRepository":    forge.SignedInTo(w, org...),
	"orgRemoveTeamRepository": forge.SignedInTo(w, org...),
	"repoListTeams":           forge.SignedInTo(r, repo...),
	"repoCheckTeam":           forge.SignedInTo(r, repo...),
	"repoAddTeam":             forge.SignedInTo(w, repo...),
	"repoDeleteTeam":          forge.SignedInTo(w, repo...),
}

// gated are the operations whose role check runs before their body is
// read (Forgejo's reqOrgOwnership and reqTeamMembership middlewares):
// AuthorizeOwner and AuthorizeTeamOwner are their probes.
var gated = map[string]bool{"orgEdit": true, "renameOrg": true, "orgUpdateAvatar": true, "orgCreateTeam": true, "orgEditTeam": true}

// Requirements returns what each operation this package serves requires,
// by Forgejo's operationId: the one statement of it, which the methods
// check (checkOp) and the API derives its routes' scopes, token and
// administrator checks and gates (Requirement.Gate) from. A new map at
// each call.
func Requirements() map[string]forge.Requirement {
	return forge.Declare(operations, func(r forge.Requirement) forge.Requirement { return r }, gated)
}
