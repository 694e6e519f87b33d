package httpapi_test

import (
	"encoding/base64"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/httpapi"
)

// wikiEnv is an API over real services with its git directory, for the
// wiki's tests.
type wikiEnv struct {
	*env
	gitDir string
}

func newWikiEnv(t *testing.T) *wikiEnv {
	t.Helper()
	b := newBase(t, ":memory:", testSecret)
	svc, _ := b.repoService(t)
	return &wikiEnv{env: b.serve(t, httpapi.Config{Auth: b.auth, Repos: svc, Git: b.git}), gitDir: b.gitDir}
}

func unb64(t *testing.T, v any) string {
	t.Helper()
	s, _ := v.(string)
	out, err := base64.StdEncoding.DecodeString(s)
	require.NoError(t, err)
	return string(out)
}

// wikiGit runs the git client in dir with a clean configuration and
// returns its output and error (runGit fails the test on an error).
func wikiGit(t *testing.T, dir string, args ...string) (string, error) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=T", "-c", "user.email=t@example.com", "-c", "init.defaultBranch=main"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "HOME="+dir, "GIT_TERMINAL_PROMPT=0")
	out, err := cmd.CombinedOutput()
	return strings.TrimSpace(string(out)), err
}

// The wiki's pages written, read, listed, renamed, revised and deleted
// through the API, on both object formats, with Forgejo's names, commit
// messages and answers.
func TestWikiPagesLifecycle(t *testing.T) {
	t.Parallel()
	for _, format := range []string{"sha1", "sha256"} {
		t.Run(format, func(t *testing.T) {
			t.Parallel()
			e := newWikiEnv(t)
			e.createUser("alice")
			tok := e.token("alice", "write:repository", "write:user")
			e.createRepo(tok, "proj", map[string]any{"object_format_name": format})
			w := "/api/v1/repos/alice/proj/wiki"

			// No wiki yet: Forgejo's 404 with the missing directory.
			r := e.do(req{method: "GET", path: w + "/pages", token: tok})
			e.expect(r, 404, "The target couldn't be found.")
			assert.Equal(t, []any{"no such file or directory"}, r.json(t)["errors"])

			r = e.do(req{method: "POST", path: w + "/new", token: tok, body: map[string]any{"title": "Home", "content_base64": b64("# Welcome")}})
			e.expect(r, 201, "")
			home := r.json(t)
			assert.Equal(t, "Home", home["title"])
			assert.Equal(t, "Home", home["sub_url"])
			assert.Equal(t, "# Welcome", unb64(t, home["content_base64"]))
			assert.Equal(t, e.srv.URL+"/alice/proj/wiki/Home", home["html_url"])
			assert.EqualValues(t, 1, home["commit_count"])
			last := home["last_commit"].(map[string]any)
			assert.Equal(t, `Add "Home"`, last["message"])
			assert.Len(t, last["sha"], map[string]int{"sha1": 40, "sha256": 64}[format])
			assert.Equal(t, "alice", last["author"].(map[string]any)["name"])
			assert.Equal(t, "", home["sidebar"])

			// A title with spaces and dashes, a sidebar and a footer.
			e.expect(e.do(req{method: "POST", path: w + "/new", token: tok, body: map[string]any{"title": "Getting Started", "content_base64": b64("steps"), "message": "guide"}}), 201, "")
			e.expect(e.do(req{method: "POST", path: w + "/new", token: tok, body: map[string]any{"title": "2000-01-02 meeting", "content_base64": b64("notes")}}), 201, "")
			e.expect(e.do(req{method: "POST", path: w + "/new", token: tok, body: map[string]any{"title": "_Sidebar", "content_base64": b64("side")}}), 201, "")
			e.expect(e.do(req{method: "POST", path: w + "/new", token: tok, body: map[string]any{"title": "_Footer", "content_base64": b64("foot")}}), 201, "")

			r = e.do(req{method: "GET", path: w + "/page/Getting-Started", token: tok})
			e.expect(r, 200, "")
			p := r.json(t)
			assert.Equal(t, "Getting Started", p["title"])
			assert.Equal(t, "steps", unb64(t, p["content_base64"]))
			assert.Equal(t, "side", unb64(t, p["sidebar"]))
			assert.Equal(t, "foot", unb64(t, p["footer"]))
			assert.Equal(t, "guide", p["last_commit"].(map[string]any)["message"])

			r = e.do(req{method: "GET", path: w + "/page/2000-01-02+meeting.-", token: tok})
			e.expect(r, 200, "")
			assert.Equal(t, "2000-01-02 meeting", r.json(t)["title"])

			r = e.do(req{method: "GET", path: w + "/pages?limit=2", token: tok})
			e.expect(r, 200, "")
			assert.Equal(t, "5", r.Header.Get("X-Total-Count"))
			assert.Len(t, r.list(t), 2)
			r = e.do(req{method: "GET", path: w + "/pages", token: tok})
			var subs []string
			for _, m := range r.list(t) {
				subs = append(subs, m["sub_url"].(string))
			}
			assert.ElementsMatch(t, []string{"Home", "Getting-Started", "2000-01-02+meeting.-", "_Sidebar", "_Footer"}, subs)

			// Edit in place, then rename.
			r = e.do(req{method: "PATCH", path: w + "/page/Home", token: tok, body: map[string]any{"content_base64": b64("v2")}})
			e.expect(r, 200, "")
			assert.Equal(t, `Update "Home"`, r.json(t)["last_commit"].(map[string]any)["message"])
			assert.EqualValues(t, 2, r.json(t)["commit_count"])
			r = e.do(req{method: "GET", path: w + "/revisions/Home", token: tok})
			e.expect(r, 200, "")
			assert.Equal(t, "2", r.Header.Get("X-Total-Count"))
			revs := r.json(t)
			assert.EqualValues(t, 2, revs["count"])
			msgs := []string{}
			for _, c := range revs["commits"].([]any) {
				msgs = append(msgs, c.(map[string]any)["message"].(string))
			}
			assert.Equal(t, []string{`Update "Home"`, `Add "Home"`}, msgs)

			r = e.do(req{method: "PATCH", path: w + "/page/Getting-Started", token: tok, body: map[string]any{"title": "Start", "content_base64": b64("moved")}})
			e.expect(r, 200, "")
			assert.Equal(t, "Start", r.json(t)["sub_url"])
			e.expect(e.do(req{method: "GET", path: w + "/page/Getting-Started", token: tok}), 404, "The target couldn't be found.")
			// Renaming onto another page is refused, nothing written.
			e.expect(e.do(req{method: "PATCH", path: w + "/page/Start", token: tok, body: map[string]any{"title": "Home", "content_base64": b64("x")}}),
				400, "wiki page already exists [title: Home.md]")

			e.expect(e.do(req{method: "DELETE", path: w + "/page/Start", token: tok}), 204, "")
			e.expect(e.do(req{method: "GET", path: w + "/page/Start", token: tok}), 404, "The target couldn't be found.")
			r = e.do(req{method: "DELETE", path: w + "/page/Start", token: tok})
			e.expect(r, 404, "The target couldn't be found.")
			assert.Equal(t, []any{"file does not exist"}, r.json(t)["errors"])
			r = e.do(req{method: "GET", path: w + "/revisions/Home", token: tok})
			assert.EqualValues(t, 2, r.json(t)["count"])
		})
	}
}

