package httpapi

import "github.com/hearthforge/hearth/forge"

// RouteInfo is a route of the table, for the tests of package httpapi_test.
type RouteInfo struct {
	Method, Path, Op     string
	Scopes               []forge.ScopeCategory
	Token, Admin, Public bool
}

// Routes returns the route table.
func (a *API) Routes() []RouteInfo {
	var out []RouteInfo
	for _, rt := range a.routes() {
		out = append(out, RouteInfo{rt.Method, rt.Path, rt.Op, rt.Scopes, rt.Token, rt.Admin, rt.Public})
	}
	return out
}
