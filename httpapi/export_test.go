package httpapi

import (
	"net/http"
	"net/http/httptest"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/httpapi/wire"
)

// RouteInfo is a route of the table, for the tests of package httpapi_test.
type RouteInfo struct {
	Method, Path, Op     string
	Scopes               []forge.ScopeCategory
	Token, Admin, Public bool
	OwnerScope           bool
	// Gated: the operation has a gate (gates.go).
	Gated bool
}

// Routes returns the route table.
func (a *API) Routes() []RouteInfo {
	var out []RouteInfo
	table, _ := a.table()
	for _, rt := range table {
		if rt.missing || rt.absent {
			continue
		}
		out = append(out, RouteInfo{rt.Method, rt.Path, rt.Op, rt.Scopes, rt.Token, rt.Admin, rt.Public, rt.OwnerScope, rt.gate != nil})
	}
	return out
}

// RepoPage converts a page of repositories as the list handlers do, for
// actor, in a request to r: the handlers' conversion (toRepos), with its
// error.
func (a *API) RepoPage(r *http.Request, actor forge.Actor, list []*repos.View) ([]wire.Repository, error) {
	c := a.newCall(httptest.NewRecorder(), r)
	c.actor = actor
	return c.toRepos(list)
}
