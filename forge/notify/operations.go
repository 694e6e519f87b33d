package notify

import "github.com/hearthforge/hearth/forge"

// operations are the operations this package serves, by Forgejo's
// operationId (routers/api/v1/api.go, the "Notifications (requires
// notifications scope)" groups), with whether each reads or writes.
var operations = map[string]forge.AccessLevel{
	"notifyGetList": forge.AccessRead, "notifyReadList": forge.AccessWrite,
	"notifyNewAvailable": forge.AccessRead,
	"notifyGetThread":    forge.AccessRead, "notifyReadThread": forge.AccessWrite,
	"notifyGetRepoList": forge.AccessRead, "notifyReadRepoList": forge.AccessWrite,
}

// requirementOf is what every notification operation at level requires
// (the repository ones included): the notification scope and a signed-in
// user (Forgejo's reqToken). Which threads the actor sees is the
// methods'.
func requirementOf(level forge.AccessLevel) forge.Requirement {
	return forge.Requirement{Level: level, Categories: []forge.ScopeCategory{forge.CategoryNotification}, SignedIn: true}
}

// Requirements returns what each operation this package serves requires,
// by Forgejo's operationId: the one statement of it, which the methods
// check (start) and the API derives its routes' scopes and token checks
// from. No notification operation is gated. A new map at each call.
func Requirements() map[string]forge.Requirement {
	return forge.Declare(operations, requirementOf, nil)
}
