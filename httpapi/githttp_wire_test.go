package httpapi_test

import (
	"bytes"
	"crypto/rand"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/httpapi"
	"github.com/hearthforge/hearth/storage/gitstore"
)

// gitWork is a working directory driven by the real git client.
type gitWork struct {
	t   *testing.T
	dir string
}

func newGitWork(t *testing.T) *gitWork {
	t.Helper()
	return &gitWork{t: t, dir: t.TempDir()}
}

func (g *gitWork) cmd(args ...string) *exec.Cmd {
	cmd := exec.Command("git", append([]string{"-c", "user.name=T", "-c", "user.email=t@example.com",
		"-c", "init.defaultBranch=main", "-c", "credential.helper="}, args...)...)
	cmd.Dir = g.dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "HOME="+g.dir,
		"GIT_TERMINAL_PROMPT=0", "GIT_ASKPASS=", "SSH_ASKPASS=")
	return cmd
}

// run runs git and fails the test on error.
func (g *gitWork) run(args ...string) string {
	g.t.Helper()
	out, err := g.cmd(args...).CombinedOutput()
	require.NoError(g.t, err, "git %v: %s", args, out)
	return strings.TrimSpace(string(out))
}

// fail runs git, expects it to fail and returns its output.
func (g *gitWork) fail(args ...string) string {
	g.t.Helper()
	out, err := g.cmd(args...).CombinedOutput()
	require.Error(g.t, err, "git %v unexpectedly succeeded: %s", args, out)
	return string(out)
}

func (g *gitWork) write(name string, data []byte) {
	g.t.Helper()
	require.NoError(g.t, os.WriteFile(filepath.Join(g.dir, name), data, 0o644))
}

func (g *gitWork) commit(name, content string) string {
	g.t.Helper()
	g.write(name, []byte(content))
	g.run("add", ".")
	g.run("commit", "-q", "-m", "c "+name)
	return g.run("rev-parse", "HEAD")
}

// gitURL is the clone URL of owner/name with credentials.
func (e *env) gitURL(user, secret, owner, name string) string {
	u := e.srv.URL + "/" + owner + "/" + name + ".git"
	if user != "" {
		u = strings.Replace(u, "http://", "http://"+user+":"+secret+"@", 1)
	}
	return u
}

func (e *env) createRepo(tok, name string, extra map[string]any) {
	e.t.Helper()
	body := map[string]any{"name": name}
	for k, v := range extra {
		body[k] = v
	}
	e.expect(e.do(req{method: "POST", path: "/api/v1/user/repos", token: tok, body: body}), 201, "")
}

func randomBytes(t *testing.T, n int) []byte {
	t.Helper()
	b := make([]byte, n)
	_, err := rand.Read(b)
	require.NoError(t, err)
	return b
}

// A push far above net/http/cgi's 1 MiB (sent chunked) succeeds and is
// cloned back identical, with protocol v0 and v2, fetch and shallow fetch.
func TestGitLargePushClonesBackIdentical(t *testing.T) {
	t.Parallel()
	for _, format := range []string{"sha1", "sha256"} {
		t.Run(format, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t)
			e.createUser("alice")
			tok := e.token("alice", "all")
			e.createRepo(tok, "big", map[string]any{"object_format_name": format})
			url := e.gitURL("alice", tok, "alice", "big")

			w := newGitWork(t)
			w.run("init", "-q", "--object-format="+format, ".")
			size := bigPush
			if format == "sha256" {
				size = min(bigPush, 5<<20) // still sent chunked; 50 MB once is enough
			}
			data := randomBytes(t, size)
			w.write("blob.bin", data)
			w.run("add", ".")
			w.run("commit", "-q", "-m", "big")
			w.run("push", "-q", url, "main")
			first := w.run("rev-parse", "HEAD")

			for _, proto := range []string{"0", "2"} {
				c := newGitWork(t)
				c.run("-c", "protocol.version="+proto, "clone", "-q", url, "out")
				got, err := os.ReadFile(filepath.Join(c.dir, "out", "blob.bin"))
				require.NoError(t, err)
				assert.True(t, bytes.Equal(data, got), "protocol %s: the clone has the pushed bytes", proto)
			}

			second := w.commit("small.txt", "more")
			w.run("push", "-q", url, "main")

			// Fetch and shallow fetch, v0 and v2.
			for _, proto := range []string{"0", "2"} {
				s := newGitWork(t)
				s.run("init", "-q", "--object-format="+format, ".")
				s.run("-c", "protocol.version="+proto, "fetch", "-q", "--depth=1", url, "main")
				assert.Equal(t, second, s.run("rev-parse", "FETCH_HEAD"))
				assert.Equal(t, "true", s.run("rev-parse", "--is-shallow-repository"))
				s.run("-c", "protocol.version="+proto, "fetch", "-q", "--unshallow", url, "main")
				assert.Equal(t, "false", s.run("rev-parse", "--is-shallow-repository"))
				assert.Equal(t, first, s.run("rev-parse", "FETCH_HEAD~1"))
			}
		})
	}
}

