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

// pushEnv is alice/pub (auto-initialised, public) with write
// collaborators, and a clone of it to push from.
type pushEnv struct {
	*env
	alice string // alice's token
	dir   string
}

func newPushEnv(t *testing.T, writers ...string) *pushEnv {
	t.Helper()
	e := newEnv(t)
	e.createUser("alice")
	p := &pushEnv{env: e, alice: e.token("alice", "all"), dir: t.TempDir()}
	e.expect(e.do(req{method: "POST", path: "/api/v1/user/repos", token: p.alice,
		body: map[string]any{"name": "pub", "auto_init": true, "readme": "Default"}}), http.StatusCreated, "")
	for _, w := range writers {
		e.createUser(w)
		e.expect(e.do(req{method: "PUT", path: "/api/v1/repos/alice/pub/collaborators/" + w, token: p.alice,
			body: map[string]any{"permission": "write"}}), http.StatusNoContent, "")
	}
	_, err := p.git("clone", e.srv.URL+"/alice/pub.git", ".")
	require.NoError(t, err)
	return p
}

// git runs the real git client in the clone.
func (p *pushEnv) git(args ...string) (string, error) {
	cmd := exec.Command("/usr/bin/git", append([]string{"-c", "user.name=T", "-c", "user.email=t@example.com"}, args...)...)
	cmd.Dir = p.dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "HOME="+p.dir, "GIT_TERMINAL_PROMPT=0")
	out, err := cmd.CombinedOutput()
	return strings.TrimSpace(string(out)), err
}

// push pushes refspec as user with token and reports whether the server
// took it, with git's output.
func (p *pushEnv) push(user, token, refspec string) (bool, string) {
	p.t.Helper()
	url := strings.Replace(p.srv.URL, "http://", "http://"+user+":"+token+"@", 1) + "/alice/pub.git"
	out, err := p.git("push", url, refspec)
	return err == nil, out
}

// commit makes a new commit on the clone's HEAD.
func (p *pushEnv) commit(name string) {
	p.t.Helper()
	require.NoError(p.t, os.WriteFile(filepath.Join(p.dir, name), []byte(name), 0o644))
	_, err := p.git("add", name)
	require.NoError(p.t, err)
	_, err = p.git("commit", "-m", name)
	require.NoError(p.t, err)
}

// F2: rules match as Forgejo's: `**` spans path components, `{a,b}`
// alternatives, a plain name ignores case, a tag `*` spans `/`.
func TestPushProtectionPatternsAsForgejo(t *testing.T) {
	t.Parallel()
	p := newPushEnv(t, "bob")
	bob := p.token("bob", "all")
	for _, rule := range []string{"main", "release/**", "{stable,lts}-*"} {
		p.expect(p.do(req{method: "POST", path: "/api/v1/repos/alice/pub/branch_protections", token: p.alice,
			body: map[string]any{"rule_name": rule}}), http.StatusCreated, "")
	}
	p.expect(p.do(req{method: "POST", path: "/api/v1/repos/alice/pub/tag_protections", token: p.alice,
		body: map[string]any{"name_pattern": "v*", "whitelist_usernames": []string{"alice"}}}), http.StatusCreated, "")
	p.commit("evil")

	for _, ref := range []string{"refs/heads/release/1.0/hotfix", "refs/heads/stable-1", "refs/heads/lts-2",
		"refs/heads/MAIN", "refs/tags/v2/final", "refs/tags/v1"} {
		ok, out := p.push("bob", bob, "HEAD:"+ref)
		assert.False(t, ok, "%s pushed: %s", ref, out)
	}
	ok, out := p.push("bob", bob, "HEAD:refs/heads/feature/x")
	assert.True(t, ok, "an unprotected branch takes the push: %s", out)
	// The branch and tag API apply the same rule.
	for _, name := range []string{"release/1.0/hotfix", "stable-9", "MAIN"} {
		p.expect(p.do(req{method: "POST", path: "/api/v1/repos/alice/pub/branches", token: bob,
			body: map[string]any{"new_branch_name": name, "old_branch_name": "main"}}), http.StatusForbidden, "")
	}
	p.expect(p.do(req{method: "POST", path: "/api/v1/repos/alice/pub/tags", token: bob,
		body: map[string]any{"tag_name": "v3/x", "target": "main"}}), http.StatusUnprocessableEntity,
		"user not allowed to create protected tag")
	ok, out = p.push("alice", p.alice, "HEAD:refs/tags/v2/final")
	assert.True(t, ok, "the whitelisted user pushes the tag: %s", out)

	// Tag patterns are checked when written: an invalid glob or regular
	// expression is refused, never stored to match nothing.
	for _, pattern := range []string{"rel-[", "/(/"} {
		p.expect(p.do(req{method: "POST", path: "/api/v1/repos/alice/pub/tag_protections", token: p.alice,
			body: map[string]any{"name_pattern": pattern, "whitelist_usernames": []string{"alice"}}}), http.StatusUnprocessableEntity, "")
	}
	// An invalid branch glob is Forgejo's literal rule: stored, matching
	// its own text only.
	p.expect(p.do(req{method: "POST", path: "/api/v1/repos/alice/pub/branch_protections", token: p.alice,
		body: map[string]any{"rule_name": "rel-["}}), http.StatusCreated, "")
	ok, out = p.push("bob", bob, "HEAD:refs/heads/rel-x")
	assert.True(t, ok, "%s", out)
}

