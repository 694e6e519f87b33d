package sshkeys

import "github.com/hearthforge/hearth/forge"

// operation is what an operation of this package requires: its level and
// scope categories, and whether it needs a signed-in user or a site
// administrator.
type operation struct {
	level    forge.AccessLevel
	cat      forge.ScopeCategory
	signedIn bool
	admin    bool
}

// operations are the operations this package serves, by Forgejo's
// operationId, as routers/api/v1/api.go groups them: /user/keys in the
// /user group (user scope, reqToken); /users/{username}/keys in the /users
// group (user scope, no token needed); the /admin/users/{username}/keys
// routes in /admin (admin scope, reqToken, reqSiteAdmin); deploy keys in
// /repos/{owner}/{repo}/keys (repository scope, reqToken, reqAdmin: the
// repository administrator is the methods' check).
var operations = map[string]operation{
	"userCurrentListKeys":      {forge.AccessRead, forge.CategoryUser, true, false},
	"userCurrentPostKey":       {forge.AccessWrite, forge.CategoryUser, true, false},
	"userCurrentGetKey":        {forge.AccessRead, forge.CategoryUser, true, false},
	"userCurrentDeleteKey":     {forge.AccessWrite, forge.CategoryUser, true, false},
	"userListKeys":             {forge.AccessRead, forge.CategoryUser, false, false},
	"adminCreatePublicKey":     {forge.AccessWrite, forge.CategoryAdmin, true, true},
	"adminDeleteUserPublicKey": {forge.AccessWrite, forge.CategoryAdmin, true, true},
	"repoListKeys":             {forge.AccessRead, forge.CategoryRepository, true, false},
	"repoGetKey":               {forge.AccessRead, forge.CategoryRepository, true, false},
	"repoCreateKey":            {forge.AccessWrite, forge.CategoryRepository, true, false},
	"repoDeleteKey":            {forge.AccessWrite, forge.CategoryRepository, true, false},
}

func requirementOf(o operation) forge.Requirement {
	return forge.Requirement{Level: o.level, Categories: []forge.ScopeCategory{o.cat}, SignedIn: o.signedIn, SiteAdmin: o.admin}
}

// Requirements returns what each operation this package serves requires,
// by Forgejo's operationId: the one statement of it, which the methods
// check first and the API derives its routes' scopes, token and
// administrator checks from. None is gated. A new map at each call.
func Requirements() map[string]forge.Requirement {
	return forge.Declare(operations, requirementOf, nil)
}

// check checks the actor against op's requirement.
func check(actor forge.Actor, op string) error {
	return requirementOf(operations[op]).Check(actor)
}
