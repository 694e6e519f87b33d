package markup

import "github.com/hearthforge/hearth/forge"

// requirements are what the operations this package serves require, by
// Forgejo's operationId (routers/api/v1/api.go's "Misc (public
// accessible)" group): a signed-in user (reqToken) and no scope, at the
// write level of their POST.
var requirements = forge.Declare(map[string]bool{"renderMarkup": true, "renderMarkdown": true, "renderMarkdownRaw": true},
	func(bool) forge.Requirement { return forge.Requirement{Level: forge.AccessWrite, SignedIn: true} }, nil)

// Requirements returns what each operation this package serves requires,
// by Forgejo's operationId: the one statement of it, which Render checks
// and the API derives its routes' token checks from. A new map at each
// call.
func Requirements() map[string]forge.Requirement {
	out := make(map[string]forge.Requirement, len(requirements))
	for op, r := range requirements {
		out[op] = r
	}
	return out
}
