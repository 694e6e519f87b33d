package httpapi_test

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
)

// forkPushRecorder records what the push listeners are told.
type forkPushRecorder struct {
	mu  sync.Mutex
	got []string // "owner/name ref old new"
}

func (p *forkPushRecorder) AfterPush(_ context.Context, _ forge.Actor, r *forge.Repository, updates []repos.RefUpdate) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, u := range updates {
		p.got = append(p.got, r.OwnerName+"/"+r.Name+" "+u.Ref+" "+u.OldID+" "+u.NewID)
	}
}

func (p *forkPushRecorder) updates() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.got...)
}

// TestSyncForkAPI: the four sync_fork operations as Forgejo v15 answers
// them, with the fork's branch fast-forwarded by real git: not a fork
// (400), equal tips (allowed false, POST 400), behind (allowed with the
// count, POST 204 and the push listeners told), diverged (allowed false),
// the parent lacking the branch, a missing branch (404 with the branch as
// the message), a reader may look but not sync (403), archived (423).
func TestSyncForkAPI(t *testing.T) {
	t.Parallel()
	rec := &forkPushRecorder{}
	e := newEnvWith(t, func(c *repos.Config) { c.PushListeners = append(c.PushListeners, rec) })
	e.createUser("bob")
	e.createUser("carol")
	root := e.token("root", "write:repository", "write:user")
	bob := e.token("bob", "write:repository", "write:user")
	carol := e.token("carol", "write:repository")
	e.expect(e.do(req{method: "POST", path: "/api/v1/user/repos", token: root, body: map[string]any{"name": "up"}}), http.StatusCreated, "")

	wt := t.TempDir()
	runGit(t, wt, "init", "-q", "-b", "main")
	host := strings.TrimPrefix(e.srv.URL, "http://")
	runGit(t, wt, "remote", "add", "origin", "http://root:rootpassword@"+host+"/root/up.git")
	runGit(t, wt, "remote", "add", "fork", "http://bob:bob-password@"+host+"/bob/up.git")
	c1 := commit(t, wt, "a.txt")
	runGit(t, wt, "push", "-q", "origin", "main", "main:side")
	e.expect(e.do(req{method: "POST", path: "/api/v1/repos/root/up/forks", token: bob, body: map[string]any{}}), http.StatusAccepted, "")

	info := func(tok, path string) map[string]any {
		t.Helper()
		r := e.do(req{method: "GET", path: "/api/v1/repos/" + path, token: tok})
		e.expect(r, http.StatusOK, "")
		return r.json(t)
	}
	e.expect(e.do(req{method: "GET", path: "/api/v1/repos/root/up/sync_fork", token: root}), http.StatusBadRequest, "The Repo must be a fork")
	e.expect(e.do(req{method: "POST", path: "/api/v1/repos/root/up/sync_fork", token: root}), http.StatusBadRequest, "The Repo must be a fork")

	// Equal tips: nothing to sync.
	assert.Equal(t, map[string]any{"allowed": false, "fork_commit": c1, "base_commit": c1, "commits_behind": float64(0)},
		info(bob, "bob/up/sync_fork"))
	e.expect(e.do(req{method: "POST", path: "/api/v1/repos/bob/up/sync_fork", token: bob}), http.StatusBadRequest, "You can't sync this branch")

	// The parent moves on by two commits: the fork is behind.
	commit(t, wt, "b.txt")
	c3 := commit(t, wt, "c.txt")
	runGit(t, wt, "push", "-q", "origin", "main")
	want := map[string]any{"allowed": true, "fork_commit": c1, "base_commit": c3, "commits_behind": float64(2)}
	assert.Equal(t, want, info(bob, "bob/up/sync_fork"))
	assert.Equal(t, want, info(bob, "bob/up/sync_fork/main"))
	assert.Equal(t, want, info("", "bob/up/sync_fork"), "anyone who can read the public fork")

	// A missing branch: Forgejo's ctx.NotFound(err, branch).
	r := e.do(req{method: "GET", path: "/api/v1/repos/bob/up/sync_fork/nope", token: bob})
	e.expect(r, http.StatusNotFound, "nope")
	assert.Contains(t, string(r.body), "branch does not exist [repo_id: ")
	e.expect(e.do(req{method: "POST", path: "/api/v1/repos/bob/up/sync_fork/nope", token: bob}), http.StatusNotFound, "nope")

	// A reader may look, not sync; nothing moved.
	e.expect(e.do(req{method: "POST", path: "/api/v1/repos/bob/up/sync_fork", token: carol}), http.StatusForbidden, "")
	e.expect(e.do(req{method: "POST", path: "/api/v1/repos/bob/up/sync_fork"}), http.StatusUnauthorized, "")
	got, _ := e.branchCommit(t, bob, "bob/up", "main")
	assert.Equal(t, c1, got)
	assert.Empty(t, filterPrefix(rec.updates(), "bob/up "))

	// A protected branch the actor may not push to: refused as a push is.
	e.expect(e.do(req{method: "POST", path: "/api/v1/repos/bob/up/branch_protections", token: bob,
		body: map[string]any{"rule_name": "main", "enable_push": false}}), http.StatusCreated, "")
	e.expect(e.do(req{method: "POST", path: "/api/v1/repos/bob/up/sync_fork", token: bob}), http.StatusForbidden,
		"Not allowed to push to protected branch main")
	e.expect(e.do(req{method: "DELETE", path: "/api/v1/repos/bob/up/branch_protections/main", token: bob}), http.StatusNoContent, "")

	// Sync: the fork's main is the parent's, in git itself.
	e.expect(e.do(req{method: "POST", path: "/api/v1/repos/bob/up/sync_fork", token: bob}), http.StatusNoContent, "")
	got, _ = e.branchCommit(t, bob, "bob/up", "main")
	assert.Equal(t, c3, got)
	assert.Contains(t, runGit(t, wt, "ls-remote", "fork", "refs/heads/main"), c3)
	assert.Equal(t, []string{"bob/up refs/heads/main " + c1 + " " + c3}, filterPrefix(rec.updates(), "bob/up "))
	assert.Equal(t, map[string]any{"allowed": false, "fork_commit": c3, "base_commit": c3, "commits_behind": float64(0)},
		info(bob, "bob/up/sync_fork"))

	// Diverged: the fork and the parent both moved side.
	runGit(t, wt, "checkout", "-q", "-b", "side", c1)
	d1 := commit(t, wt, "fork-only.txt")
	runGit(t, wt, "push", "-q", "fork", "side")
	runGit(t, wt, "reset", "-q", "--hard", c1)
	s2 := commit(t, wt, "parent-only.txt")
	runGit(t, wt, "push", "-q", "origin", "side")
	assert.Equal(t, map[string]any{"allowed": false, "fork_commit": d1, "base_commit": s2, "commits_behind": float64(0)},
		info(bob, "bob/up/sync_fork/side"))
	e.expect(e.do(req{method: "POST", path: "/api/v1/repos/bob/up/sync_fork/side", token: bob}), http.StatusBadRequest, "You can't sync this branch")

	// A branch only the fork has.
	runGit(t, wt, "push", "-q", "fork", "side:only")
	assert.Equal(t, map[string]any{"allowed": false, "fork_commit": s2, "base_commit": "", "commits_behind": float64(0)},
		info(bob, "bob/up/sync_fork/only"))

	// Archived: POST 423; GET tells nothing.
	e.expect(e.do(req{method: "PATCH", path: "/api/v1/repos/bob/up", token: bob, body: map[string]any{"archived": true}}), http.StatusOK, "")
	e.expect(e.do(req{method: "POST", path: "/api/v1/repos/bob/up/sync_fork/side", token: bob}), http.StatusLocked, "")
	assert.Equal(t, map[string]any{"allowed": false, "fork_commit": "", "base_commit": "", "commits_behind": float64(0)},
		info(bob, "bob/up/sync_fork"))
}

func filterPrefix(l []string, prefix string) []string {
	var out []string
	for _, s := range l {
		if strings.HasPrefix(s, prefix) {
			out = append(out, s)
		}
	}
	return out
}

func init() {
	for _, op := range []string{"repoSyncForkDefault", "repoSyncForkBranch"} {
		if perOperation[op] == nil {
			perOperation[op] = map[int]string{}
		}
		perOperation[op][http.StatusLocked] = "an archived fork is 423 (Forgejo's mustNotBeArchived on the route); the document omits it"
	}
}
