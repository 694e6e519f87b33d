package httpapi_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/quota"
)

var quotaOn = quota.Config{Enabled: true}

// TestQuotaDisabled: with [quota] ENABLED=false the quota routes do not
// exist (404, before authentication rules), and nothing is enforced.
func TestQuotaDisabled(t *testing.T) {
	t.Parallel()
	e := newQuotaEnv(t, quota.Config{DefaultTotal: 1})
	for _, p := range []string{"/user/quota", "/user/quota/check?subject=size:all", "/orgs/x/quota", "/admin/quota/rules", "/admin/users/alice/quota"} {
		e.expect(e.do(req{method: "GET", path: "/api/v1" + p, token: e.alice}), 404, "The target couldn't be found.")
		e.expect(e.do(req{method: "GET", path: "/api/v1" + p}), 404, "")
	}
	e.expect(e.do(req{method: "POST", path: "/api/v1/admin/quota/rules", token: e.root, body: map[string]any{"name": "r", "limit": 1}}), 404, "")
	n := e.newIssue(e.alice, "files")
	e.expect(e.upload(e.alice, e.issuePath(n, "/assets"), "a.txt", "hello", nil), 201, "")
}

// TestQuotaUserAPI covers /user/quota* and the user's view: names hidden,
// the built-in group never shown, check answering Forgejo's evaluation.
func TestQuotaUserAPI(t *testing.T) {
	t.Parallel()
	e := newQuotaEnv(t, quota.Config{Enabled: true, DefaultTotal: 1 << 30})
	r := e.send(e.alice, "GET", "/api/v1/user/quota", nil, 200)
	info := r.json(t)
	assert.Equal(t, []any{}, info["groups"], "the built-in default is never shown")
	used := info["used"].(map[string]any)["size"].(map[string]any)
	assert.Greater(t, used["repos"].(map[string]any)["public"].(float64), float64(0), "alice/proj's git size")
	assert.Contains(t, used["git"], "LFS")
	check := func(tok, subject string, want string) {
		t.Helper()
		r := e.do(req{method: "GET", path: "/api/v1/user/quota/check?subject=" + subject, token: tok})
		require.Equal(t, 200, r.StatusCode, "%s", r.body)
		assert.Equal(t, want, strings.TrimSpace(string(r.body)), subject)
	}
	check(e.alice, "size:all", "true")
	check(e.alice, "none", "false")
	e.expect(e.do(req{method: "GET", path: "/api/v1/user/quota/check", token: e.alice}), 422, "unrecognized quota limit subject: [subject: ]")
	e.expect(e.do(req{method: "GET", path: "/api/v1/user/quota/check?subject=size:nope", token: e.alice}), 422,
		"unrecognized quota limit subject: [subject: size:nope]")
	e.expect(e.do(req{method: "GET", path: "/api/v1/user/quota"}), 401, "token is required")
	e.expect(e.do(req{method: "GET", path: "/api/v1/user/quota", token: e.token("alice", "read:repository")}), 403,
		"token does not have at least one of required scope(s): [read:user]")

	// Groups: alice's explicit group replaces the default; names hidden
	// to her, shown to the administrator.
	e.admin("POST", "/groups", map[string]any{"name": "small", "rules": []map[string]any{
		{"name": "git", "limit": 1, "subjects": []string{"size:git:all"}},
		{"name": "assets", "limit": -1, "subjects": []string{"size:assets:all"}},
	}}, 201)
	e.send(e.root, "PUT", "/api/v1/admin/quota/groups/small/users/alice", nil, 204)
	info = e.send(e.alice, "GET", "/api/v1/user/quota", nil, 200).json(t)
	assert.Equal(t, []any{map[string]any{"rules": []any{
		map[string]any{"limit": float64(-1), "subjects": []any{"size:assets:all"}},
		map[string]any{"limit": float64(1), "subjects": []any{"size:git:all"}},
	}}}, info["groups"])
	admin := e.send(e.root, "GET", "/api/v1/admin/users/alice/quota", nil, 200).json(t)
	assert.Equal(t, "small", admin["groups"].([]any)[0].(map[string]any)["name"])
	check(e.alice, "size:repos:public", "false")
	check(e.alice, "size:assets:attachments:issues", "true")
	check(e.alice, "size:all", "false") // not covered: denied
	check(e.bob, "size:all", "true")

	// The attachment list, by size, paged.
	n := e.newIssue(e.alice, "files")
	e.expect(e.upload(e.alice, e.issuePath(n, "/assets"), "small.txt", "abc", nil), 201, "")
	e.expect(e.upload(e.bob, e.issuePath(n, "/assets"), "big.txt", "abcdefgh", nil), 201, "")
	c := e.send(e.alice, "POST", e.issuePath(n, "/comments"), map[string]any{"body": "c"}, 201).json(t)
	e.expect(e.upload(e.alice, fmt.Sprintf("%s/issues/comments/%v/assets", e.proj, c["id"]), "mid.txt", "abcde", nil), 201, "")
	r = e.send(e.alice, "GET", "/api/v1/user/quota/attachments?limit=2", nil, 200)
	assert.Equal(t, "3", r.Header.Get("X-Total-Count"))
	assert.Contains(t, r.Header.Get("Link"), `rel="next"`)
	list := r.list(t)
	require.Len(t, list, 2)
	root := e.srv.URL + "/"
	assert.Equal(t, "big.txt", list[0]["name"])
	assert.EqualValues(t, 8, list[0]["size"], "charged to the repository's owner, not the uploader")
	assert.Equal(t, map[string]any{"api_url": fmt.Sprintf("%sapi/v1/repos/alice/proj/issues/%d", root, n),
		"html_url": fmt.Sprintf("%salice/proj/issues/%d", root, n)}, list[0]["contained_in"])
	assert.Regexp(t, fmt.Sprintf(`^%sapi/v1/repos/alice/proj/issues/%d/assets/\d+$`, root, n), list[0]["api_url"])
	assert.Equal(t, map[string]any{"api_url": fmt.Sprintf("%sapi/v1/repos/alice/proj/issues/comments/%v", root, c["id"]),
		"html_url": fmt.Sprintf("%salice/proj/issues/%d#issuecomment-%v", root, n, c["id"])}, list[1]["contained_in"])
	assert.Empty(t, e.send(e.bob, "GET", "/api/v1/user/quota/attachments", nil, 200).list(t))
	assert.EqualValues(t, 16, e.used("alice")["size"].(map[string]any)["assets"].(map[string]any)["attachments"].(map[string]any)["issues"])
	for _, p := range []string{"/packages", "/artifacts"} {
		r := e.send(e.alice, "GET", "/api/v1/user/quota"+p, nil, 200)
		assert.Equal(t, "0", r.Header.Get("X-Total-Count"))
		assert.Equal(t, "[]", strings.TrimSpace(string(r.body)))
	}
}

