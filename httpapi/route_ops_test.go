package httpapi_test

import (
	"testing"

	"github.com/hearthforge/hearth/httpapi"
)

// addedOps are the operations the route table of with has and that of
// without lacks: what one service of the Config adds.
func addedOps(t *testing.T, without, with httpapi.Config) map[string]bool {
	t.Helper()
	ops := func(cfg httpapi.Config) map[string]bool {
		api, err := httpapi.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]bool{}
		for _, rt := range api.Routes() {
			out[rt.Op] = true
		}
		return out
	}
	had, out := ops(without), ops(with)
	for op := range had {
		delete(out, op)
	}
	return out
}
