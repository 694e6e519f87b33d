package federation

import "github.com/hearthforge/hearth/forge"

// operation is what one operation requires: its access level and
// whether it sits in the /activitypub group (scope activitypub).
type operation struct {
	level       forge.AccessLevel
	activityPub bool
}

// operations are the operations this package serves, by Forgejo's
// operationId: routers/api/v1/api.go registers /nodeinfo in the "Misc
// (public accessible)" group (no scope) and the /activitypub group under
// tokenRequiresScopes(ActivityPub), read for GET and write for POST. None
// needs a signed-in user: remote servers call them anonymously.
var operations = map[string]operation{
	"getNodeInfo":                    {forge.AccessRead, false},
	"activitypubInstanceActor":       {forge.AccessRead, true},
	"activitypubInstanceActorInbox":  {forge.AccessWrite, true},
	"activitypubInstanceActorOutbox": {forge.AccessWrite, true},
	"activitypubRepository":          {forge.AccessRead, true},
	"activitypubRepositoryInbox":     {forge.AccessWrite, true},
	"activitypubRepositoryOutbox":    {forge.AccessWrite, true},
	"activitypubPerson":              {forge.AccessRead, true},
	"activitypubPersonInbox":         {forge.AccessWrite, true},
	"activitypubPersonFeed":          {forge.AccessRead, true},
	"activitypubPersonActivityNote":  {forge.AccessRead, true},
	"activitypubPersonActivity":      {forge.AccessRead, true},
}

var requirements = forge.Declare(operations, func(o operation) forge.Requirement {
	r := forge.Requirement{Level: o.level}
	if o.activityPub {
		r.Categories = []forge.ScopeCategory{forge.CategoryActivityPub}
	}
	return r
}, nil)

// Requirements returns what each operation this package serves requires,
// by Forgejo's operationId: the one statement of it, which the service's
// methods check and the API derives its routes' scope checks from. A new
// map at each call.
func Requirements() map[string]forge.Requirement {
	out := make(map[string]forge.Requirement, len(requirements))
	for op, r := range requirements {
		out[op] = r
	}
	return out
}
