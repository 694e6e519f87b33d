package httpapi_test

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/forgetest"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/forge/site"
	"github.com/hearthforge/hearth/httpapi"
	"github.com/hearthforge/hearth/mirror"
	"github.com/hearthforge/hearth/storage/gitstore"
	"github.com/hearthforge/hearth/storage/memstore"
)

// mirrorRepos adapts repos.Service to mirror.Repos (as forged does).
type mirrorRepos struct{ s *repos.Service }

var systemActor = forge.Actor{User: &forge.User{ID: -1, Name: "system", IsAdmin: true, IsActive: true}}

func (m mirrorRepos) RepoAccess(ctx context.Context, a forge.Actor, owner, name string) (*forge.Repository, forge.Permission, error) {
	return m.s.RepoAccess(ctx, a, owner, name)
}

func (m mirrorRepos) RepoByID(ctx context.Context, id forge.ID) (*forge.Repository, error) {
	r, _, err := m.s.RepoAccessByID(ctx, systemActor, id)
	return r, err
}

func (m mirrorRepos) Refresh(ctx context.Context, id forge.ID, updates []mirror.RefUpdate) error {
	var ups []repos.RefUpdate
	for _, u := range updates {
		ups = append(ups, repos.RefUpdate{Ref: u.Ref, OldID: u.OldID, NewID: u.NewID})
	}
	return m.s.AfterPush(ctx, systemActor, id, ups)
}

// syncBuffer is a log sink safe for concurrent writes.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// newMirrorEnv is newEnv on one memstore (the mirror rows reference the
// repository rows) with the mirror service and policy p.
func newMirrorEnv(t *testing.T, p mirror.Policy, logs *syncBuffer, listeners ...repos.PushListener) (*env, *gitstore.Store) {
	t.Helper()
	e, git, _ := newMirrorEnvDB(t, p, logs, listeners...)
	return e, git
}

// newMirrorEnvDB is newMirrorEnv that also returns its store.
func newMirrorEnvDB(t *testing.T, p mirror.Policy, logs *syncBuffer, listeners ...repos.PushListener) (*env, *gitstore.Store, *memstore.Store) {
	t.Helper()
	db := memstore.New()
	b := newBaseOn(t, db, testSecret)
	clock, svc, git, blobs := b.clock, b.auth, b.git, b.blobs
	repoSvc, err := repos.New(repos.Config{Store: db.Repos(), Git: git, Blobs: blobs, Clock: clock, PushListeners: listeners,
		PullMirrors: site.MirrorFields{Mirrors: mirror.NewPullMirrorReader(db.Mirrors())}})
	require.NoError(t, err)
	log := slog.New(slog.NewTextHandler(logs, nil))
	ms, err := mirror.New(mirror.Config{Store: db.Mirrors(), Repos: mirrorRepos{repoSvc}, Creator: site.MirrorCreator{Repos: repoSvc},
		Git: gitstore.Mirror{Store: git}, Policy: p, Secret: []byte("0123456789abcdef0123456789abcdef"), Logger: log})
	require.NoError(t, err)
	return b.serve(t, httpapi.Config{Auth: svc, Repos: repoSvc, Git: git, Mirror: ms, Logger: log}), git, db
}

func runGit(t *testing.T, dir string, args ...string) string { return forgetest.Git(t, dir, args...) }

func commit(t *testing.T, dir, name string) string {
	require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(name), 0o644))
	runGit(t, dir, "add", name)
	runGit(t, dir, "commit", "-q", "-m", name)
	return runGit(t, dir, "rev-parse", "HEAD")
}

func (e *env) branchCommit(t *testing.T, token, repo, branch string) (string, int) {
	r := e.do(req{method: "GET", path: "/api/v1/repos/" + repo + "/branches/" + branch, token: token})
	if r.StatusCode != http.StatusOK {
		return "", r.StatusCode
	}
	return r.json(t)["commit"].(map[string]any)["id"].(string), r.StatusCode
}

