package httpapi_test

import (
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge/orgs"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/forge/site"
	"github.com/hearthforge/hearth/httpapi"
	"github.com/hearthforge/hearth/mirror"
	"github.com/hearthforge/hearth/quota"
	"github.com/hearthforge/hearth/storage/gitstore"
)

// TestQuotaMigrateOwner: POST /repos/migrate checks size:repos:all of
// repo_owner, not of the doer, also when a site administrator migrates
// into another user or an organisation (Forgejo's Migrate): 413 naming
// that owner, no repository row, no git directory; the administrator's
// own quota does not stop a migration for an owner within quota.
func TestQuotaMigrateOwner(t *testing.T) {
	t.Parallel()
	b := newBase(t, filepath.Join(t.TempDir(), "hearth.db"), testSecret)
	db, clock, svc, git, blobs := b.db, b.clock, b.auth, b.git, b.blobs
	repoSvc, repoPorts, err := repos.NewWithPorts(repos.Config{Store: db.Repos(), Git: git, Blobs: blobs, Clock: clock, Quota: quotaOn})
	require.NoError(t, err)
	orgSvc, err := orgs.New(orgs.Config{Store: db.Orgs(), Clock: clock, Repos: repoSvc, Blobs: blobs})
	require.NoError(t, err)
	ms, err := mirror.New(mirror.Config{Store: db.Mirrors(), Repos: mirrorRepos{repoSvc}, Creator: site.MirrorCreator{Repos: repoSvc}, Git: gitstore.Mirror{Store: git},
		Policy: mirror.Policy{AllowLoopback: true}, Secret: []byte("0123456789abcdef0123456789abcdef"), Logger: slog.New(slog.DiscardHandler)})
	require.NoError(t, err)
	qs, err := quota.New(quota.ServiceConfig{Store: db.Quota(), Quota: quotaOn, Orgs: orgSvc})
	require.NoError(t, err)
	api, err := httpapi.New(httpapi.Config{Auth: svc, Repos: repoSvc, RepoPorts: repoPorts, Git: git, Orgs: orgSvc, Mirror: ms,
		Quota: qs})
	require.NoError(t, err)
	srv := httptest.NewServer(checked(t, api))
	t.Cleanup(srv.Close)
	e := &env{t: t, srv: srv, auth: svc, clock: clock, repos: repoSvc, api: api}
	e.createUser("alice")
	e.createUser("bob")
	root := e.token("root", "all")
	send := func(method, path string, body any, want int) resp {
		t.Helper()
		r := e.do(req{method: method, path: "/api/v1" + path, token: root, body: body})
		require.Equal(t, want, r.StatusCode, "%s %s: %s", method, path, r.body)
		return r
	}
	send("POST", "/orgs", map[string]any{"username": "acme"}, http.StatusCreated)
	send("POST", "/admin/quota/groups", map[string]any{"name": "none", "rules": []map[string]any{{"name": "r", "limit": 0, "subjects": []string{"size:repos:all"}}}}, http.StatusCreated)
	for _, owner := range []string{"root", "alice", "acme"} {
		send("POST", "/admin/users/"+owner+"/quota/groups", map[string]any{"groups": []string{"none"}}, http.StatusNoContent)
	}

	for _, owner := range []string{"alice", "acme"} {
		for _, m := range []bool{false, true} {
			body := send("POST", "/repos/migrate", map[string]any{"clone_addr": "http://127.0.0.1:1/x.git", "repo_owner": owner,
				"repo_name": "m", "mirror": m}, http.StatusRequestEntityTooLarge).json(t)
			require.Equal(t, map[string]any{"message": "quota exceeded", "user_id": body["user_id"], "username": owner}, body)
			send("GET", "/repos/"+owner+"/m", nil, http.StatusNotFound)
		}
	}
	// The quota is checked before the clone address, as Forgejo does: a
	// bad address to an owner over quota is 413, not 422.
	send("POST", "/repos/migrate", map[string]any{"clone_addr": "ftp://bad", "repo_owner": "alice", "repo_name": "m"},
		http.StatusRequestEntityTooLarge)
	assertNoGitDirs(t, git)
	// bob is within quota: the administrator's own quota does not stop it
	// (the clone then fails: 422, still nothing left).
	r := send("POST", "/repos/migrate", map[string]any{"clone_addr": "http://127.0.0.1:1/x.git", "repo_owner": "bob", "repo_name": "m"},
		http.StatusUnprocessableEntity)
	require.Contains(t, string(r.body), "Migration failed")
	send("GET", "/repos/bob/m", nil, http.StatusNotFound)
	assertNoGitDirs(t, git)
}
