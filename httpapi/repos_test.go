package httpapi_test

import (
	"encoding/base64"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// repoEnv is an env with user alice (token with all scopes) owning
// alice/proj, created with auto_init.
func repoEnv(t *testing.T, format string) (*env, string) {
	e := newEnv(t)
	e.createUser("alice")
	tok := e.token("alice", "all")
	r := e.do(req{method: "POST", path: "/api/v1/user/repos", token: tok, body: map[string]any{
		"name": "proj", "description": "a project", "auto_init": true, "gitignores": "Go", "license": "MIT",
		"object_format_name": format}})
	e.expect(r, http.StatusCreated, "")
	return e, tok
}

func TestRepositoryBasics(t *testing.T) {
	t.Parallel()
	for _, format := range []string{"sha1", "sha256"} {
		t.Run(format, func(t *testing.T) {
			t.Parallel()
			e, tok := repoEnv(t, format)
			hexLen := map[string]int{"sha1": 40, "sha256": 64}[format]

			r := e.do(req{method: "GET", path: "/api/v1/repos/alice/proj", token: tok})
			e.expect(r, http.StatusOK, "")
			repo := r.json(t)
			assert.Equal(t, "alice/proj", repo["full_name"])
			assert.Equal(t, format, repo["object_format_name"])
			assert.Equal(t, "main", repo["default_branch"])
			assert.Equal(t, false, repo["empty"])
			assert.Equal(t, e.srv.URL+"/alice/proj.git", repo["clone_url"])
			assert.Equal(t, map[string]any{"admin": true, "push": true, "pull": true}, repo["permissions"])

			r = e.do(req{method: "GET", path: "/api/v1/repos/alice/proj/contents", token: tok})
			e.expect(r, http.StatusOK, "")
			var names []string
			for _, c := range r.list(t) {
				names = append(names, c["name"].(string))
				assert.Len(t, c["sha"], hexLen)
			}
			assert.ElementsMatch(t, []string{".gitignore", "LICENSE", "README.md"}, names)

			r = e.do(req{method: "GET", path: "/api/v1/repos/alice/proj/contents/README.md", token: tok})
			e.expect(r, http.StatusOK, "")
			readme := r.json(t)
			content, _ := base64.StdEncoding.DecodeString(readme["content"].(string))
			assert.Equal(t, "# proj\n\na project\n", string(content))

			// Write through the contents API: a real commit.
			r = e.do(req{method: "POST", path: "/api/v1/repos/alice/proj/contents/docs/guide.md", token: tok,
				body: map[string]any{"content": base64.StdEncoding.EncodeToString([]byte("one\ntwo\n")), "message": "add guide"}})
			e.expect(r, http.StatusCreated, "")
			created := r.json(t)
			commitSHA := created["commit"].(map[string]any)["sha"].(string)
			assert.Len(t, commitSHA, hexLen)
			blobSHA := created["content"].(map[string]any)["sha"].(string)

			r = e.do(req{method: "POST", path: "/api/v1/repos/alice/proj/contents/docs/guide.md", token: tok,
				body: map[string]any{"content": "eA=="}})
			e.expect(r, http.StatusUnprocessableEntity, "repository file already exists [path: docs/guide.md]")
			r = e.do(req{method: "PUT", path: "/api/v1/repos/alice/proj/contents/docs/guide.md", token: tok,
				body: map[string]any{"content": "eA==", "sha": strings.Repeat("0", hexLen)}})
			e.expect(r, http.StatusUnprocessableEntity, "sha does not match [given: "+strings.Repeat("0", hexLen)+", expected: "+blobSHA+"]")
			r = e.do(req{method: "PUT", path: "/api/v1/repos/alice/proj/contents/docs/guide.md", token: tok,
				body: map[string]any{"content": base64.StdEncoding.EncodeToString([]byte("one\n2\nthree\n")), "sha": blobSHA, "message": "edit guide"}})
			e.expect(r, http.StatusOK, "")

			r = e.do(req{method: "GET", path: "/api/v1/repos/alice/proj/commits?limit=2", token: tok})
			e.expect(r, http.StatusOK, "")
			assert.Equal(t, "3", r.Header.Get("X-Total-Count"))
			assert.Equal(t, "true", r.Header.Get("X-HasMore"))
			commits := r.list(t)
			require.Len(t, commits, 2)
			assert.Equal(t, "edit guide", commits[0]["commit"].(map[string]any)["message"])
			assert.Equal(t, map[string]any{"total": 3.0, "additions": 2.0, "deletions": 1.0}, commits[0]["stats"])
			assert.Equal(t, []any{map[string]any{"filename": "docs/guide.md", "status": "modified"}}, commits[0]["files"])

			r = e.do(req{method: "GET", path: "/api/v1/repos/alice/proj/git/commits/" + commitSHA, token: tok})
			e.expect(r, http.StatusOK, "")
			tree := r.json(t)["commit"].(map[string]any)["tree"].(map[string]any)["sha"].(string)
			r = e.do(req{method: "GET", path: "/api/v1/repos/alice/proj/git/trees/" + tree + "?recursive=true", token: tok})
			e.expect(r, http.StatusOK, "")
			assert.EqualValues(t, 5, r.json(t)["total_count"])
			r = e.do(req{method: "GET", path: "/api/v1/repos/alice/proj/git/blobs/" + blobSHA, token: tok})
			e.expect(r, http.StatusOK, "")
			assert.Equal(t, base64.StdEncoding.EncodeToString([]byte("one\ntwo\n")), r.json(t)["content"])

			r = e.do(req{method: "GET", path: "/api/v1/repos/alice/proj/raw/docs/guide.md", token: tok})
			require.Equal(t, http.StatusOK, r.StatusCode)
			assert.Equal(t, "one\n2\nthree\n", string(r.body))
			r = e.do(req{method: "GET", path: "/api/v1/repos/alice/proj/archive/main.zip", token: tok})
			require.Equal(t, http.StatusOK, r.StatusCode)
			assert.Equal(t, "PK", string(r.body[:2]))

			r = e.do(req{method: "POST", path: "/api/v1/repos/alice/proj/branches", token: tok, body: map[string]any{"new_branch_name": "feature/x"}})
			e.expect(r, http.StatusCreated, "")
			r = e.do(req{method: "GET", path: "/api/v1/repos/alice/proj/branches/feature/x", token: tok})
			e.expect(r, http.StatusOK, "")
			assert.Equal(t, "feature/x", r.json(t)["name"])
			r = e.do(req{method: "GET", path: "/api/v1/repos/alice/proj/git/refs/heads", token: tok})
			e.expect(r, http.StatusOK, "")
			assert.Len(t, r.list(t), 2)
			e.expect(e.do(req{method: "DELETE", path: "/api/v1/repos/alice/proj/branches/feature/x", token: tok}), http.StatusNoContent, "")
			e.expect(e.do(req{method: "DELETE", path: "/api/v1/repos/alice/proj/branches/main", token: tok}), http.StatusForbidden, "can not delete default branch")
		})
	}
}

func TestRepositoryVisibilityAndErrors(t *testing.T) {
	t.Parallel()
	e, tok := repoEnv(t, "")
	e.createUser("bob")
	bobTok := e.token("bob", "all")

	r := e.do(req{method: "POST", path: "/api/v1/user/repos", token: tok, body: map[string]any{"name": "proj"}})
	e.expect(r, http.StatusConflict, "The repository with the same name already exists.")
	for name, body := range map[string]map[string]any{
		"bad name":   {"name": "a b"},
		"reserved":   {"name": "x.git"},
		"bad format": {"name": "x", "object_format_name": "md5"},
	} {
		r := e.do(req{method: "POST", path: "/api/v1/user/repos", token: tok, body: body})
		assert.Equal(t, http.StatusUnprocessableEntity, r.StatusCode, name)
	}
	e.expect(e.do(req{method: "POST", path: "/api/v1/user/repos", token: tok, body: map[string]any{"name": "secret", "private": true}}), http.StatusCreated, "")

	r = e.do(req{method: "GET", path: "/api/v1/repos/alice/secret", token: bobTok})
	e.expect(r, http.StatusNotFound, "The target couldn't be found.")
	r = e.do(req{method: "GET", path: "/api/v1/repos/nobody/secret"})
	e.expect(r, http.StatusNotFound, "GetUserByName")
	assert.Equal(t, []any{"user redirect does not exist [name: nobody]"}, r.json(t)["errors"])

	r = e.do(req{method: "PATCH", path: "/api/v1/repos/alice/proj", token: bobTok, body: map[string]any{"description": "x"}})
	e.expect(r, http.StatusForbidden, "user should be an owner or a collaborator with admin write of a repository")
	r = e.do(req{method: "DELETE", path: "/api/v1/repos/alice/proj", token: bobTok})
	e.expect(r, http.StatusForbidden, "user should be the owner of the repo")

	// Listing shows the private repository to its owner only.
	r = e.do(req{method: "GET", path: "/api/v1/users/alice/repos", token: bobTok})
	assert.Len(t, r.list(t), 1)
	r = e.do(req{method: "GET", path: "/api/v1/user/repos", token: tok})
	assert.Len(t, r.list(t), 2)
	r = e.do(req{method: "GET", path: "/api/v1/repos/search?q=pro", token: bobTok})
	e.expect(r, http.StatusOK, "")
	assert.Equal(t, true, r.json(t)["ok"])
	assert.Len(t, r.json(t)["data"], 1)

	// Collaborators gain access.
	e.expect(e.do(req{method: "PUT", path: "/api/v1/repos/alice/secret/collaborators/bob", token: tok, body: map[string]any{"permission": "write"}}), http.StatusNoContent, "")
	r = e.do(req{method: "GET", path: "/api/v1/repos/alice/secret", token: bobTok})
	e.expect(r, http.StatusOK, "")
	assert.Equal(t, map[string]any{"admin": false, "push": true, "pull": true}, r.json(t)["permissions"])
	r = e.do(req{method: "GET", path: "/api/v1/repos/alice/secret/collaborators/bob/permission", token: tok})
	e.expect(r, http.StatusOK, "")
	assert.Equal(t, "write", r.json(t)["permission"])
	e.expect(e.do(req{method: "GET", path: "/api/v1/repos/alice/secret/collaborators/bob", token: tok}), http.StatusNoContent, "")
	r = e.do(req{method: "GET", path: "/api/v1/repos/alice/secret/collaborators", token: tok})
	assert.Len(t, r.list(t), 1)
	e.expect(e.do(req{method: "DELETE", path: "/api/v1/repos/alice/secret/collaborators/bob", token: tok}), http.StatusNoContent, "")
	e.expect(e.do(req{method: "GET", path: "/api/v1/repos/alice/secret", token: bobTok}), http.StatusNotFound, "")

	// The owner's account cannot be deleted while it owns repositories.
	r = e.do(req{method: "DELETE", path: "/api/v1/admin/users/alice", user: "root", pass: "rootpassword"})
	e.expect(r, http.StatusUnprocessableEntity, "user still has ownership of repositories [uid: 2]")
	e.expect(e.do(req{method: "DELETE", path: "/api/v1/repos/alice/secret", token: tok}), http.StatusNoContent, "")
	e.expect(e.do(req{method: "GET", path: "/api/v1/repos/alice/secret", token: tok}), http.StatusNotFound, "")
}

// TestEditRepoEachField sends every EditRepoOption field alone and checks
// that it changes exactly that field.
func TestEditRepoEachField(t *testing.T) {
	t.Parallel()
	e, tok := repoEnv(t, "")
	get := func() map[string]any {
		r := e.do(req{method: "GET", path: "/api/v1/repos/alice/proj", token: tok})
		e.expect(r, http.StatusOK, "")
		m := r.json(t)
		delete(m, "updated_at")
		return m
	}
	tests := []struct {
		field string
		value any
		// check names the response field that shows it, and its value;
		// "" for fields Forgejo accepts but does not return.
		check string
		want  any
	}{
		{"internal_tracker", map[string]any{"enable_time_tracker": false, "allow_only_contributors_to_track_time": false, "enable_issue_dependencies": true},
			"internal_tracker", map[string]any{"enable_time_tracker": false, "allow_only_contributors_to_track_time": false, "enable_issue_dependencies": true}},
		{"external_wiki", map[string]any{"external_wiki_url": "https://wiki.example.com"}, "external_wiki", map[string]any{"external_wiki_url": "https://wiki.example.com"}},
		{"description", "new description", "description", "new description"},
		{"website", "https://example.com", "website", "https://example.com"},
		{"private", true, "private", true},
		{"template", true, "template", true},
		{"has_issues", false, "has_issues", false},
		{"has_wiki", false, "has_wiki", false},
		{"globally_editable_wiki", true, "globally_editable_wiki", true},
		{"has_pull_requests", false, "has_pull_requests", false},
		{"has_projects", false, "has_projects", false},
		{"has_releases", false, "has_releases", false},
		{"has_packages", false, "has_packages", false},
		{"has_actions", true, "has_actions", true},
		{"ignore_whitespace_conflicts", true, "ignore_whitespace_conflicts", true},
		{"allow_merge_commits", false, "allow_merge_commits", false},
		{"allow_rebase", false, "allow_rebase", false},
		{"allow_rebase_explicit", false, "allow_rebase_explicit", false},
		{"allow_squash_merge", false, "allow_squash_merge", false},
		{"allow_fast_forward_only_merge", false, "allow_fast_forward_only_merge", false},
		{"allow_rebase_update", false, "allow_rebase_update", false},
		{"default_delete_branch_after_merge", true, "default_delete_branch_after_merge", true},
		{"default_merge_style", "squash", "default_merge_style", "squash"},
		{"default_update_style", "rebase", "default_update_style", "rebase"},
		{"default_allow_maintainer_edit", true, "default_allow_maintainer_edit", true},
		{"wiki_branch", "wiki", "wiki_branch", "wiki"},
		{"allow_manual_merge", true, "", nil},
		{"autodetect_manual_merge", true, "", nil},
		{"mirror_interval", "1h", "", nil}, // not a mirror: ignored, as Forgejo
		{"enable_prune", false, "", nil},   // not a mirror: ignored, as Forgejo
		{"default_branch", "main", "default_branch", "main"},
		{"archived", true, "archived", true},
		{"name", "renamed", "name", "renamed"},
	}
	name := "proj"
	for _, tt := range tests {
		before := get()
		r := e.do(req{method: "PATCH", path: "/api/v1/repos/alice/" + name, token: tok, body: map[string]any{tt.field: tt.value}})
		e.expect(r, http.StatusOK, "")
		if tt.field == "name" {
			name = "renamed"
		}
		after := e.do(req{method: "GET", path: "/api/v1/repos/alice/" + name, token: tok}).json(t)
		delete(after, "updated_at")
		if tt.check != "" {
			assert.Equal(t, tt.want, after[tt.check], tt.field)
		}
		for k := range before {
			if k == tt.check || (tt.field == "archived" && k == "archived_at") ||
				(tt.field == "has_issues" && (k == "internal_tracker" || k == "external_tracker")) ||
				(tt.field == "has_wiki" && k == "external_wiki") ||
				(tt.field == "name" && strings.Contains(k, "url") || tt.field == "name" && k == "full_name") {
				continue
			}
			assert.Equal(t, before[k], after[k], "PATCH %s alone changed %s", tt.field, k)
		}
	}
	// Archived: writes are refused with 423 and Forgejo's message.
	r := e.do(req{method: "POST", path: "/api/v1/repos/alice/renamed/contents/x.txt", token: tok, body: map[string]any{"content": "eA=="}})
	e.expect(r, http.StatusLocked, "")
	assert.Regexp(t, `^<Repository \d+:alice/renamed> is archived$`, r.json(t)["message"])

	for _, bad := range []map[string]any{
		{"default_merge_style": "yolo"}, {"external_tracker": map[string]any{"external_tracker_url": "nope"}},
		{"mirror_interval": "soon"}, {"name": "bad name"},
	} {
		r := e.do(req{method: "PATCH", path: "/api/v1/repos/alice/renamed", token: tok, body: bad})
		assert.Equal(t, http.StatusUnprocessableEntity, r.StatusCode, "%v: %s", bad, r.body)
	}
}

func TestRepositorySocial(t *testing.T) {
	t.Parallel()
	e, tok := repoEnv(t, "")
	e.createUser("carl")
	carl := e.token("carl", "all")

	r := e.do(req{method: "GET", path: "/api/v1/repos/alice/proj/subscription", token: carl})
	e.expect(r, http.StatusNotFound, "")
	r = e.do(req{method: "GET", path: "/api/v1/repos/alice/proj/subscription"})
	e.expect(r, http.StatusUnauthorized, "token is required")
	r = e.do(req{method: "PUT", path: "/api/v1/repos/alice/proj/subscription", token: carl})
	e.expect(r, http.StatusOK, "")
	w := r.json(t)
	assert.Equal(t, true, w["subscribed"])
	assert.Equal(t, e.srv.URL+"/api/v1/repos/alice/proj", w["repository_url"])
	e.expect(e.do(req{method: "GET", path: "/api/v1/repos/alice/proj/subscription", token: carl}), http.StatusOK, "")
	r = e.do(req{method: "GET", path: "/api/v1/repos/alice/proj/subscribers"})
	assert.Len(t, r.list(t), 2, "the creator watches from the start, as in Forgejo")
	assert.EqualValues(t, 2, e.do(req{method: "GET", path: "/api/v1/repos/alice/proj"}).json(t)["watchers_count"])
	e.expect(e.do(req{method: "DELETE", path: "/api/v1/repos/alice/proj/subscription", token: carl}), http.StatusNoContent, "")
	e.expect(e.do(req{method: "DELETE", path: "/api/v1/repos/alice/proj/subscription", token: carl}), http.StatusNoContent, "")

	e.expect(e.do(req{method: "GET", path: "/api/v1/user/starred/alice/proj", token: carl}), http.StatusNotFound, "")
	e.expect(e.do(req{method: "PUT", path: "/api/v1/user/starred/alice/proj", token: carl}), http.StatusNoContent, "")
	e.expect(e.do(req{method: "GET", path: "/api/v1/user/starred/alice/proj", token: carl}), http.StatusNoContent, "")
	assert.Len(t, e.do(req{method: "GET", path: "/api/v1/user/starred", token: carl}).list(t), 1)
	assert.Len(t, e.do(req{method: "GET", path: "/api/v1/repos/alice/proj/stargazers"}).list(t), 1)
	assert.EqualValues(t, 1, e.do(req{method: "GET", path: "/api/v1/repos/alice/proj"}).json(t)["stars_count"])
	e.expect(e.do(req{method: "DELETE", path: "/api/v1/user/starred/alice/proj", token: carl}), http.StatusNoContent, "")

	e.expect(e.do(req{method: "PUT", path: "/api/v1/repos/alice/proj/topics", token: tok, body: map[string]any{"topics": []string{"Go", "forge", "go"}}}), http.StatusNoContent, "")
	e.expect(e.do(req{method: "PUT", path: "/api/v1/repos/alice/proj/topics/cli", token: tok}), http.StatusNoContent, "")
	r = e.do(req{method: "GET", path: "/api/v1/repos/alice/proj/topics"})
	assert.Equal(t, map[string]any{"topics": []any{"cli", "forge", "go"}}, r.json(t))
	r = e.do(req{method: "PUT", path: "/api/v1/repos/alice/proj/topics", token: tok, body: map[string]any{"topics": []string{"bad topic!"}}})
	e.expect(r, http.StatusUnprocessableEntity, "Topic names are invalid")
	assert.Equal(t, []any{"bad topic!"}, r.json(t)["invalidTopics"])
	e.expect(e.do(req{method: "DELETE", path: "/api/v1/repos/alice/proj/topics/cli", token: tok}), http.StatusNoContent, "")
	e.expect(e.do(req{method: "PUT", path: "/api/v1/repos/alice/proj/topics/x", token: carl}), http.StatusForbidden, "")
}

func TestBranchProtectionAPI(t *testing.T) {
	t.Parallel()
	e, tok := repoEnv(t, "")
	e.createUser("dana")
	base := "/api/v1/repos/alice/proj/branch_protections"
	r := e.do(req{method: "POST", path: base, token: tok, body: map[string]any{
		"rule_name": "main", "enable_push": true, "enable_push_whitelist": true, "push_whitelist_usernames": []string{"dana"},
		"required_approvals": 2, "dismiss_stale_approvals": true, "ignore_stale_approvals": true,
		"enable_status_check": true, "status_check_contexts": []string{"ci"}}})
	e.expect(r, http.StatusCreated, "")
	p := r.json(t)
	assert.Equal(t, "main", p["branch_name"])
	assert.EqualValues(t, 2, p["required_approvals"])
	assert.Equal(t, true, p["dismiss_stale_approvals"])
	assert.Equal(t, true, p["ignore_stale_approvals"])

	e.expect(e.do(req{method: "POST", path: base, token: tok, body: map[string]any{"rule_name": "main"}}), http.StatusForbidden, "Branch protection already exist")
	e.expect(e.do(req{method: "POST", path: base, token: tok, body: map[string]any{}}), http.StatusBadRequest, "both rule_name and branch_name are empty")
	e.expect(e.do(req{method: "POST", path: base, token: tok, body: map[string]any{"rule_name": "x", "push_whitelist_usernames": []string{"ghost2"}}}),
		http.StatusUnprocessableEntity, "User does not exist")
	r = e.do(req{method: "POST", path: base, token: tok, body: map[string]any{"rule_name": "release/*", "required_approvals": -3}})
	e.expect(r, http.StatusCreated, "")
	assert.Equal(t, "", r.json(t)["branch_name"], "patterns have no branch_name")
	assert.EqualValues(t, 0, r.json(t)["required_approvals"])

	r = e.do(req{method: "PATCH", path: base + "/main", token: tok, body: map[string]any{"required_approvals": 1, "ignore_stale_approvals": false}})
	e.expect(r, http.StatusOK, "")
	assert.EqualValues(t, 1, r.json(t)["required_approvals"])
	assert.Equal(t, false, r.json(t)["ignore_stale_approvals"])
	assert.Equal(t, true, r.json(t)["dismiss_stale_approvals"], "fields not sent stay")
	assert.Len(t, e.do(req{method: "GET", path: base, token: tok}).list(t), 2)

	r = e.do(req{method: "GET", path: "/api/v1/repos/alice/proj/branches/main", token: tok})
	assert.Equal(t, true, r.json(t)["protected"])
	assert.Equal(t, false, r.json(t)["user_can_push"], "alice is not on the push whitelist")
	r = e.do(req{method: "POST", path: "/api/v1/repos/alice/proj/contents/y.txt", token: tok, body: map[string]any{"content": "eA=="}})
	e.expect(r, http.StatusForbidden, "user should have a permission to write to this branch")

	e.expect(e.do(req{method: "DELETE", path: base + "/main", token: tok}), http.StatusNoContent, "")
	e.expect(e.do(req{method: "GET", path: base + "/main", token: tok}), http.StatusNotFound, "")
	e.expect(e.do(req{method: "POST", path: "/api/v1/repos/alice/proj/contents/y.txt", token: tok, body: map[string]any{"content": "eA=="}}), http.StatusCreated, "")
}

func TestTagsStatusesLanguages(t *testing.T) {
	t.Parallel()
	e, tok := repoEnv(t, "sha256")
	r := e.do(req{method: "POST", path: "/api/v1/repos/alice/proj/contents/main.go", token: tok,
		body: map[string]any{"content": base64.StdEncoding.EncodeToString([]byte("package main\n"))}})
	e.expect(r, http.StatusCreated, "")
	head := r.json(t)["commit"].(map[string]any)["sha"].(string)

	r = e.do(req{method: "POST", path: "/api/v1/repos/alice/proj/tags", token: tok, body: map[string]any{"tag_name": "v1.0", "message": "first release"}})
	e.expect(r, http.StatusCreated, "")
	tag := r.json(t)
	assert.Equal(t, head, tag["commit"].(map[string]any)["sha"])
	assert.NotEqual(t, head, tag["id"], "an annotated tag has its own object")
	r = e.do(req{method: "GET", path: "/api/v1/repos/alice/proj/git/tags/" + tag["id"].(string), token: tok})
	e.expect(r, http.StatusOK, "")
	assert.Equal(t, "v1.0", r.json(t)["tag"])
	assert.Equal(t, "first release\n", r.json(t)["message"])
	assert.Equal(t, head, r.json(t)["object"].(map[string]any)["sha"])
	e.expect(e.do(req{method: "POST", path: "/api/v1/repos/alice/proj/tags", token: tok, body: map[string]any{"tag_name": "v1.0"}}),
		http.StatusConflict, "tag v1.0 already exists")
	e.expect(e.do(req{method: "POST", path: "/api/v1/repos/alice/proj/tags", token: tok, body: map[string]any{"tag_name": "light"}}), http.StatusCreated, "")
	r = e.do(req{method: "GET", path: "/api/v1/repos/alice/proj/tags/light"})
	e.expect(r, http.StatusOK, "")
	assert.Equal(t, head, r.json(t)["id"], "a lightweight tag points at the commit")
	assert.Len(t, e.do(req{method: "GET", path: "/api/v1/repos/alice/proj/tags"}).list(t), 2)
	e.expect(e.do(req{method: "DELETE", path: "/api/v1/repos/alice/proj/tags/light", token: tok}), http.StatusNoContent, "")
	e.expect(e.do(req{method: "GET", path: "/api/v1/repos/alice/proj/tags/light"}), http.StatusNotFound, "")

	for _, st := range []map[string]any{
		{"state": "pending", "context": "ci/build"}, {"state": "success", "context": "ci/build"}, {"state": "failure", "context": "ci/lint", "target_url": "https://ci.example/1"},
	} {
		e.expect(e.do(req{method: "POST", path: "/api/v1/repos/alice/proj/statuses/" + head, token: tok, body: st}), http.StatusCreated, "")
	}
	e.expect(e.do(req{method: "POST", path: "/api/v1/repos/alice/proj/statuses/" + head, token: tok, body: map[string]any{"state": "great"}}),
		http.StatusBadRequest, `invalid commit status state "great"`)
	r = e.do(req{method: "GET", path: "/api/v1/repos/alice/proj/commits/main/status"})
	e.expect(r, http.StatusOK, "")
	combined := r.json(t)
	assert.Equal(t, "failure", combined["state"], "the worst of the latest per context")
	assert.EqualValues(t, 2, combined["total_count"])
	r = e.do(req{method: "GET", path: "/api/v1/repos/alice/proj/statuses/" + head + "?state=success"})
	assert.Len(t, r.list(t), 1)
	r = e.do(req{method: "GET", path: "/api/v1/repos/alice/proj/commits/v1.0/statuses"})
	assert.Equal(t, "3", r.Header.Get("X-Total-Count"))
	assert.Equal(t, "alice", r.list(t)[0]["creator"].(map[string]any)["login"])

	r = e.do(req{method: "GET", path: "/api/v1/repos/alice/proj/languages"})
	e.expect(r, http.StatusOK, "")
	assert.Equal(t, map[string]any{"Go": 13.0}, r.json(t))
}

func TestChangeFilesRenameBranchDiff(t *testing.T) {
	t.Parallel()
	e, tok := repoEnv(t, "")
	r := e.do(req{method: "GET", path: "/api/v1/repos/alice/proj/contents/README.md", token: tok})
	readmeSHA := r.json(t)["sha"].(string)
	r = e.do(req{method: "POST", path: "/api/v1/repos/alice/proj/contents", token: tok, body: map[string]any{
		"message": "many", "new_branch": "many",
		"files": []map[string]any{
			{"operation": "create", "path": "a/one.txt", "content": base64.StdEncoding.EncodeToString([]byte("1\n"))},
			{"operation": "update", "path": "README.md", "sha": readmeSHA, "content": base64.StdEncoding.EncodeToString([]byte("new\n"))},
			{"operation": "delete", "path": "LICENSE", "sha": e.do(req{method: "GET", path: "/api/v1/repos/alice/proj/contents/LICENSE", token: tok}).json(t)["sha"]},
		}}})
	e.expect(r, http.StatusCreated, "")
	files := r.json(t)["files"].([]any)
	require.Len(t, files, 3)
	assert.Nil(t, files[2], "deleted files answer null")
	sha := r.json(t)["commit"].(map[string]any)["sha"].(string)

	r = e.do(req{method: "GET", path: "/api/v1/repos/alice/proj/git/commits/" + sha + ".diff", token: tok})
	require.Equal(t, http.StatusOK, r.StatusCode)
	assert.Contains(t, string(r.body), "+++ b/a/one.txt")
	assert.Contains(t, string(r.body), "deleted file mode")
	r = e.do(req{method: "GET", path: "/api/v1/repos/alice/proj/git/commits/" + sha + ".patch", token: tok})
	require.Equal(t, http.StatusOK, r.StatusCode)
	assert.Contains(t, string(r.body), "Subject: [PATCH] many")
	e.expect(e.do(req{method: "GET", path: "/api/v1/repos/alice/proj/git/commits/" + sha + ".zip", token: tok}), http.StatusNotFound, "")

	e.expect(e.do(req{method: "PATCH", path: "/api/v1/repos/alice/proj/branches/many", token: tok, body: map[string]any{"name": "main"}}),
		http.StatusUnprocessableEntity, "branch already exists [name: main]")
	e.expect(e.do(req{method: "PATCH", path: "/api/v1/repos/alice/proj/branches/main", token: tok, body: map[string]any{"name": "trunk"}}), http.StatusNoContent, "")
	assert.Equal(t, "trunk", e.do(req{method: "GET", path: "/api/v1/repos/alice/proj", token: tok}).json(t)["default_branch"],
		"renaming the default branch renames the setting")

	e.expect(e.do(req{method: "PUT", path: "/api/v1/repos/alice/proj/subscription", token: tok}), http.StatusOK, "")
	e.expect(e.do(req{method: "PUT", path: "/api/v1/user/starred/alice/proj", token: tok}), http.StatusNoContent, "")
	assert.Len(t, e.do(req{method: "GET", path: "/api/v1/user/subscriptions", token: tok}).list(t), 1)
	assert.Len(t, e.do(req{method: "GET", path: "/api/v1/users/alice/starred", token: tok}).list(t), 1)
	assert.Len(t, e.do(req{method: "GET", path: "/api/v1/users/alice/subscriptions", token: tok}).list(t), 1)
}

func TestTransferForkTagProtection(t *testing.T) {
	t.Parallel()
	e, tok := repoEnv(t, "")
	e.createUser("fay")
	fay := e.token("fay", "all")

	// A transfer to another user waits for the recipient.
	r := e.do(req{method: "POST", path: "/api/v1/repos/alice/proj/transfer", token: tok, body: map[string]any{"new_owner": "fay"}})
	e.expect(r, http.StatusCreated, "")
	pending := r.json(t)["repo_transfer"].(map[string]any)
	assert.Equal(t, "fay", pending["recipient"].(map[string]any)["login"])
	assert.Equal(t, "alice", r.json(t)["owner"].(map[string]any)["login"])
	e.expect(e.do(req{method: "POST", path: "/api/v1/repos/alice/proj/transfer", token: fay, body: map[string]any{"new_owner": "fay"}}),
		http.StatusForbidden, "user should be the owner of the repo")
	e.expect(e.do(req{method: "POST", path: "/api/v1/repos/alice/proj/transfer/accept", token: tok}), http.StatusForbidden, "")
	r = e.do(req{method: "POST", path: "/api/v1/repos/alice/proj/transfer/accept", token: fay})
	e.expect(r, http.StatusAccepted, "")
	assert.Equal(t, "fay/proj", r.json(t)["full_name"])
	assert.Nil(t, r.json(t)["repo_transfer"])
	e.expect(e.do(req{method: "GET", path: "/api/v1/repos/alice/proj", token: tok}), http.StatusNotFound, "")
	e.expect(e.do(req{method: "GET", path: "/api/v1/repos/fay/proj/contents/README.md"}), http.StatusOK, "")

	// Alice forks it back.
	r = e.do(req{method: "POST", path: "/api/v1/repos/fay/proj/forks", token: tok, body: map[string]any{"name": "proj-fork"}})
	e.expect(r, http.StatusAccepted, "")
	fork := r.json(t)
	assert.Equal(t, true, fork["fork"])
	assert.Equal(t, "fay/proj", fork["parent"].(map[string]any)["full_name"])
	assert.Equal(t, false, fork["empty"])
	e.expect(e.do(req{method: "GET", path: "/api/v1/repos/alice/proj-fork/contents/README.md"}), http.StatusOK, "")
	e.expect(e.do(req{method: "POST", path: "/api/v1/repos/fay/proj/forks", token: tok, body: map[string]any{"name": "again"}}), http.StatusConflict, "")
	assert.Len(t, e.do(req{method: "GET", path: "/api/v1/repos/fay/proj/forks"}).list(t), 1)
	assert.EqualValues(t, 1, e.do(req{method: "GET", path: "/api/v1/repos/fay/proj"}).json(t)["forks_count"])

	// Tag protection: only whitelisted users create matching tags.
	r = e.do(req{method: "POST", path: "/api/v1/repos/fay/proj/tag_protections", token: fay,
		body: map[string]any{"name_pattern": "v*", "whitelist_usernames": []string{"fay"}}})
	e.expect(r, http.StatusCreated, "")
	id := itoa(r.json(t)["id"])
	e.expect(e.do(req{method: "PUT", path: "/api/v1/repos/fay/proj/collaborators/alice", token: fay, body: map[string]any{"permission": "write"}}), http.StatusNoContent, "")
	e.expect(e.do(req{method: "POST", path: "/api/v1/repos/fay/proj/tags", token: tok, body: map[string]any{"tag_name": "v1"}}),
		http.StatusUnprocessableEntity, "user not allowed to create protected tag")
	e.expect(e.do(req{method: "POST", path: "/api/v1/repos/fay/proj/tags", token: tok, body: map[string]any{"tag_name": "nightly"}}), http.StatusCreated, "")
	e.expect(e.do(req{method: "POST", path: "/api/v1/repos/fay/proj/tags", token: fay, body: map[string]any{"tag_name": "v1"}}), http.StatusCreated, "")
	r = e.do(req{method: "PATCH", path: "/api/v1/repos/fay/proj/tag_protections/" + id, token: fay, body: map[string]any{"whitelist_usernames": []string{"fay", "alice"}}})
	e.expect(r, http.StatusOK, "")
	assert.Equal(t, []any{"fay", "alice"}, r.json(t)["whitelist_usernames"])
	e.expect(e.do(req{method: "DELETE", path: "/api/v1/repos/fay/proj/tags/v1", token: tok}), http.StatusNoContent, "")
	e.expect(e.do(req{method: "DELETE", path: "/api/v1/repos/fay/proj/tag_protections/" + id, token: fay}), http.StatusNoContent, "")
	assert.Empty(t, e.do(req{method: "GET", path: "/api/v1/repos/fay/proj/tag_protections", token: fay}).list(t))
}

func TestRepoAvatar(t *testing.T) {
	t.Parallel()
	e, tok := repoEnv(t, "")
	gif := "R0lGODlhAQABAIAAAP///wAAACwAAAAAAQABAAACAkQBADs="
	e.expect(e.do(req{method: "POST", path: "/api/v1/repos/alice/proj/avatar", token: tok, body: map[string]any{"image": gif}}), http.StatusNoContent, "")
	url := e.do(req{method: "GET", path: "/api/v1/repos/alice/proj"}).json(t)["avatar_url"].(string)
	require.True(t, strings.HasPrefix(url, e.srv.URL+"/repo-avatars/"), url)
	res, err := http.Get(url)
	require.NoError(t, err)
	res.Body.Close()
	assert.Equal(t, http.StatusOK, res.StatusCode)
	assert.Equal(t, "image/gif", res.Header.Get("Content-Type"))
	e.expect(e.do(req{method: "POST", path: "/api/v1/repos/alice/proj/avatar", token: tok,
		body: map[string]any{"image": base64.StdEncoding.EncodeToString([]byte("not an image"))}}), http.StatusUnprocessableEntity, "")
	e.expect(e.do(req{method: "DELETE", path: "/api/v1/repos/alice/proj/avatar", token: tok}), http.StatusNoContent, "")
	assert.Equal(t, "", e.do(req{method: "GET", path: "/api/v1/repos/alice/proj"}).json(t)["avatar_url"])
	res, err = http.Get(url)
	require.NoError(t, err)
	res.Body.Close()
	assert.Equal(t, http.StatusNotFound, res.StatusCode)
}
