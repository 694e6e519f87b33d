package auth

import "github.com/hearthforge/hearth/forge"

// peopleOp is what an operation of the people part of auth (e-mail
// addresses, follows, blocks, settings, avatar) requires, as Forgejo's
// routers/api/v1/api.go groups it: the /user group (user scope,
// reqToken), the /users group (user scope, no token needed) and the
// /admin group (admin scope, reqToken, reqSiteAdmin).
type peopleOp struct {
	level forge.AccessLevel
	// group is "user", "users" or "admin".
	group string
}

// peopleOps are the operations auth serves for accounts' people side, by
// Forgejo's operationId.
var peopleOps = map[string]peopleOp{
	"userListEmails":  {forge.AccessRead, "user"},
	"userAddEmail":    {forge.AccessWrite, "user"},
	"userDeleteEmail": {forge.AccessWrite, "user"},

	"adminGetAllEmails":     {forge.AccessRead, "admin"},
	"adminSearchEmails":     {forge.AccessRead, "admin"},
	"adminListUserEmails":   {forge.AccessRead, "admin"},
	"adminDeleteUserEmails": {forge.AccessWrite, "admin"},

	"userCurrentListFollowers":  {forge.AccessRead, "user"},
	"userCurrentListFollowing":  {forge.AccessRead, "user"},
	"userCurrentCheckFollowing": {forge.AccessRead, "user"},
	"userCurrentPutFollow":      {forge.AccessWrite, "user"},
	"userCurrentDeleteFollow":   {forge.AccessWrite, "user"},
	"userListFollowers":         {forge.AccessRead, "users"},
	"userListFollowing":         {forge.AccessRead, "users"},
	"userCheckFollowing":        {forge.AccessRead, "users"},

	"userBlockUser":        {forge.AccessWrite, "user"},
	"userUnblockUser":      {forge.AccessWrite, "user"},
	"userListBlockedUsers": {forge.AccessRead, "user"},

	"getUserSettings":    {forge.AccessRead, "user"},
	"updateUserSettings": {forge.AccessWrite, "user"},
	"userUpdateAvatar":   {forge.AccessWrite, "user"},
	"userDeleteAvatar":   {forge.AccessWrite, "user"},
}

// peopleRequirement is what an operation of group requires at level.
func peopleRequirement(o peopleOp) forge.Requirement {
	switch o.group {
	case "admin":
		return forge.Requirement{Level: o.level, Categories: []forge.ScopeCategory{forge.CategoryAdmin}, SignedIn: true, SiteAdmin: true}
	case "user":
		return forge.Requirement{Level: o.level, Categories: []forge.ScopeCategory{forge.CategoryUser}, SignedIn: true}
	}
	return forge.Requirement{Level: o.level, Categories: []forge.ScopeCategory{forge.CategoryUser}}
}

// Requirements returns what each people operation auth serves requires,
// by Forgejo's operationId: the one statement of it, which the methods
// check (start) and the API derives its routes' scopes, token and
// administrator checks from. None is gated. A new map at each call.
func Requirements() map[string]forge.Requirement {
	return forge.Declare(peopleOps, peopleRequirement, nil)
}

// start checks actor against operation op's requirement.
func start(actor forge.Actor, op string) error {
	o, ok := peopleOps[op]
	if !ok {
		panic("auth: undeclared operation " + op)
	}
	return peopleRequirement(o).Check(actor)
}
