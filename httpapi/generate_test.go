package httpapi_test

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge/hooks"
	"github.com/hearthforge/hearth/forge/site"
	"github.com/hearthforge/hearth/httpapi"
	"github.com/hearthforge/hearth/issues"
)

// newGenerateEnv serves repositories, organisations, issues and hooks on
// one database, as a template's generation needs them all.
func newGenerateEnv(t *testing.T) *wikiEnv {
	t.Helper()
	b := newBase(t, ":memory:", testSecret)
	repoSvc, _ := b.repoService(t)
	orgSvc, _ := b.orgService(t, repoSvc)
	issueSvc, err := issues.New(issues.Config{Store: b.db.Issues(), Repos: repoSvc, Orgs: orgSvc,
		Search: site.IssueRepos{Repos: repoSvc}, Clock: b.clock, Blobs: b.blobs})
	require.NoError(t, err)
	hookSvc, err := hooks.New(hooks.Config{Store: b.db.Hooks(), Clock: b.clock, Repos: repoSvc, Orgs: orgSvc, Timeout: time.Second})
	require.NoError(t, err)
	return &wikiEnv{env: b.serve(t, httpapi.Config{Auth: b.auth, Repos: repoSvc, Git: b.git, Orgs: orgSvc, Issues: issueSvc, Hooks: hookSvc}),
		gitDir: b.gitDir}
}