// Bad input: Forgejo's statuses and messages, nothing written.
func TestWikiBadInput(t *testing.T) {
	t.Parallel()
	e := newWikiEnv(t)
	e.createUser("alice")
	tok := e.token("alice", "write:repository", "write:user")
	e.createRepo(tok, "proj", nil)
	w := "/api/v1/repos/alice/proj/wiki"
	e.expect(e.do(req{method: "POST", path: w + "/new", token: tok, body: map[string]any{"title": "  ", "content_base64": b64("x")}}), 400, "%!s(<nil>)")
	e.expect(e.do(req{method: "POST", path: w + "/new", token: tok, body: map[string]any{"title": "P", "content_base64": "not base64!"}}), 400, "illegal base64 data at input byte 3")
	for _, reserved := range []string{"_pages", "_new", "_edit", "raw"} {
		e.expect(e.do(req{method: "POST", path: w + "/new", token: tok, body: map[string]any{"title": reserved, "content_base64": b64("x")}}), 400, "wiki title is reserved: "+reserved)
	}
	e.expect(e.do(req{method: "POST", path: w + "/new", token: tok, body: "{"}), 422, "")
	// A name too long for a tree entry is refused as bad input.
	e.expect(e.do(req{method: "POST", path: w + "/new", token: tok, body: map[string]any{"title": strings.Repeat("!", 100), "content_base64": b64("x")}}), 400, "")
	// Nothing was written: the wiki has no files yet.
	_, err := os.Stat(filepath.Join(e.gitDir, "1.wiki.git"))
	assert.True(t, os.IsNotExist(err), "wiki created by refused writes: %v", err)

	e.expect(e.do(req{method: "POST", path: w + "/new", token: tok, body: map[string]any{"title": "Home", "content_base64": b64("x")}}), 201, "")
	e.expect(e.do(req{method: "POST", path: w + "/new", token: tok, body: map[string]any{"title": "Home", "content_base64": b64("y")}}), 400, "wiki page already exists [title: Home.md]")

	// Separators and dot segments never leave the wiki's root: a title
	// with a slash is one file (%2F), `..` is cleaned away.
	r := e.do(req{method: "POST", path: w + "/new", token: tok, body: map[string]any{"title": "a/b", "content_base64": b64("slash")}})
	e.expect(r, 201, "")
	assert.Equal(t, "a%2Fb", r.json(t)["sub_url"])
	r = e.do(req{method: "POST", path: w + "/new", token: tok, body: map[string]any{"title": "../../escape", "content_base64": b64("dots")}})
	e.expect(r, 201, "")
	assert.Equal(t, "..%2F..%2Fescape", r.json(t)["sub_url"])
	// An escaped separator in a request is a name, as Forgejo reads the
	// raw path: one more file at the root.
	r = e.do(req{method: "PATCH", path: w + "/page/..%2F..%2FHome", token: tok, body: map[string]any{"content_base64": b64("z")}})
	e.expect(r, 200, "")
	assert.Equal(t, "..%2F..%2FHome", r.json(t)["sub_url"])
	r = e.do(req{method: "GET", path: w + "/pages", token: tok})
	var files []string
	for _, m := range r.list(t) {
		files = append(files, m["sub_url"].(string))
	}
	assert.ElementsMatch(t, []string{"Home", "a%2Fb", "..%2F..%2Fescape", "..%2F..%2FHome"}, files)
	dir := t.TempDir()
	_, err = wikiGit(t, dir, "clone", "-q", e.gitURL("alice", tok, "alice", "proj.wiki"), "w")
	require.NoError(t, err)
	out, err := wikiGit(t, filepath.Join(dir, "w"), "ls-tree", "--name-only", "HEAD")
	require.NoError(t, err)
	assert.ElementsMatch(t, []string{"Home.md", "a%2Fb.md", "..%2F..%2Fescape.md", "..%2F..%2FHome.md"}, strings.Split(out, "\n"))
	e.expect(e.do(req{method: "GET", path: w + "/page/missing", token: tok}), 404, "The target couldn't be found.")
	e.expect(e.do(req{method: "GET", path: w + "/revisions/missing", token: tok}), 404, "The target couldn't be found.")
}

