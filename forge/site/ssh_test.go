package site_test

import (
	"bytes"
	"encoding/json"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge/hooks"
	"github.com/hearthforge/hearth/forge/site"
	"github.com/hearthforge/hearth/quota"
)

// sshEnv is a forge serving git over SSH on loopback, with its API as
// root (siteEnv).
type sshEnv struct {
	*siteEnv
	port string
}

func startSSHSite(t *testing.T, mutate ...func(*site.Config)) *sshEnv {
	t.Helper()
	for _, tool := range []string{"git", "ssh", "ssh-keygen"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed", tool)
		}
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	cfg := site.Config{SSH: &site.SSH{Listener: ln}}
	for _, m := range mutate {
		m(&cfg)
	}
	e := startSite(t, cfg)
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	return &sshEnv{siteEnv: e, port: port}
}

// newKey makes an ed25519 key pair with the real ssh-keygen and returns the
// private key's path and the public key's text.
func newKey(t *testing.T, name string) (string, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	out, err := exec.Command("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", name+"@test", "-f", path).CombinedOutput()
	require.NoError(t, err, "%s", out)
	pub, err := os.ReadFile(path + ".pub")
	require.NoError(t, err)
	return path, strings.TrimSpace(string(pub))
}

// git runs git in dir with the SSH key at key and returns its combined
// output and whether it succeeded.
func (e *sshEnv) git(t *testing.T, dir, key string, args ...string) (string, bool) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(),
		"GIT_SSH_COMMAND=ssh -i "+key+" -o IdentitiesOnly=yes -o BatchMode=yes -o StrictHostKeyChecking=no "+
			"-o UserKnownHostsFile=/dev/null -o LogLevel=ERROR -p "+e.port,
		"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "HOME="+dir, "GIT_TERMINAL_PROMPT=0",
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
	out, err := cmd.CombinedOutput()
	return string(out), err == nil
}

// mustGit is git that must succeed.
func (e *sshEnv) mustGit(t *testing.T, dir, key string, args ...string) string {
	t.Helper()
	out, ok := e.git(t, dir, key, args...)
	require.True(t, ok, "git %v: %s", args, out)
	return out
}

// branchCommit is the commit of owner/repo's branch as the API reads it.
func (e *sshEnv) branchCommit(owner, repo, branch string) string {
	b := e.call("GET", "/repos/"+owner+"/"+repo+"/branches/"+branch, nil, 200)
	return b["commit"].(map[string]any)["id"].(string)
}

// commitAndPush makes a commit in the clone at dir and pushes it with key;
// it returns the commit, git's output and whether the push succeeded.
func (e *sshEnv) commitAndPush(t *testing.T, dir, key, file string) (string, string, bool) {
	t.Helper()
	require.NoError(t, os.WriteFile(filepath.Join(dir, file), []byte(file+"\n"), 0o644))
	e.mustGit(t, dir, key, "add", file)
	e.mustGit(t, dir, key, "commit", "-q", "-m", "add "+file)
	head := strings.TrimSpace(e.mustGit(t, dir, key, "rev-parse", "HEAD"))
	out, ok := e.git(t, dir, key, "push", "origin", "HEAD:main")
	return head, out, ok
}

