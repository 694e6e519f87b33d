package httpapi_test

import (
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/quota"
)

// TestGenericPackages: the generic registry's upload, download and
// deletion with Forgejo's statuses and plain-text errors, and the
// /api/v1/packages operations over what was uploaded.
func TestGenericPackages(t *testing.T) {
	t.Parallel()
	e := newLFSEnv(t, quota.Config{})
	e.createUser("alice")
	e.createUser("bob")
	tok, btok := e.token("alice", "all"), e.token("bob", "all")
	rtok := e.token("alice", "read:package")
	const g = "/api/packages/alice/generic"
	put := func(path, token, body string) resp {
		t.Helper()
		return e.do(req{method: "PUT", path: g + path, token: token, body: body})
	}
	plain := func(r resp, status int, msg string) {
		t.Helper()
		require.Equal(t, status, r.StatusCode, "body: %s", r.body)
		assert.Equal(t, msg, strings.TrimSpace(string(r.body)))
	}

	plain(put("/tool/1.0/tool.tar.gz", tok, "tarball bytes"), 201, "")
	plain(put("/tool/1.0/notes.txt", tok, "notes"), 201, "")
	plain(put("/tool/2.0/tool.tar.gz", tok, "newer"), 201, "")
	plain(put("/tool/1.0/tool.tar.gz", tok, "again"), 409, "package file already exists")
	plain(put("/to%20ol/1.0/f", tok, "x"), 400, "invalid package name")
	plain(put("/tool/1.0/%20f", tok, "x"), 400, "invalid filename")
	plain(put("/tool/%201.0/f", tok, "x"), 400, "invalid package version")
	r := put("/tool/3.0/f", "", "x")
	plain(r, 401, "reqPackageAccess")
	assert.Equal(t, `Basic realm="Gitea Package API"`, r.Header.Get("WWW-Authenticate"))
	plain(put("/tool/3.0/f", btok, "x"), 401, "user should have specific permission or be a site admin")
	plain(put("/tool/3.0/f", rtok, "x"), 403, "token does not have at least one of required scope(s): [write:package]")
	plain(e.do(req{method: "PUT", path: "/api/packages/nobody/generic/tool/1.0/f", token: tok, body: "x"}), 404, "user does not exist")

	r = e.do(req{method: "GET", path: g + "/tool/1.0/tool.tar.gz", token: btok})
	require.Equal(t, 200, r.StatusCode)
	assert.Equal(t, "tarball bytes", string(r.body))
	assert.Equal(t, `attachment; filename=tool.tar.gz`, r.Header.Get("Content-Disposition"))
	r = e.do(req{method: "GET", path: g + "/tool/1.0/tool.tar.gz"})
	assert.Equal(t, 200, r.StatusCode, "anyone reads a public owner's packages")
	plain(e.do(req{method: "GET", path: g + "/tool/1.0/nope", token: tok}), 404, "package file does not exist")
	plain(e.do(req{method: "GET", path: g + "/tool/9.0/tool.tar.gz", token: tok}), 404, "package does not exist")

	// /api/v1/packages.
	r = e.do(req{method: "GET", path: "/api/v1/packages/alice?type=generic&q=OO&limit=1", token: tok})
	require.Equal(t, 200, r.StatusCode, "%s", r.body)
	assert.Equal(t, "2", r.Header.Get("X-Total-Count"))
	list := r.list(t)
	require.Len(t, list, 1)
	assert.Equal(t, "2.0", list[0]["version"], "newest first")
	assert.Equal(t, "generic", list[0]["type"])
	assert.Equal(t, "tool", list[0]["name"])
	assert.Equal(t, e.srv.URL+"/alice/-/packages/generic/tool/2.0", list[0]["html_url"])
	assert.Equal(t, "alice", list[0]["owner"].(map[string]any)["login"])
	assert.Equal(t, "alice", list[0]["creator"].(map[string]any)["login"])
	assert.Nil(t, list[0]["repository"])
	r = e.do(req{method: "GET", path: "/api/v1/packages/alice/generic/tool/1.0/files", token: tok})
	require.Equal(t, 200, r.StatusCode, "%s", r.body)
	files := r.list(t)
	require.Len(t, files, 2)
	assert.Equal(t, "tool.tar.gz", files[0]["name"])
	assert.EqualValues(t, len("tarball bytes"), files[0]["Size"])
	assert.Equal(t, oidOf([]byte("tarball bytes")), files[0]["sha256"])
	assert.Len(t, files[0]["sha512"], 128)
	assert.Len(t, files[0]["md5"], 32)
	assert.Len(t, files[0]["sha1"], 40)
	e.expect(e.do(req{method: "GET", path: "/api/v1/packages/alice/generic/tool/9.0", token: tok}), 404, "package does not exist")
	e.expect(e.do(req{method: "GET", path: "/api/v1/packages/nobody", token: tok}), 404, "user does not exist")

	// Links to one of the owner's repositories.
	e.expect(e.do(req{method: "POST", path: "/api/v1/user/repos", token: tok, body: map[string]any{"name": "src"}}), 201, "")
	e.expect(e.do(req{method: "POST", path: "/api/v1/packages/alice/generic/tool/-/link/nope", token: tok}), 404, "")
	e.expect(e.do(req{method: "POST", path: "/api/v1/packages/alice/generic/tool/-/link/src", token: btok}), 403,
		"user should have specific permission or be a site admin")
	e.expect(e.do(req{method: "POST", path: "/api/v1/packages/alice/generic/tool/-/link/src", token: tok}), 201, "")
	e.expect(e.do(req{method: "POST", path: "/api/v1/packages/alice/generic/tool/-/link/src", token: tok}), 400,
		"package is already linked to a repository")
	r = e.do(req{method: "GET", path: "/api/v1/packages/alice/generic/tool/2.0", token: tok})
	assert.Equal(t, "alice/src", r.json(t)["repository"].(map[string]any)["full_name"])
	e.expect(e.do(req{method: "POST", path: "/api/v1/packages/alice/generic/tool/-/unlink", token: tok}), 204, "")
	r = e.do(req{method: "GET", path: "/api/v1/packages/alice/generic/tool/2.0", token: tok})
	assert.Nil(t, r.json(t)["repository"])

	// Deletes: a file, a version by the registry, a version by the API.
	e.expect(e.do(req{method: "DELETE", path: g + "/tool/1.0/notes.txt", token: btok}), 401, "")
	e.expect(e.do(req{method: "DELETE", path: g + "/tool/1.0/notes.txt", token: tok}), 204, "")
	e.expect(e.do(req{method: "DELETE", path: g + "/tool/1.0", token: tok}), 204, "")
	e.expect(e.do(req{method: "DELETE", path: "/api/v1/packages/alice/generic/tool/2.0", token: btok}), 403, "")
	e.expect(e.do(req{method: "DELETE", path: "/api/v1/packages/alice/generic/tool/2.0", token: tok}), 204, "")
	e.expect(e.do(req{method: "DELETE", path: "/api/v1/packages/alice/generic/tool/2.0", token: tok}), 404, "")
	r = e.do(req{method: "GET", path: "/api/v1/packages/alice", token: tok})
	assert.Equal(t, "[]", strings.TrimSpace(string(r.body)))
	assert.Empty(t, e.blobs(), "every file's blob is gone")
	assert.EqualValues(t, 0, e.usage("alice").Packages)
}

