package oauthapps

import "github.com/hearthforge/hearth/forge"

// operations are the operations this package serves, by Forgejo's
// operationId (routers/api/v1/api.go, the /user group's
// "/applications/oauth2" routes), with whether each reads or writes.
var operations = map[string]forge.AccessLevel{
	"userGetOAuth2Applications":   forge.AccessRead,
	"userCreateOAuth2Application": forge.AccessWrite,
	"userGetOAuth2Application":    forge.AccessRead,
	"userUpdateOAuth2Application": forge.AccessWrite,
	"userDeleteOAuth2Application": forge.AccessWrite,
}

// requirementOf is what every OAuth2 application operation at level
// requires: the user scope (the /user group's tokenRequiresScopes) and a
// signed-in user (reqToken).
func requirementOf(level forge.AccessLevel) forge.Requirement {
	return forge.Requirement{Level: level, Categories: []forge.ScopeCategory{forge.CategoryUser}, SignedIn: true}
}

// Requirements returns what each operation this package serves requires,
// by Forgejo's operationId: the one statement of it, which the methods
// check and the API derives its routes' scopes and token checks from. No
// operation is gated. A new map at each call.
func Requirements() map[string]forge.Requirement {
	return forge.Declare(operations, requirementOf, nil)
}