// TestGitOverSSH clones, pushes and is refused with the real git and
// OpenSSH clients, on SHA-1 and SHA-256 repositories: a user's key (its
// pushes go through branch protection; a disabled account is refused), a
// read-only and a read-write deploy key (only on their repository), an
// unknown key. Refusals change nothing.
func TestGitOverSSH(t *testing.T) {
	t.Parallel()
	e := startSSHSite(t)
	for _, format := range []string{"sha1", "sha256"} {
		t.Run(format, func(t *testing.T) {
			t.Parallel()
			owner := "ssh" + format
			e.call("POST", "/admin/users", map[string]any{"username": owner, "email": owner + "@example.com",
				"password": "password-" + owner, "must_change_password": false}, 201)
			for _, name := range []string{"r", "other"} {
				e.call("POST", "/admin/users/"+owner+"/repos", map[string]any{"name": name, "auto_init": true,
					"object_format_name": format, "default_branch": "main"}, 201)
			}
			repo := e.call("GET", "/repos/"+owner+"/r", nil, 200)
			url := repo["ssh_url"].(string)
			require.Equal(t, "ssh://git@127.0.0.1:"+e.port+"/"+owner+"/r.git", url, "ssh_url as Forgejo composes it on a port other than 22")
			otherURL := "ssh://git@127.0.0.1:" + e.port + "/" + owner + "/other.git"

			userKey, userPub := newKey(t, "user")
			roKey, roPub := newKey(t, "ro")
			rwKey, rwPub := newKey(t, "rw")
			strangerKey, _ := newKey(t, "stranger")
			e.call("POST", "/admin/users/"+owner+"/keys", map[string]any{"title": "laptop", "key": userPub}, 201)
			e.call("POST", "/repos/"+owner+"/r/keys", map[string]any{"title": "ci-ro", "key": roPub, "read_only": true}, 201)
			e.call("POST", "/repos/"+owner+"/r/keys", map[string]any{"title": "ci-rw", "key": rwPub, "read_only": false}, 201)

			// A user's key: clone (protocol v2), push.
			work := t.TempDir()
			trace := exec.Command("git", "-c", "protocol.version=2", "ls-remote", url)
			trace.Env = append(os.Environ(), "GIT_TRACE_PACKET=1", "GIT_SSH_COMMAND=ssh -i "+userKey+
				" -o IdentitiesOnly=yes -o BatchMode=yes -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR -p "+e.port)
			out, err := trace.CombinedOutput()
			require.NoError(t, err, "%s", out)
			assert.Contains(t, string(out), "< version 2", "the server speaks protocol v2 when GIT_PROTOCOL asks it")

			e.mustGit(t, work, userKey, "clone", "-q", url, "u")
			u := filepath.Join(work, "u")
			assert.Equal(t, format, strings.TrimSpace(e.mustGit(t, u, userKey, "rev-parse", "--show-object-format")))
			head, out2, ok := e.commitAndPush(t, u, userKey, "by-user.txt")
			require.True(t, ok, out2)
			assert.Equal(t, head, e.branchCommit(owner, "r", "main"), "the push moved main")

			// Branch protection applies to SSH pushes as to HTTP ones.
			e.call("POST", "/repos/"+owner+"/r/branch_protections", map[string]any{"branch_name": "main", "enable_push": false}, 201)
			_, out2, ok = e.commitAndPush(t, u, userKey, "protected.txt")
			assert.False(t, ok, "a push to a protected branch is refused")
			assert.Contains(t, out2, "Not allowed to push to protected branch main")
			assert.Equal(t, head, e.branchCommit(owner, "r", "main"), "a refused push changes nothing")
			e.call("DELETE", "/repos/"+owner+"/r/branch_protections/main", nil, 204)
			e.mustGit(t, u, userKey, "reset", "-q", "--hard", head)

			// A read-only deploy key clones and may not push.
			e.mustGit(t, work, roKey, "clone", "-q", url, "ro")
			ro := filepath.Join(work, "ro")
			_, out2, ok = e.commitAndPush(t, ro, roKey, "by-ro.txt")
			assert.False(t, ok, "a read-only deploy key may not push: %s", out2)
			assert.Equal(t, head, e.branchCommit(owner, "r", "main"))
			// Nor reach another repository of the owner.
			out2, ok = e.git(t, work, roKey, "clone", "-q", otherURL, "nope")
			assert.False(t, ok)
			assert.Contains(t, out2, "Repository does not exist")

			// A read-write deploy key pushes.
			e.mustGit(t, work, rwKey, "clone", "-q", url, "rw")
			rw := filepath.Join(work, "rw")
			head, out2, ok = e.commitAndPush(t, rw, rwKey, "by-rw.txt")
			require.True(t, ok, out2)
			assert.Equal(t, head, e.branchCommit(owner, "r", "main"))

			// An unknown key is refused at authentication.
			out2, ok = e.git(t, work, strangerKey, "clone", "-q", url, "stranger")
			assert.False(t, ok)
			assert.Contains(t, out2, "Permission denied")

			// An unknown repository.
			out2, ok = e.git(t, work, userKey, "clone", "-q", "ssh://git@127.0.0.1:"+e.port+"/"+owner+"/missing.git", "missing")
			assert.False(t, ok)
			assert.Contains(t, out2, "Repository does not exist")

			// A disabled account's keys stop working: no clone, no push.
			e.mustGit(t, u, userKey, "pull", "-q", "--rebase", "origin", "main")
			e.call("PATCH", "/admin/users/"+owner, map[string]any{"prohibit_login": true, "login_name": owner, "source_id": 0}, 200)
			out2, ok = e.git(t, work, userKey, "clone", "-q", url, "disabled")
			assert.False(t, ok, "a disabled user may not clone")
			assert.Contains(t, out2, "prohibited from signing in")
			_, out2, ok = e.commitAndPush(t, u, userKey, "disabled.txt")
			assert.False(t, ok, "a disabled user may not push: %s", out2)
			assert.Equal(t, head, e.branchCommit(owner, "r", "main"), "nothing changed")
		})
	}
}

