package httpapi_test

import (
	"bytes"
	"context"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge/repos"
)

// refsEnv is alice/proj (auto-initialised) with bob as a writer, a rule
// protecting release/* for alice only, and a tag rule v* for alice only.
func refsEnv(t *testing.T, repoCfg func(*repos.Config)) (e *env, alice, bob string) {
	t.Helper()
	e = newEnvWith(t, repoCfg)
	e.createUser("alice")
	e.createUser("bob")
	alice, bob = e.token("alice", "all"), e.token("bob", "all")
	e.expect(e.do(req{method: "POST", path: "/api/v1/user/repos", token: alice, body: map[string]any{"name": "proj", "auto_init": true}}),
		http.StatusCreated, "")
	e.expect(e.do(req{method: "PUT", path: "/api/v1/repos/alice/proj/collaborators/bob", token: alice, body: map[string]any{"permission": "write"}}),
		http.StatusNoContent, "")
	e.expect(e.do(req{method: "POST", path: "/api/v1/repos/alice/proj/branch_protections", token: alice, body: map[string]any{
		"rule_name": "release/*", "enable_push": true, "enable_push_whitelist": true, "push_whitelist_usernames": []string{"alice"}}}),
		http.StatusCreated, "")
	e.expect(e.do(req{method: "POST", path: "/api/v1/repos/alice/proj/tag_protections", token: alice, body: map[string]any{
		"name_pattern": "v*", "whitelist_usernames": []string{"alice"}}}), http.StatusCreated, "")
	return e, alice, bob
}

// Issue 8 item 4: branches cannot be created or renamed into a protected
// name by a writer the rule does not let push there; protected and default
// branches are never deleted or renamed away.
func TestBranchProtectionGuardsEveryWay(t *testing.T) {
	t.Parallel()
	e, alice, bob := refsEnv(t, nil)
	base := "/api/v1/repos/alice/proj/branches"

	e.expect(e.do(req{method: "POST", path: base, token: bob, body: map[string]any{"new_branch_name": "release/1"}}),
		http.StatusForbidden, "Not allowed to push to protected branch release/1")
	e.expect(e.do(req{method: "GET", path: base + "/release/1", token: bob}), http.StatusNotFound, "")
	e.expect(e.do(req{method: "POST", path: base, token: bob, body: map[string]any{"new_branch_name": "dev"}}), http.StatusCreated, "")
	e.expect(e.do(req{method: "PATCH", path: base + "/dev", token: bob, body: map[string]any{"name": "release/2"}}),
		http.StatusForbidden, "Not allowed to push to protected branch release/2")
	e.expect(e.do(req{method: "GET", path: base + "/dev", token: bob}), http.StatusOK, "")
	e.expect(e.do(req{method: "GET", path: base + "/release/2", token: bob}), http.StatusNotFound, "")

	// The whitelisted user may create it; nobody deletes or renames it away.
	r := e.do(req{method: "POST", path: base, token: alice, body: map[string]any{"new_branch_name": "release/1", "old_ref_name": "refs/heads/main"}})
	e.expect(r, http.StatusCreated, "")
	assert.Equal(t, true, r.json(t)["protected"])
	e.expect(e.do(req{method: "DELETE", path: base + "/release/1", token: alice}), http.StatusForbidden, "branch protected")
	e.expect(e.do(req{method: "PATCH", path: base + "/release/1", token: alice, body: map[string]any{"name": "free"}}),
		http.StatusForbidden, "Branch is protected")
	e.expect(e.do(req{method: "DELETE", path: base + "/main", token: alice}), http.StatusForbidden, "can not delete default branch")
	e.expect(e.do(req{method: "DELETE", path: base + "/dev", token: bob}), http.StatusNoContent, "")
	e.expect(e.do(req{method: "DELETE", path: base + "/dev", token: bob}), http.StatusNotFound, "")
}

