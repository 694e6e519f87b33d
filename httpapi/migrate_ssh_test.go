package httpapi_test

import (
	"net/http"
	"testing"

	"github.com/hearthforge/hearth/mirror"
)

// TestMigrateSSHRefused: POST /repos/migrate from an ssh remote is 422
// with Forgejo's message (its IsMigrateURLAllowed refuses ssh for
// migrations), nothing created.
func TestMigrateSSHRefused(t *testing.T) {
	t.Parallel()
	e, git := newMirrorEnv(t, mirror.Policy{AllowLoopback: true}, &syncBuffer{})
	tok := e.token("root", "write:repository", "write:user")
	for _, addr := range []string{"ssh://git@127.0.0.1:2222/root/src.git", "git@127.0.0.1:root/src.git"} {
		r := e.do(req{method: "POST", path: "/api/v1/repos/migrate", token: tok, body: map[string]any{"clone_addr": addr, "repo_name": "m", "mirror": true}})
		host := "127.0.0.1"
		if addr[0] == 's' {
			host += ":2222"
		}
		e.expect(r, http.StatusUnprocessableEntity, "migration/cloning from '"+host+"' is not allowed: the provided url protocol is not allowed")
		e.expect(e.do(req{method: "GET", path: "/api/v1/repos/root/m", token: tok}), http.StatusNotFound, "")
	}
	assertNoGitDirs(t, git)
}