// TestGitOverSSHQuota: a push over SSH is refused by the owner's quota as
// over HTTP (the same check, at the same point): git reports "Quota
// exceeded" and the branch does not move.
func TestGitOverSSHQuota(t *testing.T) {
	t.Parallel()
	e := startSSHSite(t, func(c *site.Config) { c.Quota = quota.Config{Enabled: true, DefaultTotal: 1} })
	e.call("POST", "/admin/users", map[string]any{"username": "q", "email": "q@example.com", "password": "password-q",
		"must_change_password": false}, 201)
	e.call("POST", "/admin/users/q/repos", map[string]any{"name": "r", "auto_init": true, "default_branch": "main"}, 201)
	key, pub := newKey(t, "q")
	e.call("POST", "/admin/users/q/keys", map[string]any{"title": "k", "key": pub}, 201)
	work := t.TempDir()
	url := "ssh://git@127.0.0.1:" + e.port + "/q/r.git"
	e.mustGit(t, work, key, "clone", "-q", url, "c")
	before := e.branchCommit("q", "r", "main")
	_, out, ok := e.commitAndPush(t, filepath.Join(work, "c"), key, "big.txt")
	assert.False(t, ok, "the owner is over quota")
	assert.Contains(t, out, "Quota exceeded")
	assert.Equal(t, before, e.branchCommit("q", "r", "main"), "nothing moved")
}

// TestSSHHostKeyKeptInDataDir: the host key is made on the first start
// and the same on the next.
func TestSSHHostKeyKeptInDataDir(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	first, err := site.LoadOrCreateHostKey(filepath.Join(dir, site.HostKeyFile))
	require.NoError(t, err)
	info, err := os.Stat(filepath.Join(dir, site.HostKeyFile))
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), info.Mode().Perm())
	again, err := site.LoadOrCreateHostKey(filepath.Join(dir, site.HostKeyFile))
	require.NoError(t, err)
	assert.True(t, bytes.Equal(first.PublicKey().Marshal(), again.PublicKey().Marshal()), "the same key on the next start")
}

// TestSSHPushRunsTheAfterPushPath: a push over SSH is recorded through
// the one after-push path: the repository's push webhook is delivered,
// naming the pusher (the repository's owner for a deploy key, as Forgejo),
// and the payload's repository has the ssh_url of GET /repos.
func TestSSHPushRunsTheAfterPushPath(t *testing.T) {
	t.Parallel()
	policy, err := hooks.ParseAddressPolicy([]string{"loopback"})
	require.NoError(t, err)
	e := startSSHSite(t, func(c *site.Config) { c.WebhookPolicy = policy })
	hookURL, deliveries := receiver(t)
	e.call("POST", "/user/repos", map[string]any{"name": "w", "auto_init": true, "default_branch": "main"}, http.StatusCreated)
	e.call("POST", "/repos/root/w/hooks", map[string]any{"type": "forgejo", "active": true, "events": []string{"push"},
		"config": map[string]string{"url": hookURL, "content_type": "json"}}, http.StatusCreated)
	userKey, userPub := newKey(t, "root")
	deployKey, deployPub := newKey(t, "deploy")
	e.call("POST", "/user/keys", map[string]any{"title": "k", "key": userPub}, http.StatusCreated)
	e.call("POST", "/repos/root/w/keys", map[string]any{"title": "d", "key": deployPub}, http.StatusCreated)
	sshURL := e.call("GET", "/repos/root/w", nil, http.StatusOK)["ssh_url"]
	work := t.TempDir()
	e.mustGit(t, work, userKey, "clone", "-q", sshURL.(string), "c")
	for i, key := range []string{userKey, deployKey} {
		head, out, ok := e.commitAndPush(t, filepath.Join(work, "c"), key, "f"+strconv.Itoa(i))
		require.True(t, ok, out)
		var payload struct {
			After      string         `json:"after"`
			Pusher     map[string]any `json:"pusher"`
			Repository map[string]any `json:"repository"`
		}
		select {
		case d := <-deliveries:
			require.Equal(t, "push", d.event)
			require.NoError(t, json.Unmarshal(d.body, &payload))
		case <-time.After(time.Minute):
			t.Fatal("no push webhook delivered")
		}
		assert.Equal(t, head, payload.After)
		assert.Equal(t, "root", payload.Pusher["login"])
		assert.Equal(t, sshURL, payload.Repository["ssh_url"])
	}
}