// Who may read and write a wiki: Forgejo's mustEnableWiki, reqToken,
// mustNotBeArchived and reqRepoWriter(wiki), in that order.
func TestWikiAccess(t *testing.T) {
	t.Parallel()
	e := newWikiEnv(t)
	for _, u := range []string{"alice", "reader", "writer", "gone"} {
		e.createUser(u)
	}
	alice := e.token("alice", "write:repository", "write:user")
	reader, writer, gone := e.token("reader", "write:repository"), e.token("writer", "write:repository"), e.token("gone", "write:repository")
	readOnlyScope := e.token("alice", "read:repository")
	e.createRepo(alice, "priv", map[string]any{"private": true})
	e.createRepo(alice, "pub", nil)
	for _, c := range []struct{ user, perm string }{{"reader", "read"}, {"writer", "write"}, {"gone", "write"}} {
		e.expect(e.do(req{method: "PUT", path: "/api/v1/repos/alice/priv/collaborators/" + c.user, token: alice, body: map[string]any{"permission": c.perm}}), 204, "")
	}
	w := "/api/v1/repos/alice/priv/wiki"
	page := map[string]any{"title": "Home", "content_base64": b64("x")}
	e.expect(e.do(req{method: "POST", path: w + "/new", token: writer, body: page}), 201, "")
	e.expect(e.do(req{method: "GET", path: w + "/page/Home", token: reader}), 200, "")
	e.expect(e.do(req{method: "POST", path: w + "/new", token: reader, body: map[string]any{"title": "R"}}), 403, "user should have a permission to write to a repo")
	e.expect(e.do(req{method: "PATCH", path: w + "/page/Home", token: reader, body: "not json"}), 403, "user should have a permission to write to a repo")
	e.expect(e.do(req{method: "DELETE", path: w + "/page/Home", token: reader}), 403, "user should have a permission to write to a repo")
	e.expect(e.do(req{method: "POST", path: w + "/new", token: readOnlyScope, body: page}), 403, "token does not have at least one of required scope(s): [write:repository]")

	// A collaborator removed loses the wiki with the repository.
	e.expect(e.do(req{method: "PATCH", path: w + "/page/Home", token: gone, body: map[string]any{"content_base64": b64("y")}}), 200, "")
	e.expect(e.do(req{method: "DELETE", path: "/api/v1/repos/alice/priv/collaborators/gone", token: alice}), 204, "")
	e.expect(e.do(req{method: "GET", path: w + "/page/Home", token: gone}), 404, "The target couldn't be found.")
	e.expect(e.do(req{method: "PATCH", path: w + "/page/Home", token: gone, body: map[string]any{"content_base64": b64("z")}}), 404, "The target couldn't be found.")
	e.expect(e.do(req{method: "GET", path: w + "/pages"}), 404, "The target couldn't be found.")

	// Public repository: anyone reads, the anonymous may not write.
	pw := "/api/v1/repos/alice/pub/wiki"
	e.expect(e.do(req{method: "POST", path: pw + "/new", token: alice, body: page}), 201, "")
	e.expect(e.do(req{method: "GET", path: pw + "/page/Home"}), 200, "")
	e.expect(e.do(req{method: "POST", path: pw + "/new", body: page}), 401, "token is required")
	e.expect(e.do(req{method: "POST", path: pw + "/new", token: reader, body: page}), 403, "user should have a permission to write to a repo")

	// The wiki unit off: 404 for everyone, the owner too.
	e.expect(e.do(req{method: "PATCH", path: "/api/v1/repos/alice/pub", token: alice, body: map[string]any{"has_wiki": false}}), 200, "")
	e.expect(e.do(req{method: "GET", path: pw + "/page/Home", token: alice}), 404, "The target couldn't be found.")
	e.expect(e.do(req{method: "POST", path: pw + "/new", token: alice, body: page}), 404, "The target couldn't be found.")
	e.expect(e.do(req{method: "PATCH", path: "/api/v1/repos/alice/pub", token: alice, body: map[string]any{"has_wiki": true, "archived": true}}), 200, "")
	e.expect(e.do(req{method: "GET", path: pw + "/page/Home", token: alice}), 200, "")
	e.expect(e.do(req{method: "DELETE", path: pw + "/page/Home", token: alice}), 423, "")
}