// Issue 8 item 4: a writer refused a protected tag cannot get it through
// releases: not by creating one, not by a draft then publishing it, not by
// editing tag_name; and the failed edit stores nothing.
func TestReleasesCannotBypassTagProtection(t *testing.T) {
	t.Parallel()
	e, alice, bob := refsEnv(t, nil)
	base := "/api/v1/repos/alice/proj/releases"
	const refused = "user without permission tried to create protected tag [name: v1]"

	e.expect(e.do(req{method: "POST", path: base, token: bob, body: map[string]any{"tag_name": "v1"}}), http.StatusUnprocessableEntity, refused)
	e.expect(e.do(req{method: "GET", path: "/api/v1/repos/alice/proj/tags/v1"}), http.StatusNotFound, "")
	assert.Empty(t, e.do(req{method: "GET", path: base, token: bob}).list(t), "a refused release stores nothing")

	r := e.do(req{method: "POST", path: base, token: bob, body: map[string]any{"tag_name": "v1", "draft": true, "body": "draft notes"}})
	e.expect(r, http.StatusCreated, "")
	draft := itoa(r.json(t)["id"])
	e.expect(e.do(req{method: "PATCH", path: base + "/" + draft, token: bob, body: map[string]any{"draft": false, "body": "changed"}}),
		http.StatusUnprocessableEntity, refused)
	e.expect(e.do(req{method: "GET", path: "/api/v1/repos/alice/proj/tags/v1"}), http.StatusNotFound, "")
	got := e.do(req{method: "GET", path: base + "/" + draft, token: bob}).json(t)
	assert.Equal(t, true, got["draft"], "the refused publish stored nothing")
	assert.Equal(t, "draft notes", got["body"])

	r = e.do(req{method: "POST", path: base, token: bob, body: map[string]any{"tag_name": "nightly"}})
	e.expect(r, http.StatusCreated, "")
	pub := itoa(r.json(t)["id"])
	e.expect(e.do(req{method: "PATCH", path: base + "/" + pub, token: bob, body: map[string]any{"tag_name": "v9"}}),
		http.StatusUnprocessableEntity, strings.Replace(refused, "v1", "v9", 1))
	assert.Equal(t, "nightly", e.do(req{method: "GET", path: base + "/" + pub, token: bob}).json(t)["tag_name"])
	e.expect(e.do(req{method: "GET", path: "/api/v1/repos/alice/proj/tags/v9"}), http.StatusNotFound, "")

	// The whitelisted user publishes the draft: the tag is created then.
	r = e.do(req{method: "PATCH", path: base + "/" + draft, token: alice, body: map[string]any{"draft": false}})
	e.expect(r, http.StatusOK, "")
	assert.Equal(t, false, r.json(t)["draft"])
	e.expect(e.do(req{method: "GET", path: "/api/v1/repos/alice/proj/tags/v1"}), http.StatusOK, "")
}

// Issue 8 item 20: empty strings leave tag_name, target_commitish, name and
// body unchanged; an edit that fails validation stores nothing.
func TestReleaseEditEmptyStringsAndAtomicity(t *testing.T) {
	t.Parallel()
	e, tok := repoEnv(t, "")
	base := "/api/v1/repos/alice/proj/releases"
	r := e.do(req{method: "POST", path: base, token: tok, body: map[string]any{"tag_name": "v1.0", "name": "One", "body": "notes"}})
	e.expect(r, http.StatusCreated, "")
	id := itoa(r.json(t)["id"])

	r = e.do(req{method: "PATCH", path: base + "/" + id, token: tok, body: map[string]any{
		"tag_name": "", "target_commitish": "", "name": "", "body": "", "prerelease": true}})
	e.expect(r, http.StatusOK, "")
	got := r.json(t)
	assert.Equal(t, "v1.0", got["tag_name"])
	assert.Equal(t, "main", got["target_commitish"])
	assert.Equal(t, "One", got["name"])
	assert.Equal(t, "notes", got["body"])
	assert.Equal(t, true, got["prerelease"])

	for _, body := range []map[string]any{
		{"tag_name": "-o", "body": "lost"},
		{"tag_name": "a..b", "body": "lost"},
		{"target_commitish": "--upload-pack=x", "body": "lost"},
	} {
		e.expect(e.do(req{method: "PATCH", path: base + "/" + id, token: tok, body: body}), http.StatusUnprocessableEntity, "")
	}
	got = e.do(req{method: "GET", path: base + "/" + id, token: tok}).json(t)
	assert.Equal(t, "notes", got["body"], "a failed edit stores nothing")
	assert.Equal(t, "v1.0", got["tag_name"])

	// A second release cannot take the first one's tag.
	r = e.do(req{method: "POST", path: base, token: tok, body: map[string]any{"tag_name": "v2.0"}})
	e.expect(r, http.StatusCreated, "")
	e.expect(e.do(req{method: "PATCH", path: base + "/" + itoa(r.json(t)["id"]), token: tok, body: map[string]any{"tag_name": "v1.0", "body": "lost"}}),
		http.StatusUnprocessableEntity, "release with tag v1.0 already exists")
	assert.Equal(t, "", e.do(req{method: "GET", path: base + "/" + itoa(r.json(t)["id"]), token: tok}).json(t)["body"])
}

