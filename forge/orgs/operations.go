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

// anyone is an operation at level on cats that anonymous callers may try
// (their visibility is the method's).
func anyone(level forge.AccessLevel, cats []forge.ScopeCategory) forge.Requirement {
	return forge.Requirement{Level: level, Categories: cats}
}

// token is an operation at level on cats for signed-in users
// (Forgejo's reqToken).
func token(level forge.AccessLevel, cats []forge.ScopeCategory) forge.Requirement {
	return forge.Requirement{Level: level, Categories: cats, SignedIn: true}
}

// siteAdmin is an /admin operation at level (reqToken, reqSiteAdmin).
func siteAdmin(level forge.AccessLevel) forge.Requirement {
	return forge.Requirement{Level: level, Categories: []forge.ScopeCategory{forge.CategoryAdmin}, SignedIn: true, SiteAdmin: true}
}

// operations are the operations this package serves, by Forgejo's
// operationId, with what each requires of its actor before the
// organisation, team or repository it names is resolved. GET /orgs
// (orgGetAll) is not here: Forgejo checks no scope for it (spec/auth.md
// §4), which a Requirement cannot state; the organisation repository
// operations are forge/repos'.
var operations = map[string]forge.Requirement{
	"orgCreate":               token(w, org),
	"orgGet":                  anyone(r, org),
	"orgEdit":                 token(w, org),
	"orgDelete":               token(w, org),
	"renameOrg":               token(w, org),
	"orgUpdateAvatar":         token(w, org),
	"orgDeleteAvatar":         token(w, org),
	"orgListCurrentUserOrgs":  token(r, userOrg),
	"orgListUserOrgs":         token(r, userOrg),
	"orgGetUserPermissions":   token(r, userOrg),
	"adminGetAllOrgs":         siteAdmin(r),
	"adminCreateOrg":          siteAdmin(w),
	"orgListMembers":          token(r, org),
	"orgIsMember":             token(r, org),
	"orgDeleteMember":         token(w, org),
	"orgListPublicMembers":    anyone(r, org),
	"orgIsPublicMember":       anyone(r, org),
	"orgPublicizeMember":      token(w, org),
	"orgConcealMember":        token(w, org),
	"orgListBlockedUsers":     token(r, org),
	"orgBlockUser":            token(w, org),
	"orgUnblockUser":          token(w, org),
	"orgListTeams":            token(r, org),
	"orgCreateTeam":           token(w, org),
	"teamSearch":              token(r, org),
	"userListTeams":           token(r, user),
	"orgGetTeam":              token(r, org),
	"orgEditTeam":             token(w, org),
	"orgDeleteTeam":           token(w, org),
	"orgListTeamMembers":      token(r, org),
	"orgListTeamMember":       token(r, org),
	"orgAddTeamMember":        token(w, org),
	"orgRemoveTeamMember":     token(w, org),
	"orgListTeamRepos":        token(r, org),
	"orgListTeamRepo":         token(r, org),
	"orgAddTeamRepository":    token(w, org),
	"orgRemoveTeamRepository": token(w, org),
	"repoListTeams":           token(r, repo),
	"repoCheckTeam":           token(r, repo),
	"repoAddTeam":             token(w, repo),
	"repoDeleteTeam":          token(w, repo),
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
