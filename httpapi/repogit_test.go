package httpapi_test

import (
	"encoding/base64"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// repoGitWorld is alice's public repository proj and private repository
// secret (both auto-initialised in format), bob a read collaborator of
// both, carol a stranger; tok holds each one's token (all scopes).
type repoGitWorld struct {
	e   *env
	tok map[string]string
}

func newRepoGitWorld(t *testing.T, format string) *repoGitWorld {
	t.Helper()
	e := newEnv(t)
	w := &repoGitWorld{e: e, tok: map[string]string{}}
	for _, u := range []string{"alice", "bob", "carol"} {
		e.createUser(u)
		w.tok[u] = e.token(u, "all")
	}
	for _, name := range []string{"proj", "secret"} {
		e.createRepo(w.tok["alice"], name, map[string]any{"auto_init": true, "private": name == "secret", "object_format_name": format})
		e.expect(e.do(req{method: "PUT", path: "/api/v1/repos/alice/" + name + "/collaborators/bob", token: w.tok["alice"],
			body: map[string]any{"permission": "read"}}), http.StatusNoContent, "")
	}
	return w
}

// as is a request of user (a token) on path below /api/v1.
func (w *repoGitWorld) as(user, method, path string, body any) resp {
	return w.e.do(req{method: method, path: "/api/v1" + path, token: w.tok[user], body: body})
}

// clone is a working copy of alice/name, cloned with the real git client.
func (w *repoGitWorld) clone(t *testing.T, name string) *gitWork {
	t.Helper()
	g := newGitWork(t)
	g.run("clone", "-q", w.e.gitURL("alice", "alice-password", "alice", name), ".")
	return g
}

// remoteRefs are the refs of alice/name as git ls-remote lists them.
func (w *repoGitWorld) remoteRefs(t *testing.T, name string) map[string]string {
	t.Helper()
	out := newGitWork(t).run("ls-remote", w.e.gitURL("alice", "alice-password", "alice", name))
	refs := map[string]string{}
	for _, line := range strings.Split(out, "\n") {
		if id, ref, ok := strings.Cut(line, "\t"); ok {
			refs[ref] = id
		}
	}
	return refs
}

// TestGitNotesAPI: a note set through the API is the note git shows after
// fetching refs/notes/commits, read back by branch, full and short id; the
// answer's commit is the notes commit; removed, it is gone. Readers read,
// only writers write, and strangers get 404 on the private repository;
// names that are no ref pattern are 422 and unknown ones 404. Both object
// formats.
func TestGitNotesAPI(t *testing.T) {
	t.Parallel()
	for _, format := range []string{"sha1", "sha256"} {
		t.Run(format, func(t *testing.T) {
			t.Parallel()
			w := newRepoGitWorld(t, format)
			e := w.e
			head := w.remoteRefs(t, "proj")["refs/heads/main"]
			require.Len(t, head, map[string]int{"sha1": 40, "sha256": 64}[format])

			e.expect(w.as("alice", "GET", "/repos/alice/proj/git/notes/main", nil), http.StatusNotFound, "")
			r := w.as("alice", "POST", "/repos/alice/proj/git/notes/main", map[string]any{"message": "reviewed by alice"})
			e.expect(r, http.StatusOK, "")
			got := r.json(t)
			assert.Equal(t, "reviewed by alice\n", got["message"], "git notes stores the message with its newline")
			notes := w.remoteRefs(t, "proj")["refs/notes/commits"]
			require.NotEmpty(t, notes, "the notes ref exists")
			assert.Equal(t, notes, got["commit"].(map[string]any)["sha"], "the answer's commit is the notes commit")
			assert.Equal(t, head, w.remoteRefs(t, "proj")["refs/heads/main"], "the branch did not move")

			// Real git sees the note.
			g := w.clone(t, "proj")
			g.run("fetch", "-q", "origin", "refs/notes/commits:refs/notes/commits")
			assert.Equal(t, "reviewed by alice", g.run("notes", "show", head))

			for _, rev := range []string{head, head[:10], "main"} {
				r := w.as("bob", "GET", "/repos/alice/proj/git/notes/"+rev+"?files=false", nil)
				e.expect(r, http.StatusOK, "")
				assert.Equal(t, "reviewed by alice\n", r.json(t)["message"], rev)
			}
			// Set again: the message changes, the notes ref moves on.
			r = w.as("alice", "POST", "/repos/alice/proj/git/notes/"+head, map[string]any{"message": "second"})
			e.expect(r, http.StatusOK, "")
			assert.Equal(t, "second\n", r.json(t)["message"])
			assert.NotEqual(t, notes, w.remoteRefs(t, "proj")["refs/notes/commits"])

			// Refusals.
			e.expect(w.as("bob", "POST", "/repos/alice/proj/git/notes/main", map[string]any{"message": "x"}), http.StatusForbidden, "")
			e.expect(w.as("bob", "DELETE", "/repos/alice/proj/git/notes/main", nil), http.StatusForbidden, "")
			e.expect(e.do(req{method: "POST", path: "/api/v1/repos/alice/proj/git/notes/main", body: map[string]any{"message": "x"}}),
				http.StatusUnauthorized, "token is required")
			e.expect(w.as("alice", "POST", "/repos/alice/secret/git/notes/main", map[string]any{"message": "private"}), http.StatusOK, "")
			e.expect(w.as("bob", "GET", "/repos/alice/secret/git/notes/main", nil), http.StatusOK, "")
			for _, method := range []string{"GET", "POST", "DELETE"} {
				e.expect(w.as("carol", method, "/repos/alice/secret/git/notes/main", map[string]any{"message": "x"}), http.StatusNotFound, "")
				e.expect(e.do(req{method: "GET", path: "/api/v1/repos/alice/secret/git/notes/main"}), http.StatusNotFound, "")
			}
			assert.Equal(t, "second\n", w.as("alice", "GET", "/repos/alice/proj/git/notes/main", nil).json(t)["message"],
				"refused writes changed nothing")

			// Bad input.
			e.expect(w.as("alice", "GET", "/repos/alice/proj/git/notes/a~1", nil), http.StatusUnprocessableEntity, "no valid ref or sha: a~1")
			e.expect(w.as("alice", "POST", "/repos/alice/proj/git/notes/a~1", map[string]any{"message": "x"}), http.StatusUnprocessableEntity, "no valid ref or sha: a~1")
			e.expect(w.as("alice", "POST", "/repos/alice/proj/git/notes/nope", map[string]any{"message": "x"}), http.StatusNotFound, "")
			e.expect(w.as("alice", "POST", "/repos/alice/proj/git/notes/main", `{"message": 1}`), http.StatusUnprocessableEntity, "")

			// Removed: gone, and removing again is 404.
			e.expect(w.as("alice", "DELETE", "/repos/alice/proj/git/notes/main", nil), http.StatusNoContent, "")
			e.expect(w.as("alice", "GET", "/repos/alice/proj/git/notes/main", nil), http.StatusNotFound, "")
			e.expect(w.as("alice", "DELETE", "/repos/alice/proj/git/notes/main", nil), http.StatusNotFound, "")
			g.run("fetch", "-q", "-f", "origin", "refs/notes/commits:refs/notes/commits")
			g.fail("notes", "show", head)
		})
	}
}

// TestGetBlobsAPI: git/blobs answers the blobs asked, in their order, with
// their content; the first 50 only; an unknown id, another object than a
// blob, or no ids at all are 400, as Forgejo; the private repository is
// 404 to strangers. Both object formats.
func TestGetBlobsAPI(t *testing.T) {
	t.Parallel()
	for _, format := range []string{"sha1", "sha256"} {
		t.Run(format, func(t *testing.T) {
			t.Parallel()
			w := newRepoGitWorld(t, format)
			e := w.e
			g := w.clone(t, "proj")
			g.commit("a.txt", "alpha\n")
			g.commit("b.txt", "beta\n")
			g.run("push", "-q", "origin", "main")
			a, b := g.run("rev-parse", "HEAD:a.txt"), g.run("rev-parse", "HEAD:b.txt")

			r := w.as("carol", "GET", "/repos/alice/proj/git/blobs?shas="+b+","+a, nil)
			e.expect(r, http.StatusOK, "")
			list := r.list(t)
			require.Len(t, list, 2)
			for i, want := range []struct{ id, content string }{{b, "beta\n"}, {a, "alpha\n"}} {
				assert.Equal(t, want.id, list[i]["sha"])
				assert.Equal(t, base64.StdEncoding.EncodeToString([]byte(want.content)), list[i]["content"])
				assert.Equal(t, "base64", list[i]["encoding"])
				assert.Equal(t, float64(len(want.content)), list[i]["size"])
				assert.True(t, strings.HasSuffix(list[i]["url"].(string), "/repos/alice/proj/git/blobs/"+want.id))
			}
			many := strings.TrimSuffix(strings.Repeat(a+",", 60), ",")
			r = w.as("alice", "GET", "/repos/alice/proj/git/blobs?shas="+many, nil)
			e.expect(r, http.StatusOK, "")
			assert.Len(t, r.list(t), 50, "Forgejo keeps the first MAX_RESPONSE_ITEMS")

			unknown := strings.Repeat("1", len(a))
			e.expect(w.as("alice", "GET", "/repos/alice/proj/git/blobs?shas="+a+","+unknown, nil), http.StatusBadRequest,
				"object does not exist [id: "+unknown+", rel_path: ]")
			e.expect(w.as("alice", "GET", "/repos/alice/proj/git/blobs?shas=", nil), http.StatusBadRequest, "shas not provided")
			e.expect(w.as("alice", "GET", "/repos/alice/proj/git/blobs", nil), http.StatusBadRequest, "shas not provided")
			e.expect(w.as("alice", "GET", "/repos/alice/proj/git/blobs?shas="+g.run("rev-parse", "HEAD"), nil), http.StatusBadRequest, "")
			e.expect(w.as("alice", "GET", "/repos/alice/proj/git/blobs?shas="+a+",,", nil), http.StatusBadRequest, "")

			e.expect(w.as("bob", "GET", "/repos/alice/secret/git/blobs?shas="+a, nil), http.StatusBadRequest, "")
			e.expect(w.as("carol", "GET", "/repos/alice/secret/git/blobs?shas="+a, nil), http.StatusNotFound, "")
			e.expect(e.do(req{method: "GET", path: "/api/v1/repos/alice/secret/git/blobs?shas=" + a}), http.StatusNotFound, "")
		})
	}
}

// TestApplyDiffPatchAPI: a patch made by git diff is committed on main
// (201, the commit's parent main's old tip, the file as the patch says,
// main moved to the commit), or on a new branch leaving main; a patch
// that does not apply, is no patch, touches a path git refuses, or names
// an existing new branch is 422 and nothing moves; an unknown branch is
// 404; readers get 403, strangers 404 on the private repository, and a
// writer a protected branch refuses gets 403. Both object formats.
func TestApplyDiffPatchAPI(t *testing.T) {
	t.Parallel()
	for _, format := range []string{"sha1", "sha256"} {
		t.Run(format, func(t *testing.T) {
			t.Parallel()
			w := newRepoGitWorld(t, format)
			e := w.e
			g := w.clone(t, "proj")
			readme, err := os.ReadFile(filepath.Join(g.dir, "README.md"))
			require.NoError(t, err)
			g.write("README.md", append(readme, []byte("patched line\n")...))
			g.write("new.txt", []byte("new file\n"))
			g.run("add", "-N", "new.txt")
			patch := g.run("diff") + "\n"
			g.run("checkout", "-q", ".")
			g.run("rm", "-q", "--cached", "new.txt")
			require.NoError(t, os.Remove(filepath.Join(g.dir, "new.txt")))
			before := w.remoteRefs(t, "proj")

			post := func(user string, body map[string]any) resp {
				return w.as(user, "POST", "/repos/alice/proj/diffpatch", body)
			}
			// Refusals first: nothing moves.
			e.expect(post("bob", map[string]any{"content": patch}), http.StatusForbidden, "")
			e.expect(post("carol", map[string]any{"content": patch}), http.StatusForbidden, "")
			e.expect(w.as("carol", "POST", "/repos/alice/secret/diffpatch", map[string]any{"content": patch}), http.StatusNotFound, "")
			e.expect(e.do(req{method: "POST", path: "/api/v1/repos/alice/proj/diffpatch", body: map[string]any{"content": patch}}),
				http.StatusUnauthorized, "token is required")
			// Bad input: nothing moves.
			e.expect(post("alice", map[string]any{}), http.StatusUnprocessableEntity, "[Content]: Required")
			e.expect(post("alice", map[string]any{"content": "not a patch\n"}), http.StatusUnprocessableEntity, "")
			evil := "diff --git a/.git/config b/.git/config\nnew file mode 100644\n--- /dev/null\n+++ b/.git/config\n@@ -0,0 +1 @@\n+x\n"
			e.expect(post("alice", map[string]any{"content": evil}), http.StatusUnprocessableEntity, "")
			e.expect(post("alice", map[string]any{"content": patch, "branch": "nope"}), http.StatusNotFound, "branch does not exist [name: nope]")
			require.Equal(t, before, w.remoteRefs(t, "proj"), "refused patches moved no ref")

			// On a new branch: main stays.
			r := post("alice", map[string]any{"content": patch, "new_branch": "feature", "message": "patch it"})
			e.expect(r, http.StatusCreated, "")
			cm := r.json(t)["commit"].(map[string]any)
			refs := w.remoteRefs(t, "proj")
			assert.Equal(t, cm["sha"], refs["refs/heads/feature"])
			assert.Equal(t, before["refs/heads/main"], refs["refs/heads/main"])
			assert.Equal(t, "patch it\n", cm["message"])
			e.expect(post("alice", map[string]any{"content": patch, "new_branch": "feature"}), http.StatusUnprocessableEntity,
				"branch already exists [name: feature]")

			// On main.
			r = post("alice", map[string]any{"content": patch})
			e.expect(r, http.StatusCreated, "")
			cm = r.json(t)["commit"].(map[string]any)
			assert.Equal(t, "apply-patch\n", cm["message"], "Forgejo's default message")
			assert.Equal(t, before["refs/heads/main"], cm["parents"].([]any)[0].(map[string]any)["sha"])
			assert.Equal(t, cm["sha"], w.remoteRefs(t, "proj")["refs/heads/main"])
			assert.Equal(t, "alice", cm["author"].(map[string]any)["name"])
			g.run("pull", "-q", "origin", "main")
			got, err := os.ReadFile(filepath.Join(g.dir, "README.md"))
			require.NoError(t, err)
			assert.Equal(t, string(readme)+"patched line\n", string(got))
			assert.Equal(t, "new file", g.run("show", "HEAD:new.txt"))

			// A patch whose context is not in the file does not apply:
			// 422, main stays.
			tip := w.remoteRefs(t, "proj")
			stale := "diff --git a/README.md b/README.md\n--- a/README.md\n+++ b/README.md\n@@ -1 +1 @@\n-no such line\n+replacement\n"
			r = post("alice", map[string]any{"content": stale})
			e.expect(r, http.StatusUnprocessableEntity, "")
			assert.Contains(t, r.json(t)["message"], "patch does not apply")
			assert.Equal(t, tip, w.remoteRefs(t, "proj"))

			// A protected branch: a writer who may not push is refused.
			e.expect(w.as("alice", "PUT", "/repos/alice/proj/collaborators/carol", map[string]any{"permission": "write"}), http.StatusNoContent, "")
			e.expect(w.as("alice", "POST", "/repos/alice/proj/branch_protections", map[string]any{"rule_name": "main"}), http.StatusCreated, "")
			other := "diff --git a/other.txt b/other.txt\nnew file mode 100644\n--- /dev/null\n+++ b/other.txt\n@@ -0,0 +1 @@\n+o\n"
			e.expect(post("carol", map[string]any{"content": other}), http.StatusForbidden, "user should have a permission to write to this branch")
			e.expect(post("carol", map[string]any{"content": other, "new_branch": "carols"}), http.StatusCreated, "")
			assert.Equal(t, tip["refs/heads/main"], w.remoteRefs(t, "proj")["refs/heads/main"])
		})
	}
}