// A push over the configured limit is refused with 413 and stores nothing.
func TestGitPushOverLimitRefused(t *testing.T) {
	t.Parallel()
	var store *gitstore.Store
	e := newEnvWith(t, func(c *repos.Config) { store = c.Git.(*gitstore.Store) },
		func(c *httpapi.Config) { c.Git = gitstore.HTTP{Store: store, MaxPushBytes: 2 << 20} })
	e.createUser("alice")
	tok := e.token("alice", "all")
	e.createRepo(tok, "lim", nil)
	url := e.gitURL("alice", tok, "alice", "lim")

	w := newGitWork(t)
	w.run("init", "-q", ".")
	w.commit("small.txt", "hello")
	w.run("push", "-q", url, "main") // under the limit
	head := w.run("rev-parse", "HEAD")

	w.write("big.bin", randomBytes(t, 5<<20))
	w.run("add", ".")
	w.run("commit", "-q", "-m", "big")
	out := w.fail("push", url, "main")
	assert.Contains(t, out, "413")

	c := newGitWork(t)
	c.run("clone", "-q", url, "out")
	assert.Equal(t, head, (&gitWork{t: t, dir: filepath.Join(c.dir, "out")}).run("rev-parse", "HEAD"),
		"the refused push updated nothing")
}

// Duplicate service parameters never give a read-only client the
// receive-pack advertisement: disagreeing values are refused.
func TestGitDuplicateServiceParameters(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.createUser("alice")
	e.createUser("bob")
	tok := e.token("alice", "all")
	e.createRepo(tok, "proj", nil)
	bobRead := e.token("bob", "read:repository")

	for _, q := range []string{
		"service=git-upload-pack&service=git-receive-pack",
		"service=git-receive-pack&service=git-upload-pack",
		"service=git-upload-pack&service=",
	} {
		for _, who := range []req{{token: bobRead}, {}} {
			r := e.do(req{method: "GET", path: "/alice/proj.git/info/refs?" + q, token: who.token})
			assert.Equal(t, http.StatusBadRequest, r.StatusCode, "%s: %s", q, r.body)
			assert.NotContains(t, string(r.body), "receive-pack")
			assert.NotContains(t, string(r.body), "report-status")
		}
	}
	// The path and the service must agree.
	r := e.do(req{method: "POST", path: "/alice/proj.git/git-upload-pack?service=git-receive-pack", token: bobRead,
		body: []byte("0000"), header: map[string]string{"Content-Type": "application/x-git-upload-pack-request"}})
	assert.Equal(t, http.StatusBadRequest, r.StatusCode, "%s", r.body)
	// Agreeing duplicates are one service.
	r = e.do(req{method: "GET", path: "/alice/proj.git/info/refs?service=git-upload-pack&service=git-upload-pack", token: bobRead})
	assert.Equal(t, http.StatusOK, r.StatusCode, "%s", r.body)
	assert.Equal(t, "application/x-git-upload-pack-advertisement", r.Header.Get("Content-Type"))
	assert.Contains(t, r.Header.Get("Cache-Control"), "no-cache")
	assert.True(t, strings.HasPrefix(string(r.body), "001e# service=git-upload-pack\n0000"), "%q", r.body)
	// A read-only client cannot have the receive-pack advertisement at all.
	r = e.do(req{method: "GET", path: "/alice/proj.git/info/refs?service=git-receive-pack", token: bobRead})
	assert.Equal(t, http.StatusForbidden, r.StatusCode, "%s", r.body)
}

