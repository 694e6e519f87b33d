package feeds

import "github.com/hearthforge/hearth/forge"

// operations are the operations this package serves, by Forgejo's
// operationId, with the scope category of the route group each sits in
// (routers/api/v1/api.go): every one reads.
var operations = map[string]forge.ScopeCategory{
	"userListActivityFeeds":    forge.CategoryUser,
	"userGetHeatmapData":       forge.CategoryUser,
	"orgListActivityFeeds":     forge.CategoryOrganization,
	"orgListTeamActivityFeeds": forge.CategoryOrganization,
	"repoListActivityFeeds":    forge.CategoryRepository,
}

// requirementOf is what a feed operation of category c requires: read
// access in c; the team feed also a signed-in user (the /teams group's
// reqToken), which Teams checks with the team membership.
func requirementOf(c forge.ScopeCategory) forge.Requirement {
	return forge.Requirement{Level: forge.AccessRead, Categories: []forge.ScopeCategory{c}}
}

// Requirements returns what each operation this package serves requires,
// by Forgejo's operationId: the one statement of it, which the methods
// check and the API derives its routes' scopes from. The team feed needs
// a token (reqToken). A new map at each call.
func Requirements() map[string]forge.Requirement {
	out := forge.Declare(operations, requirementOf, nil)
	r := out["orgListTeamActivityFeeds"]
	r.SignedIn = true
	out["orgListTeamActivityFeeds"] = r
	return out
}

// start checks op's requirement.
func start(actor forge.Actor, op string) error {
	return Requirements()[op].Check(actor)
}
