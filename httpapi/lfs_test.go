package httpapi_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/quota"
)

// gitLFS runs git (with git-lfs installed in its own global config) in dir.
type gitLFS struct {
	t    *testing.T
	home string
}

func newGitLFS(t *testing.T) *gitLFS {
	t.Helper()
	if _, err := exec.LookPath("git-lfs"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("git-lfs is not installed; .ci/run installs it")
		}
		t.Skip("git-lfs is not installed (apt-get install git-lfs; .ci/run installs it)")
	}
	g := &gitLFS{t: t, home: t.TempDir()}
	g.run(g.home, "lfs", "install", "--skip-repo")
	return g
}

func (g *gitLFS) run(dir string, args ...string) string {
	g.t.Helper()
	out, err := g.try(dir, args...)
	require.NoError(g.t, err, "git %v: %s", args, out)
	return out
}

func (g *gitLFS) try(dir string, args ...string) (string, error) {
	cmd := exec.Command("git", append([]string{"-c", "user.name=T", "-c", "user.email=t@example.com",
		"-c", "init.defaultBranch=main", "-c", "lfs.locksverify=false"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+filepath.Join(g.home, ".gitconfig"),
		"HOME="+g.home, "GIT_TERMINAL_PROMPT=0", "GIT_ASKPASS=/bin/false")
	out, err := cmd.CombinedOutput()
	return strings.TrimSpace(string(out)), err
}

func oidOf(b []byte) string {
	h := sha256.Sum256(b)
	return fmt.Sprintf("%x", h[:])
}

// TestLFSRealClientPushClone pushes a repository with LFS-tracked files
// with the real git-lfs client over smart HTTP, clones it elsewhere, and
// finds the files' content; the objects are rows of the repository and
// blobs of the store, and the owner's LFS usage is their size.
func TestLFSRealClientPushClone(t *testing.T) {
	t.Parallel()
	e := newLFSEnv(t, quota.Config{Enabled: true})
	g := newGitLFS(t)
	e.createUser("alice")
	tok := e.token("alice", "all")
	e.expect(e.do(req{method: "POST", path: "/api/v1/user/repos", token: tok, body: map[string]any{"name": "media", "private": true}}), 201, "")
	remote := strings.Replace(e.srv.URL, "http://", "http://alice:"+tok+"@", 1) + "/alice/media.git"

	src := t.TempDir()
	big, small := randomBytes(t, 300<<10), []byte("small lfs object\n")
	g.run(src, "init", ".")
	g.run(src, "lfs", "track", "*.bin")
	require.NoError(t, os.WriteFile(filepath.Join(src, "big.bin"), big, 0o644))
	require.NoError(t, os.MkdirAll(filepath.Join(src, "sub"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(src, "sub", "small.bin"), small, 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(src, "README"), []byte("plain\n"), 0o644))
	g.run(src, "add", ".")
	g.run(src, "commit", "-m", "lfs files")
	g.run(src, "push", remote, "main")

	// The objects are the repository's rows and the store's blobs.
	list, n, err := e.lfs.Objects(context.Background(), forge.Actor{User: &forge.User{Name: "root", IsAdmin: true, IsActive: true}}, "alice", "media", forge.ListOptions{})
	require.NoError(t, err)
	assert.EqualValues(t, 2, n)
	oids := []string{list[0].Oid, list[1].Oid}
	assert.ElementsMatch(t, []string{oidOf(big), oidOf(small)}, oids)
	assert.ElementsMatch(t, []string{"lfs-" + oidOf(big), "lfs-" + oidOf(small)}, e.blobs())
	assert.EqualValues(t, len(big)+len(small), e.usage("alice").LFS)

	// A second push of the same objects uploads nothing.
	require.NoError(t, os.WriteFile(filepath.Join(src, "README"), []byte("plain 2\n"), 0o644))
	g.run(src, "commit", "-am", "again")
	g.run(src, "push", remote, "main")
	assert.EqualValues(t, len(big)+len(small), e.usage("alice").LFS)

	dst := filepath.Join(t.TempDir(), "clone")
	g.run(filepath.Dir(dst), "clone", remote, dst)
	got, err := os.ReadFile(filepath.Join(dst, "big.bin"))
	require.NoError(t, err)
	assert.True(t, bytes.Equal(big, got), "big.bin comes back whole (%d bytes, want %d)", len(got), len(big))
	got, err = os.ReadFile(filepath.Join(dst, "sub", "small.bin"))
	require.NoError(t, err)
	assert.Equal(t, small, got)
	ls := g.run(dst, "lfs", "ls-files")
	assert.Contains(t, ls, "big.bin")
	assert.Contains(t, ls, "sub/small.bin")

	// A stranger cannot fetch the private repository's objects.
	e.createUser("mallory")
	mtok := e.token("mallory", "all")
	other := filepath.Join(t.TempDir(), "stolen")
	_, err = g.try(filepath.Dir(other), "clone", strings.Replace(remote, "alice:"+tok, "mallory:"+mtok, 1), other)
	assert.Error(t, err)
}

// TestLFSRealClientOverQuota: a push whose LFS objects would cross the
// owner's size:git:lfs limit is refused by the batch API with the quota
// body, and nothing is stored; under the limit the same client succeeds.
func TestLFSRealClientOverQuota(t *testing.T) {
	t.Parallel()
	e := newLFSEnv(t, quota.Config{Enabled: true})
	g := newGitLFS(t)
	e.createUser("alice")
	tok := e.token("alice", "all")
	e.limit("alice", quota.SubjectGitLFS, 1000)
	e.expect(e.do(req{method: "POST", path: "/api/v1/user/repos", token: tok, body: map[string]any{"name": "media"}}), 201, "")
	remote := strings.Replace(e.srv.URL, "http://", "http://alice:"+tok+"@", 1) + "/alice/media.git"

	src := t.TempDir()
	g.run(src, "init", ".")
	g.run(src, "lfs", "track", "*.bin")
	require.NoError(t, os.WriteFile(filepath.Join(src, "a.bin"), randomBytes(t, 600), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(src, "b.bin"), randomBytes(t, 600), 0o644))
	g.run(src, "add", ".")
	g.run(src, "commit", "-m", "too big together")
	out, err := g.try(src, "push", remote, "main")
	require.Error(t, err, "%s", out)
	assert.Contains(t, out, "quota exceeded")
	assert.Empty(t, e.blobs(), "nothing stored")
	assert.EqualValues(t, 0, e.usage("alice").LFS)
	r := e.do(req{method: "GET", path: "/api/v1/repos/alice/media/branches", token: tok})
	assert.Equal(t, "[]", strings.TrimSpace(string(r.body)), "no ref moved: git-lfs refuses before git pushes")

	g.run(src, "rm", "b.bin")
	g.run(src, "commit", "--amend", "-m", "fits")
	g.run(src, "push", remote, "main")
	assert.EqualValues(t, 600, e.usage("alice").LFS)
	assert.Len(t, e.blobs(), 1)
}

// lfsDo sends an LFS request with the media types git-lfs sends.
func (e *lfsEnv) lfsDo(method, path, token string, body any) resp {
	e.t.Helper()
	h := map[string]string{"Accept": "application/vnd.git-lfs+json", "Content-Type": "application/vnd.git-lfs+json"}
	return e.do(req{method: method, path: path, token: token, body: body, header: h})
}

func batch(op string, objs ...map[string]any) map[string]any {
	return map[string]any{"operation": op, "transfers": []string{"basic"}, "objects": objs}
}

func lfsPtr(oid string, size int) map[string]any { return map[string]any{"oid": oid, "size": size} }

// TestLFSProtocol checks the batch API and transfer routes at the HTTP
// boundary: answers, per-object errors, permissions, media types, and
// that a wrong upload stores nothing.
func TestLFSProtocol(t *testing.T) {
	t.Parallel()
	e := newLFSEnv(t, quota.Config{})
	e.createUser("alice")
	e.createUser("bob")
	e.createUser("mallory")
	tok, btok, mtok := e.token("alice", "all"), e.token("bob", "all"), e.token("mallory", "all")
	rtok := e.token("alice", "read:repository")
	e.expect(e.do(req{method: "POST", path: "/api/v1/user/repos", token: tok, body: map[string]any{"name": "p", "private": true}}), 201, "")
	e.expect(e.do(req{method: "PUT", path: "/api/v1/repos/alice/p/collaborators/bob", token: tok, body: map[string]any{"permission": "read"}}), 204, "")
	const base = "/alice/p.git/info/lfs"
	data := []byte("hello lfs")
	oid := oidOf(data)

	lfsErr := func(r resp, status int, msg string) {
		t.Helper()
		require.Equal(t, status, r.StatusCode, "body: %s", r.body)
		assert.Equal(t, "application/vnd.git-lfs+json", r.Header.Get("Content-Type"))
		assert.Equal(t, msg, r.json(t)["message"])
	}

	// Upload batch: the object is to be uploaded and verified.
	r := e.lfsDo("POST", base+"/objects/batch", tok, batch("upload", lfsPtr(oid, len(data)), lfsPtr("nothex", 1), lfsPtr(oid[:63]+"A", 1)))
	require.Equal(t, 200, r.StatusCode, "%s", r.body)
	assert.Equal(t, "application/vnd.git-lfs+json", r.Header.Get("Content-Type"))
	objs := r.json(t)["objects"].([]any)
	require.Len(t, objs, 3)
	first := objs[0].(map[string]any)
	actions := first["actions"].(map[string]any)
	up := actions["upload"].(map[string]any)
	assert.Equal(t, e.srv.URL+"/alice/p.git/info/lfs/objects/"+oid+"/9", up["href"])
	assert.Equal(t, "token "+tok, up["header"].(map[string]any)["Authorization"])
	verify := actions["verify"].(map[string]any)
	assert.Equal(t, e.srv.URL+"/alice/p.git/info/lfs/verify", verify["href"])
	assert.Equal(t, "application/vnd.git-lfs+json", verify["header"].(map[string]any)["Accept"])
	for _, o := range objs[1:] {
		assert.Equal(t, map[string]any{"code": float64(422), "message": "Oid or size are invalid"}, o.(map[string]any)["error"])
	}

	// A wrong body stores nothing.
	lfsErr(e.do(req{method: "PUT", path: base + "/objects/" + oid + "/9", token: tok, body: "hello LFS"}), 422, "content hash does not match OID")
	lfsErr(e.do(req{method: "PUT", path: base + "/objects/" + oid + "/9", token: tok, body: "hello lfs!"}), 422, "content size does not match")
	lfsErr(e.do(req{method: "PUT", path: base + "/objects/" + oid + "/9", token: tok, body: "hello"}), 422, "content size does not match")
	lfsErr(e.do(req{method: "PUT", path: base + "/objects/xyz/9", token: tok, body: "hello lfs"}), 422, "Unprocessable Entity")
	assert.Empty(t, e.blobs())
	lfsErr(e.lfsDo("POST", base+"/verify", tok, lfsPtr(oid, 9)), 404, "Not Found")

	// Readers may not upload; strangers do not see the repository;
	// anonymous clients are asked for credentials.
	lfsErr(e.do(req{method: "PUT", path: base + "/objects/" + oid + "/9", token: btok, body: data}), 401, "Unauthorized")
	lfsErr(e.do(req{method: "PUT", path: base + "/objects/" + oid + "/9", token: rtok, body: data}), 403,
		"token does not have at least one of required scope(s): [write:repository]")
	lfsErr(e.do(req{method: "PUT", path: base + "/objects/" + oid + "/9", token: mtok, body: data}), 404, "Not Found")
	anon := e.lfsDo("POST", base+"/objects/batch", "", batch("download", lfsPtr(oid, 9)))
	lfsErr(anon, 401, "Unauthorized")
	assert.Equal(t, `Basic realm="gitea-lfs"`, anon.Header.Get("WWW-Authenticate"))
	lfsErr(e.lfsDo("POST", base+"/objects/batch", mtok, batch("download", lfsPtr(oid, 9))), 404, "Not Found")
	lfsErr(e.lfsDo("POST", "/alice/nope.git/info/lfs/objects/batch", tok, batch("download", lfsPtr(oid, 9))), 404, "Not Found")
	assert.Empty(t, e.blobs())

	// The writer uploads; the reader downloads, by batch and by GET.
	r = e.do(req{method: "PUT", path: base + "/objects/" + oid + "/9", token: tok, body: data})
	require.Equal(t, 200, r.StatusCode, "%s", r.body)
	lfsErr(e.lfsDo("POST", base+"/verify", tok, lfsPtr(oid, 9)), 200, "OK")
	lfsErr(e.lfsDo("POST", base+"/verify", tok, lfsPtr(oid, 10)), 404, "Not Found")
	r = e.lfsDo("POST", base+"/objects/batch", btok, batch("download", lfsPtr(oid, 9), lfsPtr(oid, 10), lfsPtr(oidOf([]byte("x")), 1)))
	require.Equal(t, 200, r.StatusCode, "%s", r.body)
	objs = r.json(t)["objects"].([]any)
	dl := objs[0].(map[string]any)["actions"].(map[string]any)["download"].(map[string]any)
	assert.Equal(t, e.srv.URL+"/alice/p.git/info/lfs/objects/"+oid, dl["href"])
	assert.Equal(t, map[string]any{"code": float64(422), "message": fmt.Sprintf("Object %s is not 10 bytes", oid)}, objs[1].(map[string]any)["error"])
	assert.Equal(t, map[string]any{"code": float64(404), "message": "Not Found"}, objs[2].(map[string]any)["error"])
	r = e.do(req{method: "GET", path: base + "/objects/" + oid, token: btok})
	require.Equal(t, 200, r.StatusCode)
	assert.Equal(t, data, r.body)
	r = e.do(req{method: "GET", path: base + "/objects/" + oid, token: btok, header: map[string]string{"Range": "bytes=6-"}})
	require.Equal(t, http.StatusPartialContent, r.StatusCode)
	assert.Equal(t, "lfs", string(r.body))
	lfsErr(e.do(req{method: "GET", path: base + "/objects/" + oid, token: mtok}), 404, "Not Found")

	// An upload batch of an object held has no actions.
	r = e.lfsDo("POST", base+"/objects/batch", tok, batch("upload", lfsPtr(oid, 9)))
	assert.Equal(t, []any{map[string]any{"oid": oid, "size": float64(9)}}, r.json(t)["objects"])

	// Media type, operation, other routes.
	lfsErr(e.do(req{method: "POST", path: base + "/objects/batch", token: tok, body: batch("download")}), 415, "Unsupported Media Type")
	lfsErr(e.lfsDo("POST", base+"/objects/batch", tok, batch("delete", lfsPtr(oid, 9))), 422, `unknown operation "delete"`)
	lfsErr(e.lfsDo("POST", base+"/locks/verify", tok, map[string]any{}), 404, "Not Found")
}

// TestLFSQuota: with a size:git:lfs limit, a batch upload or PUT that would
// cross it is 413 with the owner, and stores no blob, row or usage; the
// limit may be reached, not crossed.
func TestLFSQuota(t *testing.T) {
	t.Parallel()
	e := newLFSEnv(t, quota.Config{Enabled: true})
	e.createUser("alice")
	tok := e.token("alice", "all")
	e.limit("alice", quota.SubjectGitLFS, 10)
	e.expect(e.do(req{method: "POST", path: "/api/v1/user/repos", token: tok, body: map[string]any{"name": "q"}}), 201, "")
	const base = "/alice/q.git/info/lfs"
	six, five, one := []byte("sixsix"), []byte("five5"), []byte("1")
	var aliceID float64
	u := e.do(req{method: "GET", path: "/api/v1/user", token: tok}).json(t)
	aliceID = u["id"].(float64)
	over := func(r resp) {
		t.Helper()
		require.Equal(t, http.StatusRequestEntityTooLarge, r.StatusCode, "body: %s", r.body)
		assert.Equal(t, "application/vnd.git-lfs+json", r.Header.Get("Content-Type"))
		assert.Equal(t, map[string]any{"message": "quota exceeded", "user_id": aliceID, "username": "alice"}, r.json(t))
	}
	over(e.lfsDo("POST", base+"/objects/batch", tok, batch("upload", lfsPtr(oidOf(six), 6), lfsPtr(oidOf(five), 5))))
	r := e.do(req{method: "PUT", path: base + "/objects/" + oidOf(five) + "/5", token: tok, body: five})
	require.Equal(t, 200, r.StatusCode, "%s", r.body)
	over(e.do(req{method: "PUT", path: base + "/objects/" + oidOf(six) + "/6", token: tok, body: six}))
	assert.Equal(t, []string{"lfs-" + oidOf(five)}, e.blobs())
	assert.EqualValues(t, 5, e.usage("alice").LFS)
	r = e.lfsDo("POST", base+"/objects/batch", tok, batch("download", lfsPtr(oidOf(six), 6)))
	assert.Equal(t, float64(404), r.json(t)["objects"].([]any)[0].(map[string]any)["error"].(map[string]any)["code"], "no row")

	// Reaching the limit is allowed; then nothing more, not even a byte.
	five2 := []byte("FIVE5")
	require.Equal(t, 200, e.do(req{method: "PUT", path: base + "/objects/" + oidOf(five2) + "/5", token: tok, body: five2}).StatusCode)
	assert.EqualValues(t, 10, e.usage("alice").LFS)
	over(e.do(req{method: "PUT", path: base + "/objects/" + oidOf(one) + "/1", token: tok, body: one}))
	r = e.do(req{method: "PUT", path: base + "/objects/" + oidOf(five) + "/5", token: tok, body: five})
	assert.Equal(t, 200, r.StatusCode, "sending an object the repository holds again adds nothing: %s", r.body)
	r = e.do(req{method: "PUT", path: base + "/objects/" + oidOf(five) + "/5", token: tok, body: "fivE5"})
	assert.Equal(t, 422, r.StatusCode, "and is still checked: %s", r.body)
	assert.EqualValues(t, 10, e.usage("alice").LFS)
	over(e.lfsDo("POST", base+"/objects/batch", tok, batch("upload", lfsPtr(oidOf(one), 1))))
	assert.Len(t, e.blobs(), 2)
}