// F11: a push creates only the branch and tag names the API accepts, and
// does not write the namespaces Forgejo reserves (refs/pull, refs/for).
func TestPushRefNamesAsAPI(t *testing.T) {
	t.Parallel()
	p := newPushEnv(t, "bob")
	bob := p.token("bob", "all")
	for _, ref := range []string{"refs/heads/HEAD", "refs/heads/-n", "refs/tags/-n", "refs/tags/HEAD",
		"refs/pull/1/head", "refs/pull/x", "refs/for/main", "refs/for/main/topic"} {
		ok, out := p.push("bob", bob, "HEAD:"+ref)
		assert.False(t, ok, "%s pushed: %s", ref, out)
	}
	ok, out := p.push("bob", bob, "HEAD:refs/pull/1/head")
	assert.Contains(t, out, "Unable to get pull request 1", ok)
	// Other namespaces are the repository's, as in Forgejo.
	ok, out = p.push("bob", bob, "HEAD:refs/notes/commits")
	assert.True(t, ok, "%s", out)
	ok, out = p.push("bob", bob, "HEAD:refs/heads/ok-name")
	assert.True(t, ok, "%s", out)
	// Existing refs stay deletable whatever their name rules today.
	ok, out = p.push("bob", bob, ":refs/heads/ok-name")
	assert.True(t, ok, "%s", out)
}

// F3: whitelists follow users, not names.
func TestProtectionWhitelistFollowsUser(t *testing.T) {
	t.Parallel()
	p := newPushEnv(t, "bob", "dave", "carol")
	bob, dave, carol := p.token("bob", "all"), p.token("dave", "all"), p.token("carol", "all")
	p.expect(p.do(req{method: "POST", path: "/api/v1/repos/alice/pub/tag_protections", token: p.alice,
		body: map[string]any{"name_pattern": "v*", "whitelist_usernames": []string{"dave"}}}), http.StatusCreated, "")
	p.expect(p.do(req{method: "POST", path: "/api/v1/repos/alice/pub/branch_protections", token: p.alice,
		body: map[string]any{"rule_name": "main", "enable_push": true, "enable_push_whitelist": true,
			"push_whitelist_usernames": []string{"carol"}}}), http.StatusCreated, "")
	p.expect(p.do(req{method: "POST", path: "/api/v1/repos/alice/pub/tag_protections", token: p.alice,
		body: map[string]any{"name_pattern": "x*", "whitelist_usernames": []string{"nobody"}}}),
		http.StatusUnprocessableEntity, "User does not exist")

	// dave becomes david; bob takes the name dave.
	rename := func(from, to string) {
		p.expect(p.do(req{method: "POST", path: "/api/v1/admin/users/" + from + "/rename", user: "root", pass: "rootpassword",
			body: map[string]any{"new_username": to}}), http.StatusNoContent, "")
	}
	rename("dave", "david")
	rename("bob", "dave")
	p.commit("one")
	ok, out := p.push("dave", bob, "HEAD:refs/tags/v1")
	assert.False(t, ok, "the new holder of the name has no right: %s", out)
	ok, out = p.push("david", dave, "HEAD:refs/tags/v1")
	assert.True(t, ok, "the renamed user keeps the right: %s", out)
	r := p.do(req{method: "GET", path: "/api/v1/repos/alice/pub/tag_protections", token: p.alice})
	p.expect(r, http.StatusOK, "")
	assert.Equal(t, []any{"david"}, r.list(t)[0]["whitelist_usernames"], "the API shows the current name")

	// carol is deleted and the name taken again: the new carol gets nothing.
	ok, out = p.push("carol", carol, "HEAD:refs/heads/main")
	require.True(t, ok, "%s", out)
	p.expect(p.do(req{method: "DELETE", path: "/api/v1/repos/alice/pub/collaborators/carol", token: p.alice}), http.StatusNoContent, "")
	p.expect(p.do(req{method: "DELETE", path: "/api/v1/admin/users/carol", user: "root", pass: "rootpassword"}), http.StatusNoContent, "")
	p.createUser("carol")
	p.expect(p.do(req{method: "PUT", path: "/api/v1/repos/alice/pub/collaborators/carol", token: p.alice,
		body: map[string]any{"permission": "write"}}), http.StatusNoContent, "")
	carol2 := p.token("carol", "all")
	p.commit("two")
	ok, out = p.push("carol", carol2, "HEAD:refs/heads/main")
	assert.False(t, ok, "a recreated name gets no right: %s", out)
	r = p.do(req{method: "GET", path: "/api/v1/repos/alice/pub/branch_protections/main", token: p.alice})
	p.expect(r, http.StatusOK, "")
	assert.Equal(t, []any{}, r.json(t)["push_whitelist_usernames"])
}
