package httpapi_test

import (
	"encoding/base64"
	"encoding/json"
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

// eachObjectFormat runs test in parallel on sha1 and on sha256.
func eachObjectFormat(t *testing.T, test func(t *testing.T, format string)) {
	t.Helper()
	for _, format := range []string{"sha1", "sha256"} {
		t.Run(format, func(t *testing.T) {
			t.Parallel()
			test(t, format)
		})
	}
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
	eachObjectFormat(t, func(t *testing.T, format string) {
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

// TestGetBlobsAPI: git/blobs answers the blobs asked, in their order, with
// their content; the first 50 only; an unknown id, another object than a
// blob, or no ids at all are 400, as Forgejo; the private repository is
// 404 to strangers. Both object formats.
func TestGetBlobsAPI(t *testing.T) {
	t.Parallel()
	eachObjectFormat(t, func(t *testing.T, format string) {
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

// TestApplyDiffPatchAPI: a patch made by git diff is committed on main
// (201, the commit's parent main's old tip, the file as the patch says,
// main moved to the commit), or on a new branch leaving main; a patch
// that does not apply, is no patch, touches a path git refuses, or names
// an existing new branch is 422 and nothing moves; an unknown branch is
// 404; readers get 403, strangers 404 on the private repository, and a
// writer a protected branch refuses gets 403. Both object formats.
func TestApplyDiffPatchAPI(t *testing.T) {
	t.Parallel()
	eachObjectFormat(t, func(t *testing.T, format string) {
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
			if _, ok := body["sha"]; !ok && len(body) > 0 {
				body["sha"] = "unused" // required by Forgejo's binding, never read
			}
			return w.as(user, "POST", "/repos/alice/proj/diffpatch", body)
		}
		// Refusals first: nothing moves.
		e.expect(post("bob", map[string]any{"content": patch}), http.StatusForbidden, "")
		e.expect(post("carol", map[string]any{"content": patch}), http.StatusForbidden, "")
		e.expect(w.as("carol", "POST", "/repos/alice/secret/diffpatch", map[string]any{"content": patch, "sha": "x"}), http.StatusNotFound, "")
		e.expect(e.do(req{method: "POST", path: "/api/v1/repos/alice/proj/diffpatch", body: map[string]any{"content": patch, "sha": "x"}}),
			http.StatusUnauthorized, "token is required")
		// Bad input: nothing moves.
		e.expect(post("alice", map[string]any{}), http.StatusUnprocessableEntity, "[SHA]: Required")
		e.expect(post("alice", map[string]any{"content": ""}), http.StatusUnprocessableEntity, "[Content]: Required")
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

// commitFiles commits files (path → content) on main of alice/name
// through the contents API.
func (w *repoGitWorld) commitFiles(t *testing.T, name string, files map[string]string) string {
	t.Helper()
	var ops []map[string]any
	for p, c := range files {
		ops = append(ops, map[string]any{"operation": "create", "path": p, "content": base64.StdEncoding.EncodeToString([]byte(c))})
	}
	r := w.as("alice", "POST", "/repos/alice/"+name+"/contents", map[string]any{"files": ops})
	w.e.expect(r, http.StatusCreated, "")
	return r.json(t)["commit"].(map[string]any)["sha"].(string)
}

// TestEditorconfigAPI: the definition the .editorconfig of a revision
// gives a path, sections merged with the last one winning, as the
// EditorConfig rules say; 404 without .editorconfig (also at a revision
// before it was added) and for an unknown ref; the private repository is
// 404 to strangers.
func TestEditorconfigAPI(t *testing.T) {
	t.Parallel()
	w := newRepoGitWorld(t, "sha1")
	e := w.e
	before := w.remoteRefs(t, "proj")["refs/heads/main"]
	e.expect(w.as("alice", "GET", "/repos/alice/proj/editorconfig/main.go", nil), http.StatusNotFound, "")
	w.commitFiles(t, "proj", map[string]string{".editorconfig": "root = true\n\n[*]\nindent_style = space\nindent_size = 4\n" +
		"end_of_line = lf\ncharset = utf-8\n\n[*.go]\nindent_style = tab\n\n[docs/**]\nindent_size = 2\n"})
	w.commitFiles(t, "secret", map[string]string{".editorconfig": "[*]\nindent_style = tab\n"})
	for path, want := range map[string]map[string]string{
		"README.md":         {"indent_style": "space", "indent_size": "4", "end_of_line": "lf", "charset": "utf-8"},
		"main.go":           {"indent_style": "tab", "indent_size": "4", "end_of_line": "lf", "charset": "utf-8"},
		"cmd/tool/main.go":  {"indent_style": "tab", "indent_size": "4", "end_of_line": "lf", "charset": "utf-8"},
		"docs/guide/a.txt":  {"indent_style": "space", "indent_size": "2", "end_of_line": "lf", "charset": "utf-8"},
		"no/such/file.json": {"indent_style": "space", "indent_size": "4", "end_of_line": "lf", "charset": "utf-8"},
	} {
		r := w.as("carol", "GET", "/repos/alice/proj/editorconfig/"+path, nil)
		e.expect(r, http.StatusOK, "")
		got := map[string]string{}
		require.NoError(t, json.Unmarshal(r.body, &got))
		assert.Equal(t, want, got, path)
	}
	e.expect(w.as("alice", "GET", "/repos/alice/proj/editorconfig/main.go?ref="+before, nil), http.StatusNotFound, "")
	e.expect(w.as("alice", "GET", "/repos/alice/proj/editorconfig/main.go?ref=nope", nil), http.StatusNotFound, "")
	e.expect(w.as("bob", "GET", "/repos/alice/secret/editorconfig/x.c", nil), http.StatusOK, "")
	e.expect(w.as("carol", "GET", "/repos/alice/secret/editorconfig/x.c", nil), http.StatusNotFound, "")
	e.expect(e.do(req{method: "GET", path: "/api/v1/repos/alice/secret/editorconfig/x.c"}), http.StatusNotFound, "")
}

// TestIssueTemplatesAPI: markdown templates with front matter and YAML
// issue forms of the default branch, as Forgejo parses them (description
// as about, comma-separated labels, ids and visibility filled in, refs
// made full); invalid ones left out and counted in X-Gitea-Warning; the
// issue config and its validation, with Forgejo's messages; defaults for
// a repository without them; the private repository is 404 to strangers.
func TestIssueTemplatesAPI(t *testing.T) {
	t.Parallel()
	w := newRepoGitWorld(t, "sha1")
	e := w.e
	r := w.as("carol", "GET", "/repos/alice/proj/issue_templates", nil)
	e.expect(r, http.StatusOK, "")
	assert.Equal(t, "[]", strings.TrimSpace(string(r.body)))
	r = w.as("carol", "GET", "/repos/alice/proj/issue_config", nil)
	e.expect(r, http.StatusOK, "")
	assert.JSONEq(t, `{"blank_issues_enabled": true, "contact_links": []}`, string(r.body))
	r = w.as("carol", "GET", "/repos/alice/proj/issue_config/validate", nil)
	e.expect(r, http.StatusOK, "")
	assert.JSONEq(t, `{"valid": true, "message": ""}`, string(r.body))

	w.commitFiles(t, "proj", map[string]string{
		".forgejo/ISSUE_TEMPLATE/bug.md": "---\nname: Bug\nabout: Report a bug\ntitle: \"[bug] \"\nlabels: bug, triage\nref: main\n---\nDescribe it.\n",
		".forgejo/ISSUE_TEMPLATE/form.yaml": "name: Form\ndescription: A form\nlabels: [a]\nbody:\n" +
			"  - type: markdown\n    attributes:\n      value: Thanks\n" +
			"  - type: input\n    id: version\n    attributes:\n      label: Version\n    validations:\n      required: true\n" +
			"  - type: dropdown\n    attributes:\n      label: OS\n      options: [linux, mac]\n      default: 1\n",
		".forgejo/ISSUE_TEMPLATE/broken.yaml": "name: Broken\n",
		".forgejo/ISSUE_TEMPLATE/dup.yaml": "name: Dup\nabout: d\nbody:\n  - type: input\n    id: x\n    attributes:\n      label: A\n" +
			"  - type: input\n    id: x\n    attributes:\n      label: B\n",
		".forgejo/ISSUE_TEMPLATE/notes.txt":   "not a template",
		".forgejo/ISSUE_TEMPLATE/config.yaml": "blank_issues_enabled: false\ncontact_links:\n  - name: Forum\n    url: https://forum.example/\n    about: Ask there\n",
		".github/ISSUE_TEMPLATE/plain.md":     "No front matter here, just text.\n",
	})
	r = w.as("carol", "GET", "/repos/alice/proj/issue_templates", nil)
	e.expect(r, http.StatusOK, "")
	assert.Equal(t, "error occurs when parsing issue template: count=2", r.Header.Get("X-Gitea-Warning"))
	assert.JSONEq(t, `[
		{"name": "Bug", "about": "Report a bug", "title": "[bug] ", "labels": ["bug", "triage"], "ref": "refs/heads/main",
		 "content": "Describe it.\n", "body": null, "file_name": ".forgejo/ISSUE_TEMPLATE/bug.md"},
		{"name": "Form", "about": "A form", "title": "", "labels": ["a"], "ref": "refs/heads/", "content": "",
		 "file_name": ".forgejo/ISSUE_TEMPLATE/form.yaml", "body": [
			{"type": "markdown", "id": "0", "attributes": {"value": "Thanks"}, "validations": null, "visible": ["form"]},
			{"type": "input", "id": "version", "attributes": {"label": "Version"}, "validations": {"required": true}, "visible": ["form", "content"]},
			{"type": "dropdown", "id": "2", "attributes": {"label": "OS", "options": ["linux", "mac"], "default": 1}, "validations": null, "visible": ["form", "content"]}]},
		{"name": "plain.md", "about": "No front matter here, just text.\n", "title": "", "labels": null, "ref": "refs/heads/",
		 "content": "No front matter here, just text.\n", "body": null, "file_name": ".github/ISSUE_TEMPLATE/plain.md"}
	]`, string(r.body))
	r = w.as("carol", "GET", "/repos/alice/proj/issue_config", nil)
	e.expect(r, http.StatusOK, "")
	assert.JSONEq(t, `{"blank_issues_enabled": false, "contact_links": [{"name": "Forum", "url": "https://forum.example/", "about": "Ask there"}]}`, string(r.body))
	r = w.as("carol", "GET", "/repos/alice/proj/issue_config/validate", nil)
	e.expect(r, http.StatusOK, "")
	assert.JSONEq(t, `{"valid": true, "message": ""}`, string(r.body))

	// An invalid config is answered as the default, and validate says why.
	w.commitFiles(t, "secret", map[string]string{
		".gitea/issue_template/config.yml": "contact_links:\n  - name: Forum\n    url: https://forum.example/\n",
	})
	r = w.as("bob", "GET", "/repos/alice/secret/issue_config", nil)
	e.expect(r, http.StatusOK, "")
	assert.JSONEq(t, `{"blank_issues_enabled": true, "contact_links": []}`, string(r.body))
	r = w.as("bob", "GET", "/repos/alice/secret/issue_config/validate", nil)
	e.expect(r, http.StatusOK, "")
	assert.JSONEq(t, `{"valid": false, "message": "contact_link at position 1 is missing about key"}`, string(r.body))
	for _, p := range []string{"issue_templates", "issue_config", "issue_config/validate"} {
		e.expect(w.as("carol", "GET", "/repos/alice/secret/"+p, nil), http.StatusNotFound, "")
		e.expect(e.do(req{method: "GET", path: "/api/v1/repos/alice/secret/" + p}), http.StatusNotFound, "")
	}
}