// Issue 8 item 15: invalid branch and tag names answer 422 and never reach
// git (a tag called -n or -o is not an option).
func TestInvalidRefNames(t *testing.T) {
	t.Parallel()
	e, tok := repoEnv(t, "")
	p := "/api/v1/repos/alice/proj"
	bad := []string{"HEAD", "refs/heads/x", "-x", "-n", "a..b", "a@{1}", "a\x01b", "x.lock", "a b", "a~b", "a^b", "a:b", "a?b",
		"a*b", "a[b", "a\\b", "a\nb", strings.Repeat("b", 300)}
	for _, name := range bad {
		e.expect(e.do(req{method: "POST", path: p + "/branches", token: tok, body: map[string]any{"new_branch_name": name}}),
			http.StatusUnprocessableEntity, "")
		e.expect(e.do(req{method: "PATCH", path: p + "/branches/main", token: tok, body: map[string]any{"name": name}}),
			http.StatusUnprocessableEntity, "")
		e.expect(e.do(req{method: "POST", path: p + "/tags", token: tok, body: map[string]any{"tag_name": name}}),
			http.StatusUnprocessableEntity, "")
		e.expect(e.do(req{method: "POST", path: p + "/releases", token: tok, body: map[string]any{"tag_name": name}}),
			http.StatusUnprocessableEntity, "")
	}
	for _, from := range []string{"-x", "--upload-pack=x", "main~1", "a..b"} {
		e.expect(e.do(req{method: "POST", path: p + "/branches", token: tok, body: map[string]any{"new_branch_name": "ok", "old_ref_name": from}}),
			http.StatusUnprocessableEntity, "")
	}
	e.expect(e.do(req{method: "POST", path: p + "/tags", token: tok, body: map[string]any{"tag_name": "v1", "target": "-o"}}),
		http.StatusUnprocessableEntity, "")
	e.expect(e.do(req{method: "POST", path: p + "/branches", token: tok, body: map[string]any{"new_branch_name": strings.Repeat("b", 101)}}),
		http.StatusUnprocessableEntity, "")
	e.expect(e.do(req{method: "POST", path: p + "/tag_protections", token: tok, body: map[string]any{"name_pattern": "/(/"}}),
		http.StatusUnprocessableEntity, "")
	for _, b := range e.do(req{method: "GET", path: p + "/branches", token: tok}).list(t) {
		assert.Equal(t, "main", b["name"], "no branch was created")
	}
	assert.Empty(t, e.do(req{method: "GET", path: p + "/tags", token: tok}).list(t), "no tag was created")
}

// Issue 8 item 21, as Forgejo: a tag is made with git's default cleanup
// (git tag -a -m), /tags and /tags/{tag} show strings.TrimSpace of the
// message (a lightweight tag's: its commit's), and /git/tags/{sha} shows
// the tag object's message.
func TestTagMessageAsWritten(t *testing.T) {
	t.Parallel()
	e, tok := repoEnv(t, "")
	p := "/api/v1/repos/alice/proj"
	for _, tc := range []struct{ name, msg, object, shown string }{
		{"v1", "first release", "first release\n", "first release"},
		{"v2", "notes\n# a comment to git\n\n", "notes\n", "notes"},
		{"v3", "  indented  \n\n\n\nsecond\n", "  indented\n\nsecond\n", "indented\n\nsecond"},
		{"v4", "# only a comment", "", ""},
	} {
		r := e.do(req{method: "POST", path: p + "/tags", token: tok, body: map[string]any{"tag_name": tc.name, "message": tc.msg}})
		e.expect(r, http.StatusCreated, "")
		created := r.json(t)
		assert.Equal(t, tc.shown, created["message"], tc.name)
		assert.Equal(t, tc.shown, e.do(req{method: "GET", path: p + "/tags/" + tc.name}).json(t)["message"], tc.name)
		assert.Equal(t, tc.object, e.do(req{method: "GET", path: p + "/git/tags/" + created["id"].(string)}).json(t)["message"], tc.name)
	}
	r := e.do(req{method: "POST", path: p + "/tags", token: tok, body: map[string]any{"tag_name": "light"}})
	e.expect(r, http.StatusCreated, "")
	commit := e.do(req{method: "GET", path: p + "/git/commits/" + r.json(t)["commit"].(map[string]any)["sha"].(string)}).json(t)
	msg := strings.TrimSpace(commit["commit"].(map[string]any)["message"].(string))
	require.NotEmpty(t, msg)
	assert.Equal(t, msg, r.json(t)["message"], "a lightweight tag shows its commit's message")
	for _, tg := range e.do(req{method: "GET", path: p + "/tags"}).list(t) {
		if tg["name"] == "light" {
			assert.Equal(t, msg, tg["message"])
		}
	}
}

