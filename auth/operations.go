package auth

import "github.com/hearthforge/hearth/forge"

// The levels, and the scope category of this package's user operations
// (Forgejo's /user and /users groups in routers/api/v1/api.go); the
// /admin/users and /admin/emails operations are the admin group's
// (forge.SiteAdminTo).
const (
	r = forge.AccessRead
	w = forge.AccessWrite

	catUser = forge.CategoryUser
)

// operations are the operations this package serves, by Forgejo's
// operationId, with what each requires of its actor before the user it
// names is resolved: the /user group signed in with the user scope
// (reqToken), the /users group the user scope alone, /admin a signed-in
// site administrator with the admin scope. The access tokens' rules
// (basic authentication, the user themself or a site administrator:
// Forgejo's reqBasicOrRevProxyAuth and reqSelfOrAdmin) are the methods'.
var operations = map[string]forge.Requirement{
	"userGetCurrent": forge.SignedInTo(r, catUser),
	"userSearch":     forge.Anyone(r, catUser),
	"userGet":        forge.Anyone(r, catUser),

	"userGetTokens":         forge.Anyone(r, catUser),
	"userCreateToken":       forge.Anyone(w, catUser),
	"userDeleteAccessToken": forge.Anyone(w, catUser),

	"adminSearchUsers": forge.SiteAdminTo(r),
	"adminCreateUser":  forge.SiteAdminTo(w),
	"adminEditUser":    forge.SiteAdminTo(w),
	"adminDeleteUser":  forge.SiteAdminTo(w),
	"adminRenameUser":  forge.SiteAdminTo(w),

	// The people side of accounts: e-mail addresses, follows, blocks,
	// settings, avatar.
	"userListEmails":  forge.SignedInTo(r, catUser),
	"userAddEmail":    forge.SignedInTo(w, catUser),
	"userDeleteEmail": forge.SignedInTo(w, catUser),

	"adminGetAllEmails":     forge.SiteAdminTo(r),
	"adminSearchEmails":     forge.SiteAdminTo(r),
	"adminListUserEmails":   forge.SiteAdminTo(r),
	"adminDeleteUserEmails": forge.SiteAdminTo(w),

	"userCurrentListFollowers":  forge.SignedInTo(r, catUser),
	"userCurrentListFollowing":  forge.SignedInTo(r, catUser),
	"userCurrentCheckFollowing": forge.SignedInTo(r, catUser),
	"userCurrentPutFollow":      forge.SignedInTo(w, catUser),
	"userCurrentDeleteFollow":   forge.SignedInTo(w, catUser),
	"userListFollowers":         forge.Anyone(r, catUser),
	"userListFollowing":         forge.Anyone(r, catUser),
	"userCheckFollowing":        forge.Anyone(r, catUser),

	"userBlockUser":        forge.SignedInTo(w, catUser),
	"userUnblockUser":      forge.SignedInTo(w, catUser),
	"userListBlockedUsers": forge.SignedInTo(r, catUser),

	"getUserSettings":    forge.SignedInTo(r, catUser),
	"updateUserSettings": forge.SignedInTo(w, catUser),
	"userUpdateAvatar":   forge.SignedInTo(w, catUser),
	"userDeleteAvatar":   forge.SignedInTo(w, catUser),
}

// gated are the operations whose check runs before their body is read
// (Forgejo's reqSelfOrAdmin of the token creation): AuthorizeTokens is
// their probe.
var gated = map[string]bool{"userCreateToken": true}

// Requirements returns what each operation this package serves requires,
// by Forgejo's operationId: the one statement of it, which the API
// derives its routes' scopes, token and administrator checks and gates
// (Requirement.Gate: AuthorizeTokens) from. The methods check the same
// rules themselves. A new map at each call.
func Requirements() map[string]forge.Requirement {
	return forge.Declare(operations, func(r forge.Requirement) forge.Requirement { return r }, gated)
}

// start checks actor against operation op's requirement.
func start(actor forge.Actor, op string) error {
	req, ok := operations[op]
	if !ok {
		panic("auth: undeclared operation " + op)
	}
	return req.Check(actor)
}
