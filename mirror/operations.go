package mirror

import "github.com/hearthforge/hearth/forge"

// operations are the operations this package serves, by Forgejo's
// operationId (routers/api/v1/api.go: /repos/migrate and the mirror
// routes of the /repos/{owner}/{repo} group, each with reqToken and the
// repository scope), with what each requires of its actor before the
// repository it names is resolved. Who may migrate into an owner, sync,
// convert or manage push mirrors is the methods'.
var operations = map[string]forge.Requirement{
	"repoMigrate":                   forge.SignedInTo(forge.AccessWrite, forge.CategoryRepository),
	"repoMirrorSync":                forge.SignedInTo(forge.AccessWrite, forge.CategoryRepository),
	"repoConvert":                   forge.SignedInTo(forge.AccessWrite, forge.CategoryRepository),
	"repoListPushMirrors":           forge.SignedInTo(forge.AccessRead, forge.CategoryRepository),
	"repoAddPushMirror":             forge.SignedInTo(forge.AccessWrite, forge.CategoryRepository),
	"repoPushMirrorSync":            forge.SignedInTo(forge.AccessWrite, forge.CategoryRepository),
	"repoGetPushMirrorByRemoteName": forge.SignedInTo(forge.AccessRead, forge.CategoryRepository),
	"repoDeletePushMirror":          forge.SignedInTo(forge.AccessWrite, forge.CategoryRepository),
}

// gated are the operations whose check runs before their body is read
// (Forgejo's reqAdmin on push mirrors): AuthorizePush is their probe.
var gated = map[string]bool{"repoAddPushMirror": true}

// Requirements returns what each operation this package serves requires,
// by Forgejo's operationId: the one statement of it, which the API
// derives its routes' scopes, token checks and gates (AuthorizePush)
// from. A new map at each call.
func Requirements() map[string]forge.Requirement {
	return forge.Declare(operations, func(r forge.Requirement) forge.Requirement { return r }, gated)
}
