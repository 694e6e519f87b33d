package httpapi

import (
	"net/http"

	"github.com/hearthforge/hearth/forge"
)

// route is one operation of the API: where it lives, which Forgejo
// operation it is, and what it requires before its handler runs. The table
// in routes is the one place these rules are written.
type route struct {
	Method string
	// Path is the OpenAPI path below /api/v1, with {params}.
	Path string
	// Op is the Forgejo operationId.
	Op string
	// Scopes are the token scope categories the route needs (all of them),
	// at the level of the HTTP method.
	Scopes []forge.ScopeCategory
	// Token: the route needs a signed-in user (`token is required`).
	Token bool
	// Admin: the route needs a site administrator.
	Admin bool
	// Public marks a route that needs no scope at all (Forgejo's /version,
	// /settings/*). Every other route must name its Scopes: a test fails
	// on a route with neither.
	Public bool
	h      func(*call)
}

var (
	user  = []forge.ScopeCategory{forge.CategoryUser}
	admin = []forge.ScopeCategory{forge.CategoryAdmin}
)

func (a *API) routes() []route {
	return []route{
		{Method: "GET", Path: "/version", Op: "getVersion", Public: true, h: a.getVersion},
		{Method: "GET", Path: "/settings/api", Op: "getGeneralAPISettings", Public: true, h: a.getAPISettings},

		{Method: "GET", Path: "/user", Op: "userGetCurrent", Scopes: user, Token: true, h: a.getCurrentUser},
		{Method: "GET", Path: "/users/{username}", Op: "userGet", Scopes: user, h: a.getUser},

		{Method: "GET", Path: "/users/{username}/tokens", Op: "userGetTokens", Scopes: user, h: a.listTokens},
		{Method: "POST", Path: "/users/{username}/tokens", Op: "userCreateToken", Scopes: user, h: a.createToken},
		{Method: "DELETE", Path: "/users/{username}/tokens/{token}", Op: "userDeleteAccessToken", Scopes: user, h: a.deleteToken},

		{Method: "GET", Path: "/admin/users", Op: "adminSearchUsers", Scopes: admin, Token: true, Admin: true, h: a.adminListUsers},
		{Method: "POST", Path: "/admin/users", Op: "adminCreateUser", Scopes: admin, Token: true, Admin: true, h: a.adminCreateUser},
		{Method: "PATCH", Path: "/admin/users/{username}", Op: "adminEditUser", Scopes: admin, Token: true, Admin: true, h: a.adminEditUser},
		{Method: "DELETE", Path: "/admin/users/{username}", Op: "adminDeleteUser", Scopes: admin, Token: true, Admin: true, h: a.adminDeleteUser},
		{Method: "POST", Path: "/admin/users/{username}/rename", Op: "adminRenameUser", Scopes: admin, Token: true, Admin: true, h: a.adminRenameUser},
	}
}

// serveRoute wraps a route's handler in Forgejo's request pipeline:
// security headers, the query-token deprecation warning, authentication,
// account state, scopes, reqToken, reqSiteAdmin.
func (a *API) serveRoute(rt route) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		c := a.newCall(w, r)
		defer c.recover()
		if !c.authenticate() {
			return
		}
		if c.actor.Scoped {
			level := forge.LevelForMethod(r.Method)
			// Forgejo requires every listed category although its message
			// says "at least one", and the message lists all of them.
			required, ok := make([]string, len(rt.Scopes)), true
			for i, cat := range rt.Scopes {
				required[i] = level.String() + ":" + cat.String()
				ok = ok && c.actor.Scope.Has(cat, level)
			}
			if !ok {
				c.errorStatus(http.StatusForbidden, "token does not have at least one of required scope(s): "+bracketList(required))
				return
			}
		}
		if rt.Token && !c.actor.IsSignedIn() {
			c.errorStatus(http.StatusUnauthorized, "token is required")
			return
		}
		if rt.Admin && !c.actor.IsSiteAdmin() {
			c.errorStatus(http.StatusForbidden, "user should be the site admin")
			return
		}
		rt.h(c)
	}
}

// bracketList formats like Go's %v of a []string: [a b].
func bracketList(items []string) string {
	out := "["
	for i, s := range items {
		if i > 0 {
			out += " "
		}
		out += s
	}
	return out + "]"
}
