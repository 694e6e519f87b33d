package httpapi_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/mirror"
)

// TestMigrateTransferErrors: a migration whose transfer fails answers 422
// with Forgejo's message for the failure's kind — `Authentication failed:
// …` for refused credentials, `Migration failed: …` for a remote that is
// unreachable or no git repository — and leaves nothing: no repository,
// no directory. The kinds are typed by the git layer (mirror.ErrTransfer,
// mirror.ErrTransferAuth), never read back from a message.
func TestMigrateTransferErrors(t *testing.T) {
	t.Parallel()
	up := newEnv(t)
	upTok := up.token("root", "write:repository", "write:user")
	up.expect(up.do(req{method: "POST", path: "/api/v1/user/repos", token: upTok,
		body: map[string]any{"name": "src", "private": true, "auto_init": true}}), http.StatusCreated, "")

	down, downGit := newMirrorEnv(t, mirror.Policy{AllowLoopback: true}, &syncBuffer{})
	tok := down.token("root", "write:repository", "write:user")
	for _, c := range []struct {
		body map[string]any
		msg  string
	}{
		{map[string]any{"clone_addr": up.srv.URL + "/root/src.git", "auth_username": "root", "auth_password": "wrong-password"},
			"Authentication failed: authentication failed for the remote"},
		{map[string]any{"clone_addr": up.srv.URL + "/root/src.git"},
			"Authentication failed: authentication failed for the remote"},
		{map[string]any{"clone_addr": up.srv.URL + "/api/v1/version"},
			"Migration failed: the remote is not a git repository (status 404)"},
		{map[string]any{"clone_addr": "http://127.0.0.1:1/x.git", "mirror": true},
			"Migration failed: the remote is unreachable: connection refused"},
	} {
		c.body["repo_name"] = "m"
		r := down.do(req{method: "POST", path: "/api/v1/repos/migrate", token: tok, body: c.body})
		down.expect(r, http.StatusUnprocessableEntity, c.msg)
		require.False(t, strings.Contains(string(r.body), "wrong-password"), "%s", r.body)
		down.expect(down.do(req{method: "GET", path: "/api/v1/repos/root/m", token: tok}), http.StatusNotFound, "")
	}
	assertNoGitDirs(t, downGit)
}