// A repository generated from a template has one commit of the
// template's tree with its variables expanded, and the template's labels,
// topics and webhooks, as asked.
func TestGenerateFromTemplate(t *testing.T) {
	t.Parallel()
	e := newGenerateEnv(t)
	e.createUser("alice")
	e.createUser("bob")
	alice := e.token("alice", "write:repository", "write:user", "write:issue")
	bob := e.token("bob", "write:repository")
	e.createRepo(alice, "tmpl", map[string]any{"template": true, "description": "a template"})
	tp := "/api/v1/repos/alice/tmpl"
	for path, content := range map[string]string{
		"README.md":         "# $REPO_NAME\nby ${REPO_OWNER}, from $TEMPLATE_OWNER/$TEMPLATE_NAME: $REPO_DESCRIPTION\n",
		"src/$REPO_NAME.go": "package $REPO_NAME\n",
		"plain.txt":         "$REPO_NAME stays\n",
		".forgejo/template": "README.md\nsrc/*.go\n",
	} {
		e.expect(e.do(req{method: "POST", path: tp + "/contents/" + path, token: alice, body: map[string]any{"content": b64(content)}}), 201, "")
	}
	for _, l := range []map[string]any{{"name": "bug", "color": "#ff0000", "description": "broken"}, {"name": "kind/feature", "color": "#00ff00", "exclusive": true}} {
		e.expect(e.do(req{method: "POST", path: tp + "/labels", token: alice, body: l}), 201, "")
	}
	e.expect(e.do(req{method: "PUT", path: tp + "/topics", token: alice, body: map[string]any{"topics": []string{"go", "template"}}}), 204, "")
	e.expect(e.do(req{method: "POST", path: tp + "/hooks", token: alice, body: map[string]any{"type": "gitea", "active": false,
		"config": map[string]string{"url": "https://hooks.example/x", "content_type": "json"}}}), 201, "")

	r := e.do(req{method: "POST", path: tp + "/generate", token: alice, body: map[string]any{"owner": "alice", "name": "made",
		"description": "generated", "git_content": true, "labels": true, "topics": true, "webhooks": true}})
	e.expect(r, 201, "")
	made := r.json(t)
	assert.Equal(t, "alice/made", made["full_name"])
	assert.Equal(t, false, made["template"])
	assert.Equal(t, false, made["empty"])
	assert.Equal(t, []any{"go", "template"}, made["topics"])

	mp := "/api/v1/repos/alice/made"
	r = e.do(req{method: "GET", path: mp + "/labels", token: alice})
	e.expect(r, 200, "")
	var labels []string
	for _, l := range r.list(t) {
		labels = append(labels, l["name"].(string)+" "+l["color"].(string)+" "+l["description"].(string))
	}
	assert.ElementsMatch(t, []string{"bug ff0000 broken", "kind/feature 00ff00 "}, labels)
	r = e.do(req{method: "GET", path: mp + "/hooks", token: alice})
	e.expect(r, 200, "")
	require.Len(t, r.list(t), 1)
	assert.Equal(t, "https://hooks.example/x", r.list(t)[0]["config"].(map[string]any)["url"])

	dir := t.TempDir()
	_, err := wikiGit(t, dir, "clone", "-q", e.gitURL("alice", alice, "alice", "made"), "m")
	require.NoError(t, err)
	md := filepath.Join(dir, "m")
	log, _ := wikiGit(t, md, "log", "--format=%s|%an")
	assert.Equal(t, "Initial commit|alice", log, "one commit by the generator")
	files, _ := wikiGit(t, md, "ls-files")
	assert.ElementsMatch(t, []string{"README.md", "plain.txt", "src/made.go"}, splitLines(files), "the template file is left out, matched paths expanded")
	readme, _ := wikiGit(t, md, "show", "HEAD:README.md")
	assert.Equal(t, "# made\nby alice, from alice/tmpl: generated", readme)
	plain, _ := wikiGit(t, md, "show", "HEAD:plain.txt")
	assert.Equal(t, "$REPO_NAME stays", plain, "files no glob matches are copied as they are")

	// Refusals, each leaving nothing behind.
	gen := func(token string, body map[string]any) resp {
		return e.do(req{method: "POST", path: tp + "/generate", token: token, body: body})
	}
	e.expect(gen(alice, map[string]any{"owner": "alice", "name": "none"}), 422, "must select at least one template item")
	e.expect(gen(alice, map[string]any{"owner": "alice", "name": "made", "topics": true}), 409, "The repository with the same name already exists.")
	r = gen(alice, map[string]any{"owner": "nobody", "name": "x", "topics": true})
	e.expect(r, 404, "request owner `nobody` does not exist")
	e.expect(gen(alice, map[string]any{"owner": "bob", "name": "x", "topics": true}), 403, "Only admin can generate repository for other user.")
	e.expect(gen(alice, map[string]any{"name": "x", "topics": true}), 422, "[Owner]: Required")
	e.expect(gen(alice, map[string]any{"owner": "alice", "name": "bad name!", "topics": true}), 422, "")
	// bob may read the public template, and generate into his own account.
	e.expect(gen(bob, map[string]any{"owner": "bob", "name": "mine", "git_content": true}), 201, "")
	// ... but not take its webhooks, which hold its secrets: the new
	// repository is removed again.
	e.expect(gen(bob, map[string]any{"owner": "bob", "name": "hooked", "git_content": true, "webhooks": true}), 403, "")
	e.expect(e.do(req{method: "GET", path: "/api/v1/repos/bob/hooked", token: bob}), 404, "")
	// Not a template; a private template a stranger may not see.
	e.expect(e.do(req{method: "POST", path: "/api/v1/repos/alice/made/generate", token: alice, body: map[string]any{"owner": "alice", "name": "y", "topics": true}}),
		422, "this is not a template repo")
	e.expect(e.do(req{method: "PATCH", path: tp, token: alice, body: map[string]any{"private": true}}), 200, "")
	e.expect(gen(bob, map[string]any{"owner": "bob", "name": "z", "topics": true}), 404, "The target couldn't be found.")
	e.expect(gen("", map[string]any{"owner": "bob", "name": "z", "topics": true}), 401, "")
	e.expect(e.do(req{method: "GET", path: "/api/v1/repos/alice/none", token: alice}), 404, "")
	e.expect(e.do(req{method: "GET", path: "/api/v1/repos/bob/x", token: bob}), 404, "")
}

func splitLines(s string) []string { return strings.Split(s, "\n") }
