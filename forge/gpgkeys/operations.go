package gpgkeys

import "github.com/hearthforge/hearth/forge"

// operations are the GPG key operations this package serves, by Forgejo's
// operationId (routers/api/v1/api.go: the /user group's gpg_keys,
// gpg_key_token and gpg_key_verify, and /users/{username}/gpg_keys),
// with whether each reads or writes.
var operations = map[string]forge.AccessLevel{
	"userCurrentListGPGKeys": forge.AccessRead, "userCurrentPostGPGKey": forge.AccessWrite,
	"userCurrentGetGPGKey": forge.AccessRead, "userCurrentDeleteGPGKey": forge.AccessWrite,
	"getVerificationToken": forge.AccessRead, "userVerifyGPGKey": forge.AccessWrite,
	"userListGPGKeys": forge.AccessRead,
}

// requirementOf is what every key operation at level requires: the user
// scope and a signed-in user (both Forgejo groups are reqToken). Whose
// keys the actor sees is the methods'.
func requirementOf(level forge.AccessLevel) forge.Requirement {
	return forge.Requirement{Level: level, Categories: []forge.ScopeCategory{forge.CategoryUser}, SignedIn: true}
}

// repoSigningKey is GET /repos/{owner}/{repo}/signing-key.gpg: the
// repository scope (the /repos group), anyone who may see the repository
// (repoAssignment).
const repoSigningKey = "repoSigningKey"

var repoSigningKeyRequirement = forge.Requirement{Level: forge.AccessRead,
	Categories: []forge.ScopeCategory{forge.CategoryRepository}}

// publicRequirement is what getSigningKey and getSSHSigningKey require
// (Forgejo's "Misc (public accessible)" group): no scope (a requirement
// naming no category is public), an account that may act.
var publicRequirement = forge.Requirement{Level: forge.AccessRead}

// Requirements returns what each operation this package serves requires,
// by Forgejo's operationId: the one statement of it, which the methods check (start) and the API
// derives its routes' scopes and token checks from. None is gated. A new
// map at each call.
func Requirements() map[string]forge.Requirement {
	out := forge.Declare(operations, requirementOf, nil)
	out[repoSigningKey] = repoSigningKeyRequirement
	out["getSigningKey"], out["getSSHSigningKey"] = publicRequirement, publicRequirement
	return out
}