// TestGenericPackagesPrivateOwner: a private owner's packages are 404 to
// others, and to anonymous clients.
func TestGenericPackagesPrivateOwner(t *testing.T) {
	t.Parallel()
	e := newLFSEnv(t, quota.Config{})
	e.createUser("carol")
	e.createUser("bob")
	tok, btok := e.token("carol", "all"), e.token("bob", "all")
	e.expect(e.do(req{method: "PATCH", path: "/api/v1/admin/users/carol", user: "root", pass: "rootpassword",
		body: map[string]any{"login_name": "carol", "source_id": 0, "visibility": "private"}}), 200, "")
	require.Equal(t, 201, e.do(req{method: "PUT", path: "/api/packages/carol/generic/p/1/f", token: tok, body: "x"}).StatusCode)
	for _, token := range []string{"", btok} {
		r := e.do(req{method: "GET", path: "/api/packages/carol/generic/p/1/f", token: token})
		assert.Equal(t, 404, r.StatusCode)
		e.expect(e.do(req{method: "GET", path: "/api/v1/packages/carol", token: token}), 404, "user does not exist")
	}
	r := e.do(req{method: "GET", path: "/api/v1/packages/carol", user: "root", pass: "rootpassword"})
	assert.Equal(t, 200, r.StatusCode, "site administrators see everything")
}

