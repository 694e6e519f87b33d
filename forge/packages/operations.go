package packages

import "github.com/hearthforge/hearth/forge"

// operations are the /api/v1/packages operations this package serves, by
// Forgejo's operationId (routers/api/v1/api.go's /packages/{owner} group:
// the package scope, no token required to read), with what each requires
// of its actor before the owner it names is resolved. Who may see or
// change an owner's packages is the methods'.
var operations = map[string]forge.Requirement{
	"listPackages":     forge.Anyone(forge.AccessRead, forge.CategoryPackage),
	"getPackage":       forge.Anyone(forge.AccessRead, forge.CategoryPackage),
	"deletePackage":    forge.Anyone(forge.AccessWrite, forge.CategoryPackage),
	"listPackageFiles": forge.Anyone(forge.AccessRead, forge.CategoryPackage),
	"linkPackage":      forge.Anyone(forge.AccessWrite, forge.CategoryPackage),
	"unlinkPackage":    forge.Anyone(forge.AccessWrite, forge.CategoryPackage),
}

// Requirements returns what each operation this package serves requires,
// by Forgejo's operationId: the one statement of it, which the API
// derives its routes' scopes from. None is gated. A new map at each call.
func Requirements() map[string]forge.Requirement {
	return forge.Declare(operations, func(r forge.Requirement) forge.Requirement { return r }, nil)
}
