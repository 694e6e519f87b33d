package httpapi_test

import (
	"log/slog"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/forge/site"
	"github.com/hearthforge/hearth/httpapi"
	"github.com/hearthforge/hearth/mirror"
	"github.com/hearthforge/hearth/quota"
	"github.com/hearthforge/hearth/storage/gitstore"
	"github.com/hearthforge/hearth/storage/memstore"
)

// TestQuotaMigrate: POST /repos/migrate checks size:repos:all of the new
// owner (the doer) before anything is cloned: 413 naming the owner, no
// repository row and no git directory.
func TestQuotaMigrate(t *testing.T) {
	t.Parallel()
	e, git, send := newQuotaMirrorEnv(t, false)
	tok := e.token("root", "all")
	send("POST", "/api/v1/admin/quota/groups", map[string]any{"name": "g", "rules": []map[string]any{{"name": "r", "limit": 0, "subjects": []string{"size:repos:all"}}}}, 201)
	send("POST", "/api/v1/admin/users/root/quota/groups", map[string]any{"groups": []string{"g"}}, 204)

	for _, m := range []bool{false, true} {
		r := e.do(req{method: "POST", path: "/api/v1/repos/migrate", token: tok, body: map[string]any{
			"clone_addr": "http://127.0.0.1:1/nobody/src.git", "repo_name": "m", "mirror": m}})
		require.Equal(t, http.StatusRequestEntityTooLarge, r.StatusCode, "mirror %v: %s", m, r.body)
		body := r.json(t)
		require.Equal(t, "quota exceeded", body["message"])
		require.Equal(t, "root", body["username"])
		send("GET", "/api/v1/repos/root/m", nil, 404)
		assertNoGitDirs(t, git)
	}
}

// TestQuotaMirrorSync: POST mirror-sync checks size:git:all of the
// repository's owner before the handler (Forgejo's EnforceQuotaAPI): 413
// naming the owner, nothing fetched.
func TestQuotaMirrorSync(t *testing.T) {
	t.Parallel()
	_, _, send := newQuotaMirrorEnv(t, true)
	send("POST", "/api/v1/user/repos", map[string]any{"name": "p"}, 201)
	// Within quota the handler runs: p is no mirror (400).
	send("POST", "/api/v1/repos/root/p/mirror-sync", nil, 400)
	send("POST", "/api/v1/admin/quota/groups", map[string]any{"name": "g", "rules": []map[string]any{{"name": "r", "limit": 0, "subjects": []string{"size:git:all"}}}}, 201)
	send("POST", "/api/v1/admin/users/root/quota/groups", map[string]any{"groups": []string{"g"}}, 204)
	body := send("POST", "/api/v1/repos/root/p/mirror-sync", nil, 413).json(t)
	require.Equal(t, "quota exceeded", body["message"])
	require.Equal(t, "root", body["username"])
}

// newQuotaMirrorEnv is an env on a memory store with quota on (quotaOn)
// and mirrors from loopback allowed; send makes a request with root's
// all-scope token, failing unless its status is want. With syncQuota the
// mirror service checks its syncs against the owner's quota.
func newQuotaMirrorEnv(t *testing.T, syncQuota bool) (*env, *gitstore.Store, func(method, path string, body any, want int) resp) {
	t.Helper()
	db := memstore.New()
	b := newBaseOn(t, db, testSecret)
	clock, svc, git, blobs := b.clock, b.auth, b.git, b.blobs
	repoSvc, repoPorts, err := repos.NewWithPorts(repos.Config{Store: db.Repos(), Git: git, Blobs: blobs, Clock: clock, Quota: quotaOn})
	require.NoError(t, err)
	log := slog.New(slog.DiscardHandler)
	mc := mirror.Config{Store: db.Mirrors(), Repos: mirrorRepos{repoSvc}, Creator: site.MirrorCreator{Repos: repoSvc},
		Git: gitstore.Mirror{Store: git}, Policy: mirror.Policy{AllowLoopback: true}, Secret: []byte("0123456789abcdef0123456789abcdef"), Logger: log}
	if syncQuota {
		mc.Quota = repoPorts
	}
	ms, err := mirror.New(mc)
	require.NoError(t, err)
	qs, err := quota.New(quota.ServiceConfig{Store: db.Quota(), Quota: quotaOn})
	require.NoError(t, err)
	e := b.serve(t, httpapi.Config{Auth: svc, Repos: repoSvc, RepoPorts: repoPorts, Git: git, Mirror: ms, Logger: log, Quota: qs})
	tok := e.token("root", "all")
	send := func(method, path string, body any, want int) resp {
		t.Helper()
		r := e.do(req{method: method, path: path, token: tok, body: body})
		require.Equal(t, want, r.StatusCode, "%s %s: %s", method, path, r.body)
		return r
	}
	return e, git, send
}