// tamperedStore returns every attachment with a javascript: link, as a row
// stored before links were checked would be.
type tamperedStore struct{ repos.Store }

func (s tamperedStore) Update(ctx context.Context, fn func(repos.Tx) error) error {
	return s.Store.Update(ctx, func(tx repos.Tx) error { return fn(tamperedTx{tx}) })
}

type tamperedTx struct{ repos.Tx }

func (tx tamperedTx) AttachmentByUUID(ctx context.Context, uuid string) (*repos.Attachment, error) {
	a, err := tx.Tx.AttachmentByUUID(ctx, uuid)
	if err == nil {
		a.ExternalURL = "javascript:alert(document.domain)"
	}
	return a, err
}

// Issue 8 item 8: an asset's browser_download_url is http(s) only, and
// /attachments/{uuid} never redirects elsewhere, even for stored rows.
func TestAssetLinksAreHTTPOnly(t *testing.T) {
	t.Parallel()
	for _, tampered := range []bool{false, true} {
		var cfg func(*repos.Config)
		if tampered {
			cfg = func(c *repos.Config) { c.Store = tamperedStore{c.Store} }
		}
		e, tok, _ := refsEnv(t, cfg)
		base := "/api/v1/repos/alice/proj/releases"
		r := e.do(req{method: "POST", path: base, token: tok, body: map[string]any{"tag_name": "nightly"}})
		e.expect(r, http.StatusCreated, "")
		id := itoa(r.json(t)["id"])
		upload := func(link string) resp {
			var body bytes.Buffer
			mw := multipart.NewWriter(&body)
			require.NoError(t, mw.WriteField("external_url", link))
			require.NoError(t, mw.Close())
			return e.do(req{method: "POST", path: base + "/" + id + "/assets?name=tool.tgz", token: tok, body: body.Bytes(),
				header: map[string]string{"Content-Type": mw.FormDataContentType()}})
		}
		e.expect(upload("javascript:alert(1)"), http.StatusBadRequest, "invalid external URL")
		r = upload("https://example.com/tool.tgz")
		e.expect(r, http.StatusCreated, "")
		asset := r.json(t)
		aid := itoa(asset["id"])
		for _, link := range []string{"javascript:alert(1)", "data:text/html,<script>alert(1)</script>", "file:///etc/passwd", "//evil.example/x"} {
			e.expect(e.do(req{method: "PATCH", path: base + "/" + id + "/assets/" + aid, token: tok, body: map[string]any{"browser_download_url": link}}),
				http.StatusUnprocessableEntity, "invalid external URL")
		}
		client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
		res, err := client.Get(e.srv.URL + "/attachments/" + asset["uuid"].(string))
		require.NoError(t, err)
		res.Body.Close()
		if tampered {
			assert.Equal(t, http.StatusNotFound, res.StatusCode)
			assert.Empty(t, res.Header.Get("Location"))
		} else {
			assert.Equal(t, http.StatusFound, res.StatusCode)
			assert.Equal(t, "https://example.com/tool.tgz", res.Header.Get("Location"))
		}
	}
}

