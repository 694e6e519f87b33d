package httpapi_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestGeneralSettings: /settings/repository says what this server serves,
// and each claim is checked against the server's own answers: a feature
// said to be on has its route served (not 501), one said to be off
// has not. /settings/ui has Forgejo's reaction defaults; both are public.
func TestGeneralSettings(t *testing.T) {
	t.Parallel()
	// probes: the route each setting speaks of, requested as root.
	probes := map[string]req{
		"migrations_disabled":    rootReq("POST", "/repos/migrate", map[string]any{}),
		"mirrors_disabled":       rootReq("GET", "/repos/root/none/push_mirrors", nil),
		"time_tracking_disabled": rootReq("GET", "/user/stopwatches", nil),
	}
	for _, tt := range []struct {
		name string
		e    *env
		want map[string]bool
	}{
		{"repositories only", newEnv(t), map[string]bool{"http_git_disabled": false, "lfs_disabled": true,
			"migrations_disabled": true, "mirrors_disabled": true, "time_tracking_disabled": true,
			"forks_disabled": false, "stars_disabled": false}},
		{"every service", newMatrixEnv(t), map[string]bool{"http_git_disabled": false, "lfs_disabled": true,
			"migrations_disabled": false, "mirrors_disabled": false, "time_tracking_disabled": false,
			"forks_disabled": false, "stars_disabled": false}},
	} {
		r := tt.e.do(req{method: "GET", path: "/api/v1/settings/repository"})
		tt.e.expect(r, http.StatusOK, "")
		got := r.json(t)
		for k, want := range tt.want {
			assert.Equal(t, want, got[k], "%s: %s", tt.name, k)
		}
		for k, p := range probes {
			a := tt.e.do(p)
			served := a.StatusCode != http.StatusNotImplemented // what Hearth does not serve answers 501
			assert.Equal(t, !tt.want[k], served, "%s: %s, but %s %s answers %d %s", tt.name, k, p.method, p.path, a.StatusCode, a.body)
		}
	}
	e := newEnv(t)
	r := e.do(req{method: "GET", path: "/api/v1/settings/ui"})
	e.expect(r, http.StatusOK, "")
	assert.Contains(t, r.json(t)["allowed_reactions"], "+1")
}