// TestGenericPackagesQuota: an upload that would cross the owner's
// size:assets:packages:all limit is 413 naming the owner, and stores no
// blob, no row and no usage.
func TestGenericPackagesQuota(t *testing.T) {
	t.Parallel()
	e := newLFSEnv(t, quota.Config{Enabled: true})
	e.createUser("alice")
	tok := e.token("alice", "all")
	e.limit("alice", quota.SubjectPackagesAll, 10)
	id := e.do(req{method: "GET", path: "/api/v1/user", token: tok}).json(t)["id"]
	require.Equal(t, 201, e.do(req{method: "PUT", path: "/api/packages/alice/generic/p/1/a", token: tok, body: "123456"}).StatusCode)
	r := e.do(req{method: "PUT", path: "/api/packages/alice/generic/p/2/b", token: tok, body: "12345"})
	require.Equal(t, http.StatusRequestEntityTooLarge, r.StatusCode, "%s", r.body)
	assert.Equal(t, map[string]any{"message": "quota exceeded", "user_id": id, "username": "alice"}, r.json(t))
	assert.Len(t, e.blobs(), 1)
	assert.EqualValues(t, 6, e.usage("alice").Packages)
	e.expect(e.do(req{method: "GET", path: "/api/v1/packages/alice/generic/p/2", token: tok}), 404, "package does not exist")
	require.Equal(t, 201, e.do(req{method: "PUT", path: "/api/packages/alice/generic/p/2/b", token: tok, body: "1234"}).StatusCode)
	assert.EqualValues(t, 10, e.usage("alice").Packages)
	require.Equal(t, 204, e.do(req{method: "DELETE", path: "/api/packages/alice/generic/p/1", token: tok}).StatusCode)
	assert.EqualValues(t, 4, e.usage("alice").Packages, "a deletion gives the bytes back")
}

// The package operations' deviations from the document (contract_test.go).
func init() {
	perOperation["linkPackage"] = map[int]string{http.StatusBadRequest: "a package already linked is 400 (LinkToRepository's ErrInvalidArgument); the document omits it"}
	perOperation["unlinkPackage"] = map[int]string{http.StatusNoContent: "Forgejo's UnlinkPackage answers 204; the document says 201"}
}

// TestQuotaCountsLFSAndPackages: GET /user/quota and /orgs/{org}/quota
// after LFS objects and package files of a user and of an organisation
// show their real sizes, and /quota/packages lists the files.
func TestQuotaCountsLFSAndPackages(t *testing.T) {
	t.Parallel()
	e := newLFSEnv(t, quota.Config{Enabled: true})
	e.createUser("alice")
	tok := e.token("alice", "all")
	e.expect(e.do(req{method: "POST", path: "/api/v1/orgs", token: tok, body: map[string]any{"username": "acme"}}), 201, "")
	e.expect(e.do(req{method: "POST", path: "/api/v1/user/repos", token: tok, body: map[string]any{"name": "mine", "private": true}}), 201, "")
	e.expect(e.do(req{method: "POST", path: "/api/v1/orgs/acme/repos", token: tok, body: map[string]any{"name": "theirs"}}), 201, "")
	lfsPut := func(repo string, data []byte) {
		t.Helper()
		r := e.do(req{method: "PUT", path: repo + ".git/info/lfs/objects/" + oidOf(data) + "/" + strconv.Itoa(len(data)), token: tok, body: data})
		require.Equal(t, 200, r.StatusCode, "%s", r.body)
	}
	pkgPut := func(owner, file, body string) {
		t.Helper()
		r := e.do(req{method: "PUT", path: "/api/packages/" + owner + "/generic/p/1/" + file, token: tok, body: body})
		require.Equal(t, 201, r.StatusCode, "%s", r.body)
	}
	lfsPut("/alice/mine", []byte("twelve bytes"))
	lfsPut("/alice/mine", []byte("three"))
	lfsPut("/acme/theirs", []byte("org object"))
	pkgPut("alice", "a", "1234567")
	pkgPut("alice", "b", "123")
	pkgPut("acme", "c", "12345678901")

	used := func(path string) map[string]any {
		t.Helper()
		r := e.do(req{method: "GET", path: path, token: tok})
		require.Equal(t, 200, r.StatusCode, "%s", r.body)
		return r.json(t)["used"].(map[string]any)["size"].(map[string]any)
	}
	u := used("/api/v1/user/quota")
	assert.EqualValues(t, 17, u["git"].(map[string]any)["LFS"])
	assert.EqualValues(t, 10, u["assets"].(map[string]any)["packages"].(map[string]any)["all"])
	o := used("/api/v1/orgs/acme/quota")
	assert.EqualValues(t, 10, o["git"].(map[string]any)["LFS"])
	assert.EqualValues(t, 11, o["assets"].(map[string]any)["packages"].(map[string]any)["all"])

	r := e.do(req{method: "GET", path: "/api/v1/user/quota/packages", token: tok})
	require.Equal(t, 200, r.StatusCode, "%s", r.body)
	assert.Equal(t, "2", r.Header.Get("X-Total-Count"), "one row per file, as Forgejo")
	list := r.list(t)
	require.Len(t, list, 2)
	assert.Equal(t, "p", list[0]["name"])
	assert.Equal(t, "Generic", list[0]["type"], "the display name, as Forgejo's Type.Name()")
	assert.Contains(t, list[0]["html_url"], "/-/packages/generic/p/1", "the address keeps the key")
	assert.EqualValues(t, 10, list[0]["size"])
}