// Dumb-protocol paths and path tricks expose no files.
func TestGitPathsExposeNoFiles(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.createUser("alice")
	tok := e.token("alice", "all")
	e.createRepo(tok, "proj", map[string]any{"auto_init": true})
	for _, p := range []string{
		"/alice/proj.git/HEAD", "/alice/proj.git/config", "/alice/proj.git/objects/info/packs",
		"/alice/proj.git/info/refs", "/alice/proj.git.git/info/refs?service=git-upload-pack",
		"/alice/proj.git/info/refs?service=git-upload-archive", "/alice/proj.git/git-upload-archive",
		"/alice/proj.git/info/refs?service=../../config",
	} {
		r := e.do(req{method: "GET", path: p, token: tok})
		assert.Contains(t, []int{400, 403, 404, 405}, r.StatusCode, "%s: %s", p, r.body)
		assert.NotContains(t, string(r.body), "[core]", p)
		assert.NotContains(t, string(r.body), "refs/heads/", p)
	}
	// GET on the RPC endpoints and a wrong content type are refused.
	r := e.do(req{method: "POST", path: "/alice/proj.git/git-upload-pack", token: tok, body: []byte("0000")})
	assert.Contains(t, []int{400, 401, 415}, r.StatusCode, "%s", r.body)
}

// Force pushes to a protected branch that allows pushing are refused and
// leave it unchanged; fast-forwards pass; unprotected branches may be
// rewritten; a protected branch cannot be deleted.
func TestGitProtectedBranchForcePush(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.createUser("alice")
	tok := e.token("alice", "all")
	e.createRepo(tok, "proj", nil)
	url := e.gitURL("alice", tok, "alice", "proj")

	w := newGitWork(t)
	w.run("init", "-q", ".")
	base := w.commit("a", "1")
	w.run("push", "-q", url, "main", "main:feature", "main:other")
	e.expect(e.do(req{method: "POST", path: "/api/v1/repos/alice/proj/branch_protections", token: tok,
		body: map[string]any{"rule_name": "main", "enable_push": true}}), 201, "")
	e.expect(e.do(req{method: "POST", path: "/api/v1/repos/alice/proj/branch_protections", token: tok,
		body: map[string]any{"rule_name": "other", "enable_push": true}}), 201, "")

	remoteHead := func(branch string) string {
		out := w.run("ls-remote", url, "refs/heads/"+branch)
		id, _, _ := strings.Cut(out, "\t")
		return id
	}

	// A rewritten history: force push refused with Forgejo's message.
	w.run("commit", "-q", "--amend", "-m", "rewritten")
	rewritten := w.run("rev-parse", "HEAD")
	out := w.fail("push", "--force", url, "main")
	assert.Contains(t, out, "branch main is protected from force push")
	assert.Equal(t, base, remoteHead("main"))
	// Mixed with an allowed update, nothing is updated.
	out = w.fail("push", "--force", "--atomic", url, "main", "main:feature")
	assert.Contains(t, out, "protected from force push")
	assert.Equal(t, base, remoteHead("feature"))

	// The unprotected branch may be rewritten.
	w.run("push", "-q", "--force", url, "main:feature")
	assert.Equal(t, rewritten, remoteHead("feature"))

	// A fast-forward of the protected branch is accepted.
	w.run("reset", "-q", "--hard", base)
	next := w.commit("b", "2")
	w.run("push", "-q", url, "main")
	assert.Equal(t, next, remoteHead("main"))

	// Deleting a protected branch is refused.
	out = w.fail("push", url, ":other")
	assert.Contains(t, out, "branch other is protected from deletion")
	assert.Equal(t, base, remoteHead("other"))
}