// TestQuotaAdminAPI covers /admin/quota/** and /admin/users/{u}/quota*
// with Forgejo's statuses and messages.
func TestQuotaAdminAPI(t *testing.T) {
	t.Parallel()
	e := newQuotaEnv(t, quotaOn)
	e.expect(e.do(req{method: "GET", path: "/api/v1/admin/quota/rules", token: e.alice}), 403, "user should be the site admin")
	assert.Equal(t, "[]", strings.TrimSpace(string(e.admin("GET", "/rules", nil, 200).body)))

	e.expect(e.do(req{method: "POST", path: "/api/v1/admin/quota/rules", token: e.root, body: map[string]any{"limit": 1}}), 422, "[Name]: Required")
	e.expect(e.do(req{method: "POST", path: "/api/v1/admin/quota/rules", token: e.root, body: map[string]any{"name": "r"}}), 422, "[Limit]: Required")
	e.expect(e.do(req{method: "POST", path: "/api/v1/admin/quota/rules", token: e.root, body: map[string]any{"name": "r", "limit": 1, "subjects": []string{"size:x"}}}),
		422, "unrecognized quota limit subject: [subject: size:x]")
	r := e.admin("POST", "/rules", map[string]any{"name": "all", "limit": 100, "subjects": []string{"size:all", "size:repos:all"}}, 201)
	assert.Equal(t, map[string]any{"name": "all", "limit": float64(100), "subjects": []any{"size:all", "size:repos:all"}}, r.json(t))
	e.expect(e.do(req{method: "POST", path: "/api/v1/admin/quota/rules", token: e.root, body: map[string]any{"name": "all", "limit": 1}}), 409, "rule already exists: [name: all]")
	e.admin("GET", "/rules/all", nil, 200)
	e.expect(e.do(req{method: "GET", path: "/api/v1/admin/quota/rules/nope", token: e.root}), 404, "")
	assert.Equal(t, float64(100), e.admin("PATCH", "/rules/all", map[string]any{}, 200).json(t)["limit"], "an empty edit changes nothing")
	r = e.admin("PATCH", "/rules/all", map[string]any{"limit": 5}, 200)
	assert.Equal(t, map[string]any{"name": "all", "limit": float64(5), "subjects": []any{"size:all", "size:repos:all"}}, r.json(t))
	e.expect(e.do(req{method: "PATCH", path: "/api/v1/admin/quota/rules/all", token: e.root, body: map[string]any{"subjects": []string{"nope"}}}), 422, "unrecognized quota limit subject: [subject: nope]")
	e.admin("PATCH", "/rules/all", map[string]any{"subjects": []string{}}, 200)

	// Groups, with rules created on the way or attached unchanged.
	e.expect(e.do(req{method: "POST", path: "/api/v1/admin/quota/groups", token: e.root, body: map[string]any{}}), 422, "[Name]: Required")
	r = e.admin("POST", "/groups", map[string]any{"name": "g", "rules": []map[string]any{{"name": "all", "limit": 999}, {"name": "fresh"}}}, 201)
	assert.Equal(t, map[string]any{"name": "g", "rules": []any{
		map[string]any{"name": "all", "limit": float64(5)},
		map[string]any{"name": "fresh", "limit": float64(0)},
	}}, r.json(t), "an existing rule is attached unchanged; a new one without limit is 0")
	e.expect(e.do(req{method: "POST", path: "/api/v1/admin/quota/groups", token: e.root, body: map[string]any{"name": "g"}}), 409, "group already exists: [name: g]")
	e.expect(e.do(req{method: "POST", path: "/api/v1/admin/quota/groups", token: e.root, body: map[string]any{"name": "h", "rules": []map[string]any{{"name": "n1", "limit": 1}, {"name": "bad", "subjects": []string{"x"}}}}}), 422, "")
	e.expect(e.do(req{method: "GET", path: "/api/v1/admin/quota/rules/n1", token: e.root}), 404, "") // the group creation is one transaction
	e.admin("POST", "/groups", map[string]any{"name": "empty"}, 201)
	assert.Len(t, e.admin("GET", "/groups", nil, 200).list(t), 2)
	e.expect(e.do(req{method: "PUT", path: "/api/v1/admin/quota/groups/g/rules/all", token: e.root}), 409, "rule already in group: [group: g, rule: all]")
	e.expect(e.do(req{method: "PUT", path: "/api/v1/admin/quota/groups/g/rules/nope", token: e.root}), 404, "")
	e.expect(e.do(req{method: "PUT", path: "/api/v1/admin/quota/groups/nope/rules/all", token: e.root}), 404, "")
	e.admin("PUT", "/groups/empty/rules/all", nil, 204)
	e.admin("DELETE", "/groups/empty/rules/all", nil, 204)
	e.expect(e.do(req{method: "DELETE", path: "/api/v1/admin/quota/groups/empty/rules/all", token: e.root}), 404, "")

	// Members: users and organisations.
	e.createOrg("alice", "acme", "public")
	e.admin("PUT", "/groups/g/users/alice", nil, 204)
	e.admin("PUT", "/groups/g/users/acme", nil, 204)
	alice := e.send(e.root, "GET", "/api/v1/users/alice", nil, 200).json(t)
	e.expect(e.do(req{method: "PUT", path: "/api/v1/admin/quota/groups/g/users/alice", token: e.root}), 409,
		fmt.Sprintf("user already in group: [group: g, userID: %v]", alice["id"]))
	e.expect(e.do(req{method: "PUT", path: "/api/v1/admin/quota/groups/g/users/nobody", token: e.root}), 404, "")
	users := e.admin("GET", "/groups/g/users", nil, 200).list(t)
	assert.Equal(t, []string{"alice", "acme"}, []string{users[0]["login"].(string), users[1]["login"].(string)})
	e.admin("DELETE", "/groups/g/users/acme", nil, 204)
	e.expect(e.do(req{method: "DELETE", path: "/api/v1/admin/quota/groups/g/users/acme", token: e.root}), 404, "")

	// Set a user's groups: all or nothing; null changes nothing.
	e.expect(e.do(req{method: "POST", path: "/api/v1/admin/users/alice/quota/groups", token: e.root, body: map[string]any{"groups": []string{"empty", "nope"}}}), 422, "group not found: [group: nope]")
	groups := func() []any {
		return e.send(e.root, "GET", "/api/v1/admin/users/alice/quota", nil, 200).json(t)["groups"].([]any)
	}
	assert.Len(t, groups(), 1)
	e.send(e.root, "POST", "/api/v1/admin/users/alice/quota/groups", map[string]any{}, 204)
	assert.Len(t, groups(), 1, "groups missing: no change (Forgejo's quirk)")
	e.send(e.root, "POST", "/api/v1/admin/users/alice/quota/groups", map[string]any{"groups": []string{"empty", "g"}}, 204)
	assert.Len(t, groups(), 2)
	e.send(e.root, "POST", "/api/v1/admin/users/alice/quota/groups", map[string]any{"groups": []string{}}, 204)
	assert.Equal(t, []any{}, groups(), "back to the built-in default")
	e.expect(e.do(req{method: "POST", path: "/api/v1/admin/users/nobody/quota/groups", token: e.root, body: map[string]any{"groups": []string{}}}), 404, "")
	e.expect(e.do(req{method: "GET", path: "/api/v1/admin/users/nobody/quota", token: e.root}), 404, "")

	e.admin("DELETE", "/rules/all", nil, 204)
	assert.Equal(t, []any{map[string]any{"name": "fresh", "limit": float64(0)}}, e.admin("GET", "/groups/g", nil, 200).json(t)["rules"],
		"a deleted rule leaves its groups")
	e.expect(e.do(req{method: "DELETE", path: "/api/v1/admin/quota/rules/all", token: e.root}), 404, "")
	e.admin("DELETE", "/groups/g", nil, 204)
	e.expect(e.do(req{method: "GET", path: "/api/v1/admin/quota/groups/g", token: e.root}), 404, "")
	e.admin("GET", "/rules/fresh", nil, 200)
}

