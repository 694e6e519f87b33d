package cron

import "github.com/hearthforge/hearth/forge"

// operations are the operations this package serves, by Forgejo's
// operationId (routers/api/v1/api.go's /admin group: reqToken,
// reqSiteAdmin, the admin scope), with whether each reads or writes.
var operations = map[string]forge.AccessLevel{"adminCronList": forge.AccessRead, "adminCronRun": forge.AccessWrite}

var requirements = Requirements()

// Requirements returns what each operation this package serves requires,
// by Forgejo's operationId: the admin scope at the operation's level, a
// signed-in site administrator. The methods check it; the API derives its
// routes' checks from it. A new map at each call.
func Requirements() map[string]forge.Requirement {
	return forge.Declare(operations, func(l forge.AccessLevel) forge.Requirement {
		return forge.Requirement{Level: l, Categories: []forge.ScopeCategory{forge.CategoryAdmin}, SignedIn: true, SiteAdmin: true}
	}, nil)
}