// Issue 9 §1: a rule is found through the repository being edited, and an
// edit names no rule, so the administrator of one repository cannot change
// another repository's rules (the old attack set the rule's id).
func TestProtectionEditsStayInTheirRepository(t *testing.T) {
	t.Parallel()
	e, alice, _ := refsEnv(t, nil)
	e.createUser("carol")
	carol := e.token("carol", "all")
	r := e.do(req{method: "POST", path: "/api/v1/user/repos", token: carol, body: map[string]any{"name": "other", "auto_init": true}})
	e.expect(r, http.StatusCreated, "")
	otherID := r.json(t)["id"]
	other := "/api/v1/repos/carol/other"
	e.expect(e.do(req{method: "POST", path: other + "/branch_protections", token: carol, body: map[string]any{"rule_name": "main"}}), http.StatusCreated, "")
	r = e.do(req{method: "POST", path: other + "/tag_protections", token: carol, body: map[string]any{"name_pattern": "v*", "whitelist_usernames": []string{"carol"}}})
	e.expect(r, http.StatusCreated, "")
	carolTagRule := itoa(r.json(t)["id"])
	e.expect(e.do(req{method: "POST", path: "/api/v1/repos/alice/proj/branch_protections", token: alice, body: map[string]any{"rule_name": "main"}}),
		http.StatusCreated, "")

	// Through the other repository's paths: not an administrator there.
	e.expect(e.do(req{method: "PATCH", path: other + "/branch_protections/main", token: alice, body: map[string]any{"enable_push": true}}),
		http.StatusForbidden, "")
	e.expect(e.do(req{method: "PATCH", path: other + "/tag_protections/" + carolTagRule, token: alice, body: map[string]any{"whitelist_usernames": []string{"alice"}}}),
		http.StatusForbidden, "")
	// Through her own paths: identity fields in the body change nothing
	// elsewhere, and another repository's tag rule id is unknown here.
	e.do(req{method: "PATCH", path: "/api/v1/repos/alice/proj/branch_protections/main", token: alice,
		body: map[string]any{"id": 1, "repo_id": otherID, "rule_name": "main", "enable_push": true}})
	e.expect(e.do(req{method: "PATCH", path: "/api/v1/repos/alice/proj/tag_protections/" + carolTagRule, token: alice,
		body: map[string]any{"whitelist_usernames": []string{"alice"}}}), http.StatusNotFound, "")

	got := e.do(req{method: "GET", path: other + "/branch_protections/main", token: carol}).json(t)
	assert.Equal(t, false, got["enable_push"], "carol's rule unchanged")
	tagRule := e.do(req{method: "GET", path: other + "/tag_protections/" + carolTagRule, token: carol}).json(t)
	assert.Equal(t, []any{"carol"}, tagRule["whitelist_usernames"])
	// The edit answers the stored state.
	r = e.do(req{method: "PATCH", path: "/api/v1/repos/alice/proj/branch_protections/main", token: alice, body: map[string]any{"required_approvals": 2}})
	e.expect(r, http.StatusOK, "")
	assert.EqualValues(t, 2, r.json(t)["required_approvals"])
	assert.EqualValues(t, 2, e.do(req{method: "GET", path: "/api/v1/repos/alice/proj/branch_protections/main", token: alice}).json(t)["required_approvals"])
}

// The tag API answers as Forgejo's routers/api/v1/repo/tag.go: 422 for a
// protected tag, 409 for a tag a release uses; tag rules: 422 without a
// pattern (Forgejo's 400 is undeclared in its document), 403 for a pattern that has a rule.
func TestTagAPIProtectionAnswers(t *testing.T) {
	t.Parallel()
	e, alice, bob := refsEnv(t, nil)
	p := "/api/v1/repos/alice/proj"
	e.expect(e.do(req{method: "POST", path: p + "/tags", token: bob, body: map[string]any{"tag_name": "v1"}}),
		http.StatusUnprocessableEntity, "user not allowed to create protected tag")
	e.expect(e.do(req{method: "POST", path: p + "/tags", token: alice, body: map[string]any{"tag_name": "v1"}}), http.StatusCreated, "")
	e.expect(e.do(req{method: "DELETE", path: p + "/tags/v1", token: bob}), http.StatusUnprocessableEntity, "user not allowed to delete protected tag")
	e.expect(e.do(req{method: "GET", path: p + "/tags/v1"}), http.StatusOK, "")
	e.expect(e.do(req{method: "POST", path: p + "/releases", token: bob, body: map[string]any{"tag_name": "nightly"}}), http.StatusCreated, "")
	e.expect(e.do(req{method: "DELETE", path: p + "/tags/nightly", token: bob}), http.StatusConflict,
		"a tag attached to a release cannot be deleted directly")
	e.expect(e.do(req{method: "DELETE", path: p + "/tags/v1", token: alice}), http.StatusNoContent, "")

	e.expect(e.do(req{method: "POST", path: p + "/tag_protections", token: alice, body: map[string]any{"name_pattern": " "}}),
		http.StatusBadRequest, "name_pattern are empty") // Forgejo's CreateTagProtection
	e.expect(e.do(req{method: "POST", path: p + "/tag_protections", token: alice, body: map[string]any{"name_pattern": "v*", "whitelist_usernames": []string{"alice"}}}),
		http.StatusForbidden, "Tag protection already exist")
}