func TestMirrorAPIPullAndPush(t *testing.T) {
	t.Parallel()
	const secret = "rootpassword" // the upstream's credentials
	logs := &syncBuffer{}
	up := newEnv(t)
	upTok := up.token("root", "write:repository", "write:user")
	for _, name := range []string{"src", "dst"} {
		up.expect(up.do(req{method: "POST", path: "/api/v1/user/repos", token: upTok,
			body: map[string]any{"name": name, "private": true}}), http.StatusCreated, "")
	}
	wt := t.TempDir()
	runGit(t, wt, "init", "-q", "-b", "main")
	pushURL := strings.Replace(up.srv.URL, "http://", "http://root:"+secret+"@", 1) + "/root/src.git"
	runGit(t, wt, "remote", "add", "origin", pushURL)
	c1 := commit(t, wt, "a.txt")
	runGit(t, wt, "push", "-q", "origin", "main", "main:gone")

	// Loopback is refused by default: 422, nothing created.
	strict, strictGit := newMirrorEnv(t, mirror.Policy{}, logs)
	stTok := strict.token("root", "write:repository", "write:user")
	r := strict.do(req{method: "POST", path: "/api/v1/repos/migrate", token: stTok, body: map[string]any{
		"clone_addr": up.srv.URL + "/root/src.git", "repo_name": "m", "auth_username": "root", "auth_password": secret}})
	strict.expect(r, http.StatusUnprocessableEntity, mirror.MsgBlocked)
	strict.expect(strict.do(req{method: "GET", path: "/api/v1/repos/root/m", token: stTok}), http.StatusNotFound, "")
	assertNoGitDirs(t, strictGit)

	down, downGit := newMirrorEnv(t, mirror.Policy{AllowLoopback: true}, logs)
	tok := down.token("root", "write:repository", "write:user")
	migrate := func(body map[string]any) resp {
		return down.do(req{method: "POST", path: "/api/v1/repos/migrate", token: tok, body: body})
	}
	var answers []string

	// Wrong credentials, a non-git remote, an unreachable one: 422, no row,
	// no directory.
	for _, body := range []map[string]any{
		{"clone_addr": up.srv.URL + "/root/src.git", "repo_name": "m", "auth_username": "root", "auth_password": "nope-wrong-1"},
		{"clone_addr": up.srv.URL + "/api/v1/version", "repo_name": "m"},
		{"clone_addr": "http://127.0.0.1:1/x.git", "repo_name": "m"},
		{"clone_addr": "http://root:" + secret + "@" + strings.TrimPrefix(up.srv.URL, "http://") + "/root/src.git", "repo_name": "m"},
	} {
		r := migrate(body)
		assert.Equal(t, http.StatusUnprocessableEntity, r.StatusCode, "%v: %s", body["clone_addr"], r.body)
		answers = append(answers, string(r.body))
		down.expect(down.do(req{method: "GET", path: "/api/v1/repos/root/m", token: tok}), http.StatusNotFound, "")
	}
	assertNoGitDirs(t, downGit)

	// A pull mirror with credentials.
	r = migrate(map[string]any{"clone_addr": up.srv.URL + "/root/src.git", "repo_name": "m", "mirror": true,
		"auth_username": "root", "auth_password": secret})
	down.expect(r, http.StatusCreated, "")
	answers = append(answers, string(r.body))
	got, _ := down.branchCommit(t, tok, "root/m", "main")
	assert.Equal(t, c1, got)
	repo := down.do(req{method: "GET", path: "/api/v1/repos/root/m", token: tok}).json(t)
	assert.Equal(t, true, repo["mirror"])
	assert.Equal(t, "8h0m0s", repo["mirror_interval"])
	down.expect(down.do(req{method: "PATCH", path: "/api/v1/repos/root/m", token: tok,
		body: map[string]any{"mirror_interval": "1m"}}), http.StatusUnprocessableEntity, "")
	down.expect(down.do(req{method: "PATCH", path: "/api/v1/repos/root/m", token: tok,
		body: map[string]any{"mirror_interval": "2h"}}), http.StatusOK, "")
	repo = down.do(req{method: "GET", path: "/api/v1/repos/root/m", token: tok}).json(t)
	assert.Equal(t, "2h0m0s", repo["mirror_interval"])

	// Upstream moves on and deletes a branch.
	c2 := commit(t, wt, "b.txt")
	runGit(t, wt, "push", "-q", "origin", "main", ":gone")
	r = down.do(req{method: "PATCH", path: "/api/v1/repos/root/m", token: tok, body: map[string]any{"enable_prune": false}})
	down.expect(r, http.StatusOK, "")
	down.expect(down.do(req{method: "POST", path: "/api/v1/repos/root/m/mirror-sync", token: tok}), http.StatusOK, "")
	got, _ = down.branchCommit(t, tok, "root/m", "main")
	assert.Equal(t, c2, got)
	_, status := down.branchCommit(t, tok, "root/m", "gone")
	assert.Equal(t, http.StatusOK, status, "kept without prune")
	down.expect(down.do(req{method: "PATCH", path: "/api/v1/repos/root/m", token: tok, body: map[string]any{"enable_prune": true}}), http.StatusOK, "")
	down.expect(down.do(req{method: "POST", path: "/api/v1/repos/root/m/mirror-sync", token: tok}), http.StatusOK, "")
	_, status = down.branchCommit(t, tok, "root/m", "gone")
	assert.Equal(t, http.StatusNotFound, status, "pruned")

	// A repository that is not a mirror: mirror-sync 400, the mirror fields
	// of an edit ignored, even an unparsable interval.
	down.expect(down.do(req{method: "POST", path: "/api/v1/user/repos", token: tok, body: map[string]any{"name": "plain"}}), http.StatusCreated, "")
	down.expect(down.do(req{method: "POST", path: "/api/v1/repos/root/plain/mirror-sync", token: tok}), http.StatusBadRequest, "Repository is not a mirror")
	down.expect(down.do(req{method: "PATCH", path: "/api/v1/repos/root/plain", token: tok,
		body: map[string]any{"mirror_interval": "bogus"}}), http.StatusOK, "")

	// A push mirror of the mirror to the upstream's dst.
	r = down.do(req{method: "POST", path: "/api/v1/repos/root/m/push_mirrors", token: tok, body: map[string]any{
		"remote_address": up.srv.URL + "/root/dst.git", "remote_username": "root", "remote_password": secret, "interval": "8h"}})
	down.expect(r, http.StatusOK, "")
	answers = append(answers, string(r.body))
	name := r.json(t)["remote_name"].(string)
	r = down.do(req{method: "GET", path: "/api/v1/repos/root/m/push_mirrors", token: tok})
	down.expect(r, http.StatusOK, "")
	answers = append(answers, string(r.body))
	down.expect(down.do(req{method: "POST", path: "/api/v1/repos/root/m/push_mirrors-sync", token: tok}), http.StatusOK, "")
	got, _ = up.branchCommit(t, upTok, "root/dst", "main")
	assert.Equal(t, c2, got, "the push arrived")
	r = down.do(req{method: "GET", path: "/api/v1/repos/root/m/push_mirrors/" + name, token: tok})
	down.expect(r, http.StatusOK, "")
	answers = append(answers, string(r.body))

	// Archived: its push mirrors push nowhere.
	c3 := commit(t, wt, "c.txt")
	runGit(t, wt, "push", "-q", "origin", "main")
	down.expect(down.do(req{method: "POST", path: "/api/v1/repos/root/m/mirror-sync", token: tok}), http.StatusOK, "")
	down.expect(down.do(req{method: "PATCH", path: "/api/v1/repos/root/m", token: tok, body: map[string]any{"archived": true}}), http.StatusOK, "")
	r = down.do(req{method: "POST", path: "/api/v1/repos/root/m/push_mirrors-sync", token: tok})
	assert.NotEqual(t, http.StatusOK, r.StatusCode, "%s", r.body)
	got, _ = up.branchCommit(t, upTok, "root/dst", "main")
	assert.Equal(t, c2, got, "an archived repository pushes nowhere")
	down.expect(down.do(req{method: "PATCH", path: "/api/v1/repos/root/m", token: tok, body: map[string]any{"archived": false}}), http.StatusOK, "")
	down.expect(down.do(req{method: "POST", path: "/api/v1/repos/root/m/push_mirrors-sync", token: tok}), http.StatusOK, "")
	got, _ = up.branchCommit(t, upTok, "root/dst", "main")
	assert.Equal(t, c3, got)

	// Convert: a normal repository, mirror-sync refused afterwards.
	down.expect(down.do(req{method: "POST", path: "/api/v1/repos/root/m/convert", token: tok}), http.StatusOK, "")
	down.expect(down.do(req{method: "POST", path: "/api/v1/repos/root/m/mirror-sync", token: tok}), http.StatusBadRequest, "Repository is not a mirror")
	down.expect(down.do(req{method: "DELETE", path: "/api/v1/repos/root/m/push_mirrors/" + name, token: tok}), http.StatusNoContent, "")

	// The credentials are in no answer and no log line.
	all := strings.Join(answers, "\n") + logs.String()
	for _, s := range []string{secret, "nope-wrong-1"} {
		assert.NotContains(t, all, s)
	}
}

// assertNoGitDirs checks that no repository directory is left in the store.
func assertNoGitDirs(t *testing.T, s *gitstore.Store) {
	t.Helper()
	entries, _ := os.ReadDir(s.Root())
	for _, e := range entries {
		assert.False(t, strings.HasSuffix(e.Name(), ".git"), "left: %s", e.Name())
	}
	tmp, _ := os.ReadDir(filepath.Join(s.Root(), ".tmp"))
	assert.Empty(t, tmp)
}

func init() {
	allowUndocumented(map[string]map[int]string{
		"repoPushMirrorSync": {http.StatusLocked: "an archived repository is 423 `<repo> is archived` (Forgejo's mustNotBeArchived on the route); the document omits it"},
		"repoMirrorSync":     {http.StatusBadRequest: "Forgejo's MirrorSync answers 400 `Repository is not a mirror` / `Mirror feature is disabled`; the document omits it"},
	})
}