// TestQuotaOrgAPI: an organisation's quota is its owners' to read; its
// repositories' usage is charged to it.
func TestQuotaOrgAPI(t *testing.T) {
	t.Parallel()
	e := newQuotaEnv(t, quotaOn)
	e.createOrg("alice", "acme", "public")
	e.send(e.alice, "POST", "/api/v1/orgs/acme/repos", map[string]any{"name": "lib", "auto_init": true}, 201)
	info := e.send(e.alice, "GET", "/api/v1/orgs/acme/quota", nil, 200).json(t)
	assert.Greater(t, info["used"].(map[string]any)["size"].(map[string]any)["repos"].(map[string]any)["public"].(float64), float64(0))
	e.send(e.root, "GET", "/api/v1/orgs/acme/quota", nil, 200)
	e.expect(e.do(req{method: "GET", path: "/api/v1/orgs/acme/quota", token: e.bob}), 403, "Must be an organization owner")
	e.expect(e.do(req{method: "GET", path: "/api/v1/orgs/acme/quota/check?subject=size:all", token: e.eve}), 403, "Must be an organization owner")
	e.expect(e.do(req{method: "GET", path: "/api/v1/orgs/nope/quota", token: e.alice}), 404, "")
	e.expect(e.do(req{method: "GET", path: "/api/v1/orgs/acme/quota"}), 401, "token is required")
	e.expect(e.do(req{method: "GET", path: "/api/v1/orgs/acme/quota", token: e.token("alice", "read:user")}), 403,
		"token does not have at least one of required scope(s): [read:organization]")
	assert.Equal(t, "true", strings.TrimSpace(string(e.send(e.alice, "GET", "/api/v1/orgs/acme/quota/check?subject=size:all", nil, 200).body)))
	e.send(e.alice, "GET", "/api/v1/orgs/acme/quota/attachments", nil, 200)
	e.send(e.alice, "GET", "/api/v1/orgs/acme/quota/packages", nil, 200)
	e.send(e.alice, "GET", "/api/v1/orgs/acme/quota/artifacts", nil, 200)

	// The organisation's quota refuses, naming the organisation.
	e.limit("acme", 1, "size:repos:all")
	assert.Equal(t, "false", strings.TrimSpace(string(e.send(e.alice, "GET", "/api/v1/orgs/acme/quota/check?subject=size:repos:all", nil, 200).body)))
	e.expectQuota(e.do(req{method: "POST", path: "/api/v1/orgs/acme/repos", token: e.alice, body: map[string]any{"name": "more"}}), "acme")
	e.expect(e.do(req{method: "GET", path: "/api/v1/repos/acme/more", token: e.alice}), 404, "")
	e.send(e.alice, "POST", "/api/v1/user/repos", map[string]any{"name": "mine"}, 201)
}