// The wiki is a git repository: pages written through the API are read
// by `git clone` of {repo}.wiki.git with the repository's permission
// rules, a writer's push shows in the API, and the wiki follows its
// repository through a rename and is removed with it.
func TestWikiGitClone(t *testing.T) {
	t.Parallel()
	for _, format := range []string{"sha1", "sha256"} {
		t.Run(format, func(t *testing.T) {
			t.Parallel()
			e := newWikiEnv(t)
			for _, u := range []string{"alice", "reader", "stranger"} {
				e.createUser(u)
			}
			alice := e.token("alice", "write:repository", "write:user")
			reader, stranger := e.token("reader", "write:repository"), e.token("stranger", "write:repository")
			e.createRepo(alice, "proj", map[string]any{"private": true, "object_format_name": format})
			e.expect(e.do(req{method: "PUT", path: "/api/v1/repos/alice/proj/collaborators/reader", token: alice, body: map[string]any{"permission": "read"}}), 204, "")
			dir := t.TempDir()

			// Not written yet: nothing to clone.
			_, err := wikiGit(t, dir, "clone", "-q", e.gitURL("alice", alice, "alice", "proj.wiki"), "none")
			require.Error(t, err)

			w := "/api/v1/repos/alice/proj/wiki"
			e.expect(e.do(req{method: "POST", path: w + "/new", token: alice, body: map[string]any{"title": "Home", "content_base64": b64("# Home\n")}}), 201, "")
			e.expect(e.do(req{method: "POST", path: w + "/new", token: alice, body: map[string]any{"title": "Install Guide", "content_base64": b64("run it\n")}}), 201, "")

			_, err = wikiGit(t, dir, "clone", "-q", e.gitURL("reader", reader, "alice", "proj.wiki"), "r")
			require.NoError(t, err)
			rd := filepath.Join(dir, "r")
			b, err := os.ReadFile(filepath.Join(rd, "Home.md"))
			require.NoError(t, err)
			assert.Equal(t, "# Home\n", string(b))
			b, err = os.ReadFile(filepath.Join(rd, "Install-Guide.md"))
			require.NoError(t, err)
			assert.Equal(t, "run it\n", string(b))
			log, err := wikiGit(t, rd, "log", "--format=%s|%an")
			require.NoError(t, err)
			assert.Equal(t, "Add \"Install Guide\"|alice\nAdd \"Home\"|alice", log)
			objfmt, _ := wikiGit(t, rd, "rev-parse", "--show-object-format")
			assert.Equal(t, format, objfmt)

			// A reader may not push; a stranger does not see it.
			require.NoError(t, os.WriteFile(filepath.Join(rd, "Pushed.md"), []byte("pushed\n"), 0o644))
			_, err = wikiGit(t, rd, "add", ".")
			require.NoError(t, err)
			_, err = wikiGit(t, rd, "commit", "-q", "-m", "push a page")
			require.NoError(t, err)
			out, err := wikiGit(t, rd, "push", "-q", "origin", "main")
			require.Error(t, err)
			assert.Contains(t, out, "403")
			out, err = wikiGit(t, dir, "clone", "-q", e.gitURL("stranger", stranger, "alice", "proj.wiki"), "s")
			require.Error(t, err)
			assert.Contains(t, out, "not found")

			// The owner's push is a page of the API.
			_, err = wikiGit(t, rd, "push", "-q", e.gitURL("alice", alice, "alice", "proj.wiki"), "main")
			require.NoError(t, err)
			r := e.do(req{method: "GET", path: w + "/page/Pushed", token: alice})
			e.expect(r, 200, "")
			assert.Equal(t, "pushed\n", unb64(t, r.json(t)["content_base64"]))

			// A rename carries the wiki along; a deletion removes it.
			e.expect(e.do(req{method: "PATCH", path: "/api/v1/repos/alice/proj", token: alice, body: map[string]any{"name": "renamed"}}), 200, "")
			e.expect(e.do(req{method: "GET", path: "/api/v1/repos/alice/renamed/wiki/page/Home", token: alice}), 200, "")
			_, err = wikiGit(t, dir, "clone", "-q", e.gitURL("alice", alice, "alice", "renamed.wiki"), "after")
			require.NoError(t, err)
			wikis, _ := filepath.Glob(filepath.Join(e.gitDir, "*.wiki.git"))
			require.Len(t, wikis, 1)
			e.expect(e.do(req{method: "DELETE", path: "/api/v1/repos/alice/renamed", token: e.token("alice", "write:repository", "write:user")}), 204, "")
			_, err = os.Stat(wikis[0])
			assert.True(t, os.IsNotExist(err), "the wiki outlived its repository: %v", err)
		})
	}
}