// After an administrator disables a user in any way, clone and push with
// the user's token and password fail.
func TestGitDisabledAccountsHaveNoAccess(t *testing.T) {
	t.Parallel()
	for _, state := range []map[string]any{
		{"prohibit_login": true}, {"active": false}, {"must_change_password": true},
	} {
		for key := range state {
			t.Run(key, func(t *testing.T) {
				t.Parallel()
				e := newEnv(t)
				e.createUser("alice")
				tok := e.token("alice", "all")
				e.createRepo(tok, "proj", map[string]any{"private": true})
				w := newGitWork(t)
				w.run("init", "-q", ".")
				w.commit("a", "1")
				w.run("push", "-q", e.gitURL("alice", tok, "alice", "proj"), "main")
				// Public repository too: reading it must not pass as an
				// anonymous fallback either with the disabled credentials.
				e.createRepo(tok, "pub", nil)
				w.run("push", "-q", e.gitURL("alice", tok, "alice", "pub"), "main")

				body := map[string]any{"login_name": "alice", "source_id": 0}
				for k, v := range state {
					body[k] = v
				}
				e.expect(e.do(req{method: "PATCH", path: "/api/v1/admin/users/alice", user: "root", pass: "rootpassword",
					body: body}), 200, "")

				w.commit("b", "2")
				for _, secret := range []string{tok, "alice-password"} {
					for _, repo := range []string{"proj", "pub"} {
						url := e.gitURL("alice", secret, "alice", repo)
						if repo == "proj" {
							// git sends credentials only when challenged: a
							// public repository is cloned anonymously, as
							// anyone may.
							c := newGitWork(t)
							c.fail("clone", "-q", url, "out")
						}
						w.fail("push", url, "main")
						r := e.do(req{method: "GET", path: "/alice/" + repo + ".git/info/refs?service=git-upload-pack",
							user: "alice", pass: secret})
						// 403 with the state's message; a password sign-in
						// may be refused earlier by auth (401).
						assert.Contains(t, []int{http.StatusForbidden, http.StatusUnauthorized}, r.StatusCode, "%s", r.body)
						if secret == tok {
							assert.Equal(t, http.StatusForbidden, r.StatusCode, "%s", r.body)
						}
					}
				}
			})
		}
	}
}

// A receive-pack request whose commands git would read differently from
// the check (a push certificate, malformed lines) is refused before git.
func TestGitPushCommandsMustBeUnambiguous(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.createUser("alice")
	tok := e.token("alice", "all")
	e.createRepo(tok, "proj", nil)
	pkt := func(s string) string {
		return string([]byte{hex(len(s) + 4>>12), hex(len(s) + 4>>8), hex(len(s) + 4>>4), hex(len(s) + 4)}) + s
	}
	zero := strings.Repeat("0", 40)
	for _, body := range []string{
		pkt("push-cert\x00report-status\n") + pkt("certificate version 0.1\n") + "0000",
		pkt(zero+"  "+zero+" refs/heads/x\n") + "0000",
		pkt("garbage\n") + "0000",
	} {
		r := e.do(req{method: "POST", path: "/alice/proj.git/git-receive-pack", token: tok, body: []byte(body),
			header: map[string]string{"Content-Type": "application/x-git-receive-pack-request"}})
		assert.Equal(t, http.StatusBadRequest, r.StatusCode, "%q: %s", body, r.body)
	}
}

func hex(n int) byte { return "0123456789abcdef"[n&15] }
