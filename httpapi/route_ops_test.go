package httpapi_test

import (
	"testing"

	"github.com/hearthforge/hearth/httpapi"
)

// addedRoutes are the routes of an API built from with that one built
// from without lacks, in with's order: what one service of the Config
// adds.
func addedRoutes(t *testing.T, without, with httpapi.Config) []httpapi.RouteInfo {
	t.Helper()
	routes := func(cfg httpapi.Config) []httpapi.RouteInfo {
		api, err := httpapi.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		return api.Routes()
	}
	had := map[string]bool{}
	for _, rt := range routes(without) {
		had[rt.Op] = true
	}
	var out []httpapi.RouteInfo
	for _, rt := range routes(with) {
		if !had[rt.Op] {
			out = append(out, rt)
		}
	}
	return out
}
