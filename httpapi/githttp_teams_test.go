package httpapi_test

import (
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// gitAs runs the real git client in dir with the user's password in the URL
// of acme/tool, and returns its output and whether it succeeded.
func gitAs(t *testing.T, e *env, dir, user string, args ...string) (string, bool) {
	t.Helper()
	url := strings.Replace(e.srv.URL, "http://", "http://"+user+":"+user+"-password@", 1) + "/acme/tool.git"
	for i, a := range args {
		if a == "URL" {
			args[i] = url
		}
	}
	cmd := exec.Command("/usr/bin/git", append([]string{"-c", "user.name=T", "-c", "user.email=t@example.com"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "HOME="+dir, "GIT_TERMINAL_PROMPT=0")
	out, err := cmd.CombinedOutput()
	return string(out), err == nil
}

// Smart HTTP follows the team units: a member of a team whose code unit is
// none cannot fetch the organisation's private repository and is told it
// does not exist, as a stranger is; a team with code read fetches but
// cannot push; a team with code write pushes.
func TestGitHTTPTeamCodeUnit(t *testing.T) {
	t.Parallel()
	e := newOrgEnv(t)
	for _, u := range []string{"alice", "issuer", "reader", "writer", "stranger"} {
		e.createUser(u)
	}
	e.createOrg("alice", "acme", "public")
	e.expect(e.do(as("alice", "POST", "/orgs/acme/repos", map[string]any{"name": "tool", "private": true, "auto_init": true})),
		http.StatusCreated, "")
	team := func(name, code string, member string) {
		id := e.createTeam("acme", map[string]any{"name": name, "permission": "read",
			"units_map": map[string]string{"repo.code": code, "repo.issues": "write"}})
		e.expect(e.do(rootReq("PUT", "/teams/"+tid(id)+"/members/"+member, nil)), http.StatusNoContent, "")
		e.expect(e.do(rootReq("PUT", "/teams/"+tid(id)+"/repos/acme/tool", nil)), http.StatusNoContent, "")
	}
	team("issuers", "none", "issuer")
	team("readers", "read", "reader")
	team("writers", "write", "writer")
	// The issue unit makes the repository visible to the issuer.
	e.expect(e.do(as("issuer", "GET", "/repos/acme/tool", nil)), http.StatusOK, "")

	var seen []string
	for _, u := range []string{"issuer", "stranger"} {
		out, ok := gitAs(t, e, t.TempDir(), u, "clone", "URL", ".")
		assert.False(t, ok, "%s cloned: %s", u, out)
		assert.Contains(t, out, "remote: repository not found", u)
		seen = append(seen, strings.ReplaceAll(out, u+":"+u+"-password@", ""))
	}
	assert.Equal(t, seen[0], seen[1], "the issuer is answered as a stranger")

	dir := t.TempDir()
	out, ok := gitAs(t, e, dir, "reader", "clone", "URL", ".")
	require.True(t, ok, out)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "new"), []byte("new"), 0o644))
	_, ok = gitAs(t, e, dir, "reader", "add", "new")
	require.True(t, ok)
	out, ok = gitAs(t, e, dir, "reader", "commit", "-m", "new")
	require.True(t, ok, out)
	out, ok = gitAs(t, e, dir, "reader", "push", "URL", "HEAD:refs/heads/main")
	assert.False(t, ok, "a reader pushed: %s", out)
	assert.Contains(t, out, "403", out)
	out, ok = gitAs(t, e, dir, "writer", "push", "URL", "HEAD:refs/heads/main")
	assert.True(t, ok, "a writer could not push: %s", out)
}
