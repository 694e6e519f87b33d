package httpapi_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestErrorAnswersOfUnknownObjects: unknown objects, formats and missing
// settings get Forgejo's answers (its handlers in routers/api/v1/repo):
// an unknown tree or blob sha is 400 (GetTree, GetBlob), an unknown archive
// format 400 `unknown format: …` (archiveDownload) while an unknown ref in
// a known format stays 404, a tag rule with an empty pattern or whitelist
// 400 (CreateTagProtection), and the statuses of a commit that does not
// exist 200 [] (ResolveRefOrSha reads the name as a sha). A repository the
// caller may not see stays 404 first. An id that is no annotated tag is 400
// (GetAnnotatedTag), a commit name that is no ref pattern 422
// (GetSingleCommit).
func TestErrorAnswersOfUnknownObjects(t *testing.T) {
	t.Parallel()
	e, tok := repoEnv(t, "sha1")
	e.createUser("eve")
	eve := e.token("eve", "all")
	e.expect(e.do(req{method: "POST", path: "/api/v1/user/repos", token: tok, body: map[string]any{"name": "hidden", "private": true, "auto_init": true}}), http.StatusCreated, "")
	api := "/api/v1/repos/alice/proj"
	unknown := "0123456789abcdef0123456789abcdef01234567"
	get := func(path, token string) resp { return e.do(req{method: "GET", path: path, token: token}) }

	e.expect(get(api+"/git/trees/"+unknown, tok), http.StatusBadRequest, "sha not found ["+unknown+"]")
	e.expect(get(api+"/git/trees/nosuchbranch", tok), http.StatusBadRequest, "sha not found [nosuchbranch]")
	e.expect(get(api+"/git/trees/main", tok), http.StatusOK, "")
	e.expect(get("/api/v1/repos/alice/hidden/git/trees/"+unknown, eve), http.StatusNotFound, "")

	for _, sha := range []string{unknown, "main", "0123456", "zz"} {
		e.expect(get(api+"/git/blobs/"+sha, tok), http.StatusBadRequest, "object does not exist [id: "+sha+", rel_path: ]")
	}
	e.expect(get("/api/v1/repos/alice/hidden/git/blobs/"+unknown, eve), http.StatusNotFound, "")
	readme := get(api+"/contents/README.md", tok).json(t)["sha"].(string)
	e.expect(get(api+"/git/blobs/"+readme, tok), http.StatusOK, "")

	// GET git/commits/{sha}: a name that is no ref pattern is 422
	// (GetSingleCommit); a suffix other than .diff or .patch is part of the
	// sha.
	for _, sha := range []string{"a..b", "main~1", "-x", "x^{tree}"} {
		e.expect(get(api+"/git/commits/"+sha, tok), http.StatusUnprocessableEntity, "no valid ref or sha: "+sha)
	}
	e.expect(get("/api/v1/repos/alice/hidden/git/commits/a..b", eve), http.StatusNotFound, "")
	e.expect(get(api+"/git/commits/main.foo", tok), http.StatusNotFound, "revision does not exist [rev: main.foo]")
	e.expect(get(api+"/git/commits/main.diff", tok), http.StatusOK, "")
	e.expect(get(api+"/git/commits/main", tok), http.StatusOK, "")

	head := get(api+"/branches/main", tok).json(t)["commit"].(map[string]any)["id"].(string)
	for _, sha := range []string{unknown, head, "main", "zz"} {
		e.expect(get(api+"/git/tags/"+sha, tok), http.StatusBadRequest, "object does not exist [id: "+sha+", rel_path: ]")
	}
	e.expect(get("/api/v1/repos/alice/hidden/git/tags/"+unknown, eve), http.StatusNotFound, "")
	tag := e.do(req{method: "POST", path: api + "/tags", token: tok, body: map[string]any{"tag_name": "v9", "message": "annotated"}})
	e.expect(tag, http.StatusCreated, "")
	e.expect(get(api+"/git/tags/"+tag.json(t)["id"].(string), tok), http.StatusOK, "")

	for _, name := range []string{"main.rar", "main", "main.tar"} {
		e.expect(get(api+"/archive/"+name, tok), http.StatusBadRequest, "unknown format: "+name)
	}
	e.expect(get(api+"/archive/nosuch.zip", tok), http.StatusNotFound, "")
	e.expect(get("/api/v1/repos/alice/hidden/archive/main.rar", eve), http.StatusNotFound, "")
	e.expect(get(api+"/archive/main.zip", tok), http.StatusOK, "")

	tp := func(body map[string]any) resp {
		return e.do(req{method: "POST", path: api + "/tag_protections", token: tok, body: body})
	}
	e.expect(tp(map[string]any{"name_pattern": "v*"}), http.StatusBadRequest, "both whitelist_usernames and whitelist_teams are empty")
	e.expect(tp(map[string]any{"name_pattern": "v*", "whitelist_usernames": []string{}, "whitelist_teams": []string{}}), http.StatusBadRequest,
		"both whitelist_usernames and whitelist_teams are empty")
	e.expect(tp(map[string]any{"name_pattern": " ", "whitelist_usernames": []string{"alice"}}), http.StatusBadRequest, "name_pattern are empty")
	e.expect(tp(map[string]any{"name_pattern": "v*", "whitelist_usernames": []string{"nobody"}}), http.StatusUnprocessableEntity, "")
	e.expect(e.do(req{method: "POST", path: api + "/tag_protections", token: eve, body: map[string]any{"name_pattern": "v*"}}), http.StatusForbidden, "")
	e.expect(tp(map[string]any{"name_pattern": "v*", "whitelist_usernames": []string{"alice"}}), http.StatusCreated, "")

	for _, path := range []string{api + "/statuses/" + unknown, api + "/commits/" + unknown + "/statuses", api + "/commits/nosuch/statuses"} {
		r := get(path, tok)
		e.expect(r, http.StatusOK, "")
		assert.JSONEq(t, "[]", string(r.body), path)
		assert.Equal(t, "0", r.Header.Get("X-Total-Count"), path)
	}
	e.expect(get("/api/v1/repos/alice/hidden/statuses/"+unknown, eve), http.StatusNotFound, "")
	// A combined status without statuses is Forgejo's empty CombinedStatus,
	// for an unknown ref as for a commit without statuses.
	for _, ref := range []string{unknown, "nosuch", "main"} {
		r := get(api+"/commits/"+ref+"/status", tok)
		e.expect(r, http.StatusOK, "")
		assert.JSONEq(t, `{"state":"","sha":"","total_count":0,"statuses":null,"repository":null,"commit_url":"","url":""}`, string(r.body), ref)
	}
	e.expect(get("/api/v1/repos/alice/hidden/commits/main/status", eve), http.StatusNotFound, "")
}