// TestQuotaEnforcement: every enforcement point of spec/quota.md §7.1 that
// Hearth has refuses, once the owner is at its limit, with 413 and
// Forgejo's body naming the owner, and nothing is stored.
func TestQuotaEnforcement(t *testing.T) {
	t.Parallel()
	e := newQuotaEnv(t, quotaOn)
	e.send(e.alice, "POST", "/api/v1/user/repos", map[string]any{"name": "code", "auto_init": true}, 201)
	code := "/api/v1/repos/alice/code"
	rel := e.send(e.alice, "POST", code+"/releases", map[string]any{"tag_name": "v1"}, 201).json(t)
	n := e.newIssue(e.alice, "files")
	cm := e.send(e.alice, "POST", e.issuePath(n, "/comments"), map[string]any{"body": "c"}, 201).json(t)
	e.createUser("carol")
	carol := e.token("carol", "all")

	// alice is over her repositories' limit (size:repos:all), and her
	// attachment limit is her current usage plus 10 bytes.
	e.limit("alice", 1, "size:repos:all")
	e.admin("POST", "/rules", map[string]any{"name": "files", "limit": 10, "subjects": []string{"size:assets:attachments:all"}}, 201)
	e.admin("PUT", "/groups/g-alice/rules/files", nil, 204)
	// carol may not own anything more.
	e.limit("carol", 0, "size:all")
	before := e.used("alice")
	blobs := files(t, e.blobDir)

	for _, tc := range []struct {
		name, owner string
		do          func() resp
	}{
		{"POST /user/repos", "alice", func() resp {
			return e.do(req{method: "POST", path: "/api/v1/user/repos", token: e.alice, body: map[string]any{"name": "new"}})
		}},
		{"POST /repos/{o}/{r}/forks (the forker's quota)", "carol", func() resp {
			return e.do(req{method: "POST", path: code + "/forks", token: carol, body: map[string]any{}})
		}},
		{"POST /repos/{o}/{r}/transfer (the new owner's)", "carol", func() resp {
			return e.do(req{method: "POST", path: code + "/transfer", token: e.alice, body: map[string]any{"new_owner": "carol"}})
		}},
		{"POST /repos/{o}/{r}/branches", "alice", func() resp {
			return e.do(req{method: "POST", path: code + "/branches", token: e.alice, body: map[string]any{"new_branch_name": "b"}})
		}},
		{"POST /repos/{o}/{r}/tags", "alice", func() resp {
			return e.do(req{method: "POST", path: code + "/tags", token: e.alice, body: map[string]any{"tag_name": "t"}})
		}},
		{"POST /repos/{o}/{r}/releases", "alice", func() resp {
			return e.do(req{method: "POST", path: code + "/releases", token: e.alice, body: map[string]any{"tag_name": "v2"}})
		}},
		{"PATCH /repos/{o}/{r}/releases/{id}", "alice", func() resp {
			return e.do(req{method: "PATCH", path: fmt.Sprintf("%s/releases/%v", code, rel["id"]), token: e.alice, body: map[string]any{"name": "x"}})
		}},
		{"POST /repos/{o}/{r}/contents/{path}", "alice", func() resp {
			return e.do(req{method: "POST", path: code + "/contents/new.txt", token: e.alice, body: map[string]any{"content": b64("x")}})
		}},
		{"DELETE /repos/{o}/{r}/contents/{path} (even a delete)", "alice", func() resp {
			return e.do(req{method: "DELETE", path: code + "/contents/README.md", token: e.alice, body: map[string]any{"sha": strings.Repeat("0", 40)}})
		}},
		{"POST /repos/{o}/{r}/contents", "alice", func() resp {
			return e.do(req{method: "POST", path: code + "/contents", token: e.alice, body: map[string]any{"files": []map[string]any{{"operation": "create", "path": "m.txt", "content": b64("m")}}}})
		}},
		{"POST /repos/{o}/{r}/diffpatch", "alice", func() resp {
			return e.do(req{method: "POST", path: code + "/diffpatch", token: e.alice, body: map[string]any{"sha": "x",
				"content": "diff --git a/p.txt b/p.txt\nnew file mode 100644\n--- /dev/null\n+++ b/p.txt\n@@ -0,0 +1 @@\n+p\n"}})
		}},
		{"POST /repos/{o}/{r}/issues/{index}/assets (crossing the limit)", "alice", func() resp {
			return e.upload(e.bob, e.issuePath(n, "/assets"), "a.txt", "01234567890", nil)
		}},
		{"POST /repos/{o}/{r}/issues/comments/{id}/assets (crossing the limit)", "alice", func() resp {
			return e.upload(e.bob, fmt.Sprintf("%s/issues/comments/%v/assets", e.proj, cm["id"]), "a.txt", "01234567890", nil)
		}},
		{"POST /repos/{o}/{r}/releases/{id}/assets (crossing the limit)", "alice", func() resp {
			return e.upload(e.alice, fmt.Sprintf("%s/releases/%v/assets", code, rel["id"]), "a.bin", "01234567890", nil)
		}},
	} {
		if r := tc.do(); r.StatusCode != 413 {
			t.Errorf("%s: %d %s, want 413", tc.name, r.StatusCode, r.body)
		} else {
			e.expectQuota(r, tc.owner)
		}
	}
	assert.Equal(t, before, e.used("alice"), "no usage changed")
	assert.Equal(t, blobs, files(t, e.blobDir), "no blob stored")
	e.expect(e.do(req{method: "GET", path: "/api/v1/repos/alice/new", token: e.alice}), 404, "")
	e.expect(e.do(req{method: "GET", path: "/api/v1/repos/carol/code", token: carol}), 404, "")
	e.expect(e.do(req{method: "GET", path: code + "/branches/b", token: e.alice}), 404, "")
	e.expect(e.do(req{method: "GET", path: code + "/contents/new.txt", token: e.alice}), 404, "")
	e.expect(e.do(req{method: "GET", path: code + "/contents/p.txt", token: e.alice}), 404, "")
	e.send(e.alice, "GET", code+"/contents/README.md", nil, 200)
	assert.Empty(t, e.send(e.alice, "GET", e.issuePath(n, "/assets"), nil, 200).list(t))

	// Accepting a transfer checks the recipient's quota.
	e.send(e.root, "POST", "/api/v1/admin/users/bob/quota/groups", map[string]any{"groups": []string{}}, 204)
	e.send(e.alice, "POST", e.proj+"/transfer", map[string]any{"new_owner": "bob"}, 201)
	e.limit("bob", 0, "size:repos:all")
	e.expectQuota(e.do(req{method: "POST", path: e.proj + "/transfer/accept", token: e.bob}), "bob")
	e.send(e.alice, "GET", e.proj, nil, 200)
	e.send(e.bob, "POST", e.proj+"/transfer/reject", nil, 200) // rejecting is never refused

	// Up to the limit is allowed (the write may reach it, not cross it);
	// then Forgejo's strict check refuses even one byte.
	e.expect(e.upload(e.bob, e.issuePath(n, "/assets"), "ten.txt", "0123456789", nil), 201, "")
	e.expectQuota(e.upload(e.bob, e.issuePath(n, "/assets"), "one.txt", "0", nil), "alice")
	// Reading, reopening, and what Forgejo does not check still work.
	e.send(e.alice, "GET", code, nil, 200)
	e.send(e.alice, "POST", e.issuePath(n, "/comments"), map[string]any{"body": "still allowed"}, 201)
	e.send(e.alice, "DELETE", code+"/releases/"+fmt.Sprint(rel["id"]), nil, 204)
}
