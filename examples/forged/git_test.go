package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// gitCLI runs the real git command in dir with a private configuration.
func gitCLI(t *testing.T, dir string, args ...string) (string, error) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=Tester", "-c", "user.email=tester@example.com",
		"-c", "init.defaultBranch=main", "-c", "protocol.version=2"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "HOME="+dir,
		"GIT_TERMINAL_PROMPT=0", "GIT_ASKPASS=/bin/false")
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func mustGit(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, err := gitCLI(t, dir, args...)
	require.NoError(t, err, "git %s: %s", strings.Join(args, " "), out)
	return out
}

// TestGitOverSmartHTTP creates a repository of each object format through
// the API, pushes to it with the git CLI, reads the commits, trees and
// blobs back through the API, clones it, and is refused a push without
// write access.
func TestGitOverSmartHTTP(t *testing.T) {
	t.Parallel()
	s := start(t, filepath.Join(t.TempDir(), "data"), map[string]string{
		"FORGED_ADMIN_USER": "boss", "FORGED_ADMIN_PASSWORD": "boss-password"})
	admin := call{user: "boss", pass: "boss-password"}
	for _, u := range []string{"alice", "eve"} {
		admin.method, admin.path = "POST", "/api/v1/admin/users"
		admin.body = map[string]any{"username": u, "email": u + "@example.com", "password": u + "-password", "must_change_password": false}
		require.Equal(t, 201, s.do(t, admin).status)
	}
	token := func(user string) string {
		r := s.do(t, call{method: "POST", path: "/api/v1/users/" + user + "/tokens", user: user, pass: user + "-password",
			body: map[string]any{"name": "git", "scopes": []string{"write:repository", "write:user"}}})
		require.Equal(t, 201, r.status, "%s", r.raw)
		return r.body["sha1"].(string)
	}
	aliceTok, eveTok := token("alice"), token("eve")
	host := strings.TrimPrefix(s.url, "http://")

	for _, format := range []string{"sha1", "sha256"} {
		t.Run(format, func(t *testing.T) {
			name := "proj-" + format
			r := s.do(t, call{method: "POST", path: "/api/v1/user/repos", header: map[string]string{"Authorization": "token " + aliceTok},
				body: map[string]any{"name": name, "object_format_name": format}})
			require.Equal(t, 201, r.status, "%s", r.raw)
			assert.Equal(t, format, r.body["object_format_name"])
			assert.Equal(t, true, r.body["empty"])
			remote := "http://alice:" + aliceTok + "@" + host + "/alice/" + name + ".git"

			work := t.TempDir()
			mustGit(t, work, "init", "--object-format="+format, ".")
			require.NoError(t, os.WriteFile(filepath.Join(work, "hello.txt"), []byte("hello\n"), 0o644))
			mustGit(t, work, "add", ".")
			mustGit(t, work, "commit", "-m", "first")
			require.NoError(t, os.WriteFile(filepath.Join(work, "hello.txt"), []byte("hello\nworld\n"), 0o644))
			mustGit(t, work, "commit", "-am", "second")
			head := strings.TrimSpace(mustGit(t, work, "rev-parse", "HEAD"))
			hexLen := map[string]int{"sha1": 40, "sha256": 64}[format]
			require.Len(t, head, hexLen)
			mustGit(t, work, "push", remote, "main")

			auth := map[string]string{"Authorization": "token " + aliceTok}
			r = s.do(t, call{method: "GET", path: "/api/v1/repos/alice/" + name, header: auth})
			assert.Equal(t, false, r.body["empty"], "the push is recorded")
			assert.Positive(t, r.body["size"].(float64)+1)
			r = s.do(t, call{method: "GET", path: "/api/v1/repos/alice/" + name + "/git/commits/" + head, header: auth})
			require.Equal(t, 200, r.status, "%s", r.raw)
			assert.Equal(t, head, r.body["sha"])
			assert.Equal(t, map[string]any{"total": 1.0, "additions": 1.0, "deletions": 0.0}, r.body["stats"])
			tree := r.body["commit"].(map[string]any)["tree"].(map[string]any)["sha"].(string)
			assert.Len(t, tree, hexLen)
			r = s.do(t, call{method: "GET", path: "/api/v1/repos/alice/" + name + "/git/trees/" + tree, header: auth})
			require.Equal(t, 200, r.status)
			entry := r.body["tree"].([]any)[0].(map[string]any)
			assert.Equal(t, "hello.txt", entry["path"])
			blob := entry["sha"].(string)
			assert.Len(t, blob, hexLen)
			r = s.do(t, call{method: "GET", path: "/api/v1/repos/alice/" + name + "/git/blobs/" + blob, header: auth})
			require.Equal(t, 200, r.status)
			assert.Equal(t, "aGVsbG8Kd29ybGQK", r.body["content"])

			// Clone it back, anonymously (public repository) and with credentials.
			clone := t.TempDir()
			mustGit(t, clone, "clone", s.url+"/alice/"+name+".git", "anon")
			got, err := os.ReadFile(filepath.Join(clone, "anon", "hello.txt"))
			require.NoError(t, err)
			assert.Equal(t, "hello\nworld\n", string(got))
			assert.Equal(t, head, strings.TrimSpace(mustGit(t, filepath.Join(clone, "anon"), "rev-parse", "HEAD")))
			mustGit(t, clone, "clone", remote, "authed")

			// A user without write access cannot push; nothing changes.
			require.NoError(t, os.WriteFile(filepath.Join(work, "evil.txt"), []byte("x\n"), 0o644))
			mustGit(t, work, "add", ".")
			mustGit(t, work, "commit", "-m", "evil")
			out, err := gitCLI(t, work, "push", "http://eve:"+eveTok+"@"+host+"/alice/"+name+".git", "main")
			require.Error(t, err, "eve's push must fail: %s", out)
			assert.Contains(t, out, "403")
			out, err = gitCLI(t, work, "push", s.url+"/alice/"+name+".git", "main")
			require.Error(t, err, "an anonymous push must fail: %s", out)
			r = s.do(t, call{method: "GET", path: "/api/v1/repos/alice/" + name + "/branches/main", header: auth})
			assert.Equal(t, head, r.body["commit"].(map[string]any)["id"], "the refused pushes changed nothing")

			// Branch protection holds for git pushes too.
			r = s.do(t, call{method: "POST", path: "/api/v1/repos/alice/" + name + "/branch_protections", header: auth,
				body: map[string]any{"rule_name": "main", "enable_push": false}})
			require.Equal(t, 201, r.status, "%s", r.raw)
			out, err = gitCLI(t, work, "push", remote, "main")
			require.Error(t, err, "a push to a protected branch must fail: %s", out)
			assert.Contains(t, out, "Not allowed to push to protected branch main", "git shows why")
			mustGit(t, work, "push", remote, "main:feature")
			out, err = gitCLI(t, work, "push", remote, ":main")
			require.Error(t, err, "deleting a protected branch must fail: %s", out)
			r = s.do(t, call{method: "DELETE", path: "/api/v1/repos/alice/" + name + "/branch_protections/main", header: auth})
			require.Equal(t, 204, r.status)
			mustGit(t, work, "push", remote, "main")
			r = s.do(t, call{method: "GET", path: "/api/v1/repos/alice/" + name + "/branches", header: auth})
			require.Equal(t, 200, r.status)
			assert.Equal(t, "2", r.header.Get("X-Total-Count"))
		})
	}
}
