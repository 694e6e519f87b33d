package httpapi_test

import (
	"encoding/base64"
	"fmt"
	"net/http"
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/storage/gitstore"
)

// F1: a tag named like a branch never replaces the branch in a read. The
// API refuses to create such a tag (or such a branch), and one made by
// other means (here git itself, as a push would) is ignored by every read
// that names the branch or reads the default branch.
func TestTagNamedLikeBranchNeverShadowsIt(t *testing.T) {
	t.Parallel()
	var store *gitstore.Store
	e := newEnvWith(t, func(c *repos.Config) { store = c.Git.(*gitstore.Store) })
	e.createUser("alice")
	e.createUser("bob")
	alice, bob := e.token("alice", "all"), e.token("bob", "all")
	r := e.do(req{method: "POST", path: "/api/v1/user/repos", token: alice, body: map[string]any{"name": "pub", "auto_init": true}})
	e.expect(r, http.StatusCreated, "")
	repoID := int64(r.json(t)["id"].(float64))
	R := "/api/v1/repos/alice/pub"
	e.expect(e.do(req{method: "PUT", path: R + "/collaborators/bob", token: alice, body: map[string]any{"permission": "write"}}),
		http.StatusNoContent, "")
	e.expect(e.do(req{method: "POST", path: R + "/branches", token: bob, body: map[string]any{"new_branch_name": "web"}}), http.StatusCreated, "")
	e.expect(e.do(req{method: "POST", path: R + "/contents", token: bob, body: map[string]any{"branch": "web",
		"files": []map[string]any{{"operation": "create", "path": "EVIL.md", "content": base64.StdEncoding.EncodeToString([]byte("evil"))}}}}),
		http.StatusCreated, "")
	mainSHA := e.do(req{method: "GET", path: R + "/branches/main", token: bob}).json(t)["commit"].(map[string]any)["id"].(string)
	webSHA := e.do(req{method: "GET", path: R + "/branches/web", token: bob}).json(t)["commit"].(map[string]any)["id"].(string)
	require.NotEqual(t, mainSHA, webSHA)

	// The API refuses a tag a branch's name holds, and a branch a tag's.
	e.expect(e.do(req{method: "POST", path: R + "/tags", token: bob, body: map[string]any{"tag_name": "main", "target": "web"}}),
		http.StatusConflict, "The branch with the same name already exists.")
	e.expect(e.do(req{method: "POST", path: R + "/tags", token: bob, body: map[string]any{"tag_name": "t1", "target": "web"}}),
		http.StatusCreated, "")
	e.expect(e.do(req{method: "POST", path: R + "/branches", token: bob, body: map[string]any{"new_branch_name": "t1"}}),
		http.StatusConflict, "The branch with the same tag already exists.")

	// A tag "main" made behind the API's back (as a push may).
	out, err := exec.Command("git", "-C", store.Path(repoID), "update-ref", "refs/tags/main", webSHA).CombinedOutput()
	require.NoError(t, err, "%s", out)

	for _, ref := range []string{"", "?ref=main"} {
		e.expect(e.do(req{method: "GET", path: R + "/raw/EVIL.md" + ref}), http.StatusNotFound, "")
		e.expect(e.do(req{method: "GET", path: R + "/media/EVIL.md" + ref}), http.StatusNotFound, "")
		e.expect(e.do(req{method: "GET", path: R + "/contents/EVIL.md" + ref}), http.StatusNotFound, "")
		list := e.do(req{method: "GET", path: R + "/contents" + ref})
		e.expect(list, http.StatusOK, "")
		assert.NotContains(t, string(list.body), "EVIL.md")
	}
	commits := e.do(req{method: "GET", path: R + "/commits?limit=1"})
	e.expect(commits, http.StatusOK, "")
	assert.Equal(t, mainSHA, commits.list(t)[0]["sha"])
	commits = e.do(req{method: "GET", path: R + "/commits?limit=1&sha=main"})
	e.expect(commits, http.StatusOK, "")
	assert.Equal(t, mainSHA, commits.list(t)[0]["sha"])
	zip := e.do(req{method: "GET", path: R + "/archive/main.zip"})
	e.expect(zip, http.StatusOK, "")
	assert.NotContains(t, string(zip.body), "EVIL.md")
	tree := e.do(req{method: "GET", path: R + "/git/trees/main?recursive=true"})
	e.expect(tree, http.StatusOK, "")
	assert.NotContains(t, string(tree.body), "EVIL.md")
	e.expect(e.do(req{method: "GET", path: R + "/git/commits/main"}), http.StatusOK, "")
	assert.Equal(t, mainSHA, e.do(req{method: "GET", path: R + "/git/commits/main"}).json(t)["sha"])
	// A branch made from "main" starts at the branch, not the tag.
	b := e.do(req{method: "POST", path: R + "/branches", token: bob, body: map[string]any{"new_branch_name": "copy", "old_ref_name": "main"}})
	e.expect(b, http.StatusCreated, "")
	assert.Equal(t, mainSHA, b.json(t)["commit"].(map[string]any)["id"])

	// Tags and full ids still resolve; a short id only where Forgejo's
	// GetCommit takes one (commits API), not as a contents ref.
	e.expect(e.do(req{method: "GET", path: R + "/raw/EVIL.md?ref=t1"}), http.StatusOK, "")
	e.expect(e.do(req{method: "GET", path: R + "/raw/EVIL.md?ref=" + webSHA}), http.StatusOK, "")
	e.expect(e.do(req{method: "GET", path: R + "/raw/EVIL.md?ref=" + webSHA[:10]}), http.StatusNotFound, "")
	commits = e.do(req{method: "GET", path: R + fmt.Sprintf("/commits?limit=1&sha=%s", webSHA[:10])})
	e.expect(commits, http.StatusOK, "")
	assert.Equal(t, webSHA, commits.list(t)[0]["sha"])
	assert.True(t, strings.HasPrefix(webSHA, webSHA[:10]))
}
