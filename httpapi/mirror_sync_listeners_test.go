package httpapi_test

import (
	"net/http"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/hearthforge/hearth/mirror"
)

// TestMirrorSyncTellsPushListeners: a pull-mirror sync tells the push
// listeners (webhooks, pull requests, push mirrors) of the references it
// changed, old → new, as a push would: a moved branch, a created one and,
// with prune on, a deleted one. A ref created or deleted has git's all-zero
// id on its missing side, as in a push's commands.
func TestMirrorSyncTellsPushListeners(t *testing.T) {
	t.Parallel()
	up := newEnv(t)
	upTok := up.token("root", "write:repository", "write:user")
	up.expect(up.do(req{method: "POST", path: "/api/v1/user/repos", token: upTok, body: map[string]any{"name": "src"}}), http.StatusCreated, "")
	wt := t.TempDir()
	runGit(t, wt, "init", "-q", "-b", "main")
	runGit(t, wt, "remote", "add", "origin", strings.Replace(up.srv.URL, "http://", "http://root:rootpassword@", 1)+"/root/src.git")
	c1 := commit(t, wt, "a.txt")
	runGit(t, wt, "push", "-q", "origin", "main", "main:gone")

	rec := &forkPushRecorder{}
	down, _ := newMirrorEnv(t, mirror.Policy{AllowLoopback: true}, &syncBuffer{}, rec)
	tok := down.token("root", "write:repository", "write:user")
	down.expect(down.do(req{method: "POST", path: "/api/v1/repos/migrate", token: tok, body: map[string]any{
		"clone_addr": up.srv.URL + "/root/src.git", "repo_name": "m", "mirror": true}}), http.StatusCreated, "")
	assert.Empty(t, rec.updates(), "a migration is no push")

	c2 := commit(t, wt, "b.txt")
	runGit(t, wt, "push", "-q", "origin", "main", "main:feat", ":gone")
	down.expect(down.do(req{method: "POST", path: "/api/v1/repos/root/m/mirror-sync", token: tok}), http.StatusOK, "")
	got := rec.updates()
	sort.Strings(got)
	zero := strings.Repeat("0", 40)
	assert.Equal(t, []string{
		"root/m refs/heads/feat " + zero + " " + c2,
		"root/m refs/heads/gone " + c1 + " " + zero,
		"root/m refs/heads/main " + c1 + " " + c2,
	}, got)

	// Nothing moved upstream: nothing told.
	down.expect(down.do(req{method: "POST", path: "/api/v1/repos/root/m/mirror-sync", token: tok}), http.StatusOK, "")
	assert.Len(t, rec.updates(), 3)
}
