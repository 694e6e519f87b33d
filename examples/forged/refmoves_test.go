package main

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// waitFor polls cond until it holds, failing the test with what after a
// minute: the consequences of a ref move run from the outbox, after the
// request that moved it.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within a minute", what)
		}
		<-tick.C
	}
}

const zeroID = "0000000000000000000000000000000000000000"

// hookLog is a webhook receiver that keeps each push, create and delete
// delivery as one line: "<repo> push <ref> <before> <after> <pusher>",
// "<repo> create <ref_type> <ref> <sha> <sender>", "<repo> delete
// <ref_type> <ref> <sender>".
type hookLog struct {
	mu   sync.Mutex
	got  []string
	seen int // lines taken by expect
	srv  *httptest.Server
}

func newHookLog(t *testing.T) *hookLog {
	l := &hookLog{}
	l.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw, _ := io.ReadAll(r.Body)
		var p struct {
			Ref, Before, After, SHA string
			RefType                 string `json:"ref_type"`
			Repository              struct {
				FullName string `json:"full_name"`
			}
			Pusher, Sender struct{ Login string }
		}
		if err := json.Unmarshal(raw, &p); err != nil {
			t.Errorf("delivery: %v: %s", err, raw)
			return
		}
		line := p.Repository.FullName + " " + r.Header.Get("X-Forgejo-Event") + " "
		switch r.Header.Get("X-Forgejo-Event") {
		case "push":
			line += strings.Join([]string{p.Ref, p.Before, p.After, p.Pusher.Login}, " ")
		case "create":
			line += strings.Join([]string{p.RefType, p.Ref, p.SHA, p.Sender.Login}, " ")
		case "delete":
			line += strings.Join([]string{p.RefType, p.Ref, p.Sender.Login}, " ")
		default:
			return
		}
		l.mu.Lock()
		l.got = append(l.got, line)
		l.mu.Unlock()
	}))
	t.Cleanup(l.srv.Close)
	return l
}

// expect waits for the deliveries of one operation, want in any order,
// and takes them; a delivery more than want shows at the next expect.
func (l *hookLog) expect(t *testing.T, op string, want []string) {
	t.Helper()
	var got []string
	waitFor(t, op+": its webhook deliveries", func() bool {
		l.mu.Lock()
		defer l.mu.Unlock()
		if len(l.got)-l.seen < len(want) {
			return false
		}
		got = slices.Clone(l.got[l.seen : l.seen+len(want)])
		l.seen += len(want)
		return true
	})
	assert.ElementsMatch(t, want, got, "%s", op)
}

// refs is git ls-remote of url: each branch and tag and the object it
// holds (an annotated tag's own id, as a push reports it).
func refs(t *testing.T, url string) map[string]string {
	t.Helper()
	out := mustGit(t, t.TempDir(), "ls-remote", "--heads", "--tags", url)
	m := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		id, ref, ok := strings.Cut(line, "\t")
		if ok && !strings.HasSuffix(ref, "^{}") {
			m[ref] = id
		}
	}
	return m
}

// pushEvents are the deliveries a git push changing before into after by
// pusher makes in Forgejo: for a new ref create and push (before all
// zeros), for a removed ref delete, for a moved ref push.
func pushEvents(repo, pusher string, before, after map[string]string) []string {
	var names []string
	for r := range before {
		names = append(names, r)
	}
	for r := range after {
		if _, ok := before[r]; !ok {
			names = append(names, r)
		}
	}
	sort.Strings(names)
	var out []string
	for _, ref := range names {
		old, now := before[ref], after[ref]
		kind, short := "branch", strings.TrimPrefix(ref, "refs/heads/")
		if s, ok := strings.CutPrefix(ref, "refs/tags/"); ok {
			kind, short = "tag", s
		}
		switch {
		case old == now:
		case old == "":
			out = append(out, fmt.Sprintf("%s create %s %s %s %s", repo, kind, short, now, pusher),
				fmt.Sprintf("%s push %s %s %s %s", repo, ref, zeroID, now, pusher))
		case now == "":
			out = append(out, fmt.Sprintf("%s delete %s %s %s", repo, kind, short, pusher))
		default:
			out = append(out, fmt.Sprintf("%s push %s %s %s %s", repo, ref, old, now, pusher))
		}
	}
	return out
}

// TestEveryRefMoveEmitsPushEvents drives every operation that moves a
// branch or tag through the real server and git, and checks that each
// records the event a git push making the same change records: the
// webhooks push, create and delete with the refs, the old and new ids
// (read with git ls-remote) and the actor as pusher. The other
// consequences (size, pull requests, push mirrors) consume that same
// event (TestRefMoveConsequences). Before the one place (recordRefMoves),
// the contents API, the branch and tag APIs, releases, merges, update-branch
// and sync_fork sent no push webhooks. diffpatch records its commit as
// a push of its branch; git notes (the API's and pushed ones) send
// nothing, as in Forgejo.
func TestEveryRefMoveEmitsPushEvents(t *testing.T) {
	t.Parallel()
	hooks := newHookLog(t)
	s := start(t, filepath.Join(t.TempDir(), "data"), map[string]string{
		"FORGED_ADMIN_USER": "boss", "FORGED_ADMIN_PASSWORD": "boss-password"},
		"-webhook-allowed-hosts", "loopback", "-allow-local-migrations")
	host := strings.TrimPrefix(s.url, "http://")
	for _, u := range []string{"alice", "bob"} {
		r := s.do(t, call{method: "POST", path: "/api/v1/admin/users", user: "boss", pass: "boss-password",
			body: map[string]any{"username": u, "email": u + "@example.com", "password": u + "-password", "must_change_password": false}})
		require.Equal(t, 201, r.status, "%s", r.raw)
	}
	as := func(user, method, path string, body any) reply {
		t.Helper()
		return s.do(t, call{method: method, path: "/api/v1" + path, user: user, pass: user + "-password", body: body})
	}
	must := func(status int, r reply) reply {
		t.Helper()
		require.Equal(t, status, r.status, "%s", r.raw)
		return r
	}
	hook := func(user, repo string) {
		t.Helper()
		must(201, as(user, "POST", "/repos/"+repo+"/hooks", map[string]any{"type": "forgejo", "active": true,
			"events": []string{"push", "create", "delete"}, "config": map[string]string{"url": hooks.srv.URL, "content_type": "json"}}))
	}
	remote := func(user, repo string) string {
		return "http://" + user + ":" + user + "-password@" + host + "/" + repo + ".git"
	}
	must(201, as("alice", "POST", "/user/repos", map[string]any{"name": "proj"}))
	hook("alice", "alice/proj")
	url := remote("alice", "alice/proj")

	// step runs op, which moves refs of repo, and checks the deliveries
	// against what a push making the same change sends.
	step := func(name, repo, user, url string, op func()) {
		t.Helper()
		before := refs(t, url)
		op()
		want := pushEvents(repo, user, before, refs(t, url))
		require.NotEmpty(t, want, "%s moved no ref", name)
		hooks.expect(t, name, want)
	}
	content := func(user, method, path string, body map[string]any) reply {
		t.Helper()
		body["content"] = base64.StdEncoding.EncodeToString([]byte(path + time.Now().String()))
		body["message"] = method + " " + path
		return as(user, method, "/repos/alice/proj/contents/"+path, body)
	}

	work := t.TempDir()
	commit := func(name string) {
		require.NoError(t, os.WriteFile(filepath.Join(work, name), []byte(name), 0o644))
		mustGit(t, work, "add", ".")
		mustGit(t, work, "commit", "-q", "-m", name)
	}
	mustGit(t, work, "init", "-q", ".")
	commit("a")
	step("git push creating main", "alice/proj", "alice", url, func() { mustGit(t, work, "push", "-q", url, "main") })
	commit("b")
	step("git push moving main", "alice/proj", "alice", url, func() { mustGit(t, work, "push", "-q", url, "main") })
	step("git push creating a branch", "alice/proj", "alice", url, func() { mustGit(t, work, "push", "-q", url, "main:gb") })
	step("git push deleting a branch", "alice/proj", "alice", url, func() { mustGit(t, work, "push", "-q", url, ":gb") })
	mustGit(t, work, "tag", "t1")
	step("git push of a tag", "alice/proj", "alice", url, func() { mustGit(t, work, "push", "-q", url, "t1") })

	var blob string
	step("contents API: create a file", "alice/proj", "alice", url, func() {
		blob = must(201, content("alice", "POST", "c.txt", map[string]any{})).body["content"].(map[string]any)["sha"].(string)
	})
	step("contents API: update a file", "alice/proj", "alice", url, func() {
		blob = must(200, content("alice", "PUT", "c.txt", map[string]any{"sha": blob})).body["content"].(map[string]any)["sha"].(string)
	})
	step("contents API: delete a file", "alice/proj", "alice", url, func() {
		must(200, content("alice", "DELETE", "c.txt", map[string]any{"sha": blob}))
	})
	step("contents API: commit on a new branch", "alice/proj", "alice", url, func() {
		must(201, content("alice", "POST", "n.txt", map[string]any{"new_branch": "cb"}))
	})
	newFile := func(name string) string {
		return "diff --git a/" + name + " b/" + name + "\nnew file mode 100644\n--- /dev/null\n+++ b/" + name + "\n@@ -0,0 +1 @@\n+" + name + "\n"
	}
	step("diffpatch", "alice/proj", "alice", url, func() {
		must(201, as("alice", "POST", "/repos/alice/proj/diffpatch", map[string]any{"content": newFile("dp.txt"), "sha": "unused"}))
	})
	step("diffpatch on a new branch", "alice/proj", "alice", url, func() {
		must(201, as("alice", "POST", "/repos/alice/proj/diffpatch", map[string]any{"content": newFile("dpb.txt"), "sha": "unused", "new_branch": "dpb"}))
	})
	// Notes move refs/notes/commits, through the API and by a push: as
	// Forgejo (its post-receive hook ignores refs that are neither
	// branches nor tags), nothing is delivered, which the next step's
	// exact deliveries check.
	before := refs(t, url)
	must(200, as("alice", "POST", "/repos/alice/proj/git/notes/main", map[string]any{"message": "noted"}))
	mustGit(t, work, "fetch", "-q", url, "refs/notes/commits:refs/notes/commits")
	mustGit(t, work, "notes", "add", "-m", "pushed note", "HEAD")
	mustGit(t, work, "push", "-q", url, "refs/notes/commits")
	must(204, as("alice", "DELETE", "/repos/alice/proj/git/notes/main", nil))
	require.Equal(t, before, refs(t, url), "notes moved no branch or tag")

	step("branch API: create", "alice/proj", "alice", url, func() {
		must(201, as("alice", "POST", "/repos/alice/proj/branches", map[string]any{"new_branch_name": "ab", "old_ref_name": "main"}))
	})
	step("branch API: rename", "alice/proj", "alice", url, func() {
		must(204, as("alice", "PATCH", "/repos/alice/proj/branches/ab", map[string]any{"name": "ab2"}))
	})
	step("branch API: delete", "alice/proj", "alice", url, func() {
		must(204, as("alice", "DELETE", "/repos/alice/proj/branches/ab2", nil))
	})
	step("tag API: create a lightweight tag", "alice/proj", "alice", url, func() {
		must(201, as("alice", "POST", "/repos/alice/proj/tags", map[string]any{"tag_name": "v1", "target": "main"}))
	})
	step("tag API: create an annotated tag", "alice/proj", "alice", url, func() {
		must(201, as("alice", "POST", "/repos/alice/proj/tags", map[string]any{"tag_name": "v2", "target": "main", "message": "two"}))
	})
	step("tag API: delete", "alice/proj", "alice", url, func() {
		must(204, as("alice", "DELETE", "/repos/alice/proj/tags/v1", nil))
	})
	var rel float64
	step("release creating its tag", "alice/proj", "alice", url, func() {
		rel = must(201, as("alice", "POST", "/repos/alice/proj/releases", map[string]any{"tag_name": "r1", "target_commitish": "main", "name": "r1"})).body["id"].(float64)
	})
	// A release deleted keeps its tag (no ref moves: nothing is sent, which
	// the next step's exact count checks).
	before = refs(t, url)
	must(204, as("alice", "DELETE", fmt.Sprintf("/repos/alice/proj/releases/%d", int64(rel)), nil))
	require.Equal(t, before, refs(t, url), "a release deleted keeps its tag")

	// Merges, one per style that moves the base, each deleting its head.
	for i, style := range []string{"merge", "rebase", "rebase-merge", "squash", "fast-forward-only"} {
		head := "m-" + style
		step("contents API: head of "+style, "alice/proj", "alice", url, func() {
			must(201, content("alice", "POST", head+".txt", map[string]any{"new_branch": head}))
		})
		must(201, as("alice", "POST", "/repos/alice/proj/pulls", map[string]any{"head": head, "base": "main", "title": style}))
		step("merge: "+style, "alice/proj", "alice", url, func() {
			must(200, as("alice", "POST", fmt.Sprintf("/repos/alice/proj/pulls/%d/merge", i+1),
				map[string]any{"Do": style, "delete_branch_after_merge": true}))
		})
	}
	step("contents API: head to update", "alice/proj", "alice", url, func() {
		must(201, content("alice", "POST", "u.txt", map[string]any{"new_branch": "ub"}))
	})
	must(201, as("alice", "POST", "/repos/alice/proj/pulls", map[string]any{"head": "ub", "base": "main", "title": "update"}))
	step("contents API: main moves on", "alice/proj", "alice", url, func() {
		must(201, content("alice", "POST", "after.txt", map[string]any{}))
	})
	step("update-branch", "alice/proj", "alice", url, func() {
		must(200, as("alice", "POST", "/repos/alice/proj/pulls/6/update", nil))
	})

	// sync_fork, by bob on his fork.
	must(202, as("bob", "POST", "/repos/alice/proj/forks", map[string]any{}))
	hook("bob", "bob/proj")
	step("contents API: the parent moves on", "alice/proj", "alice", url, func() {
		must(201, content("alice", "POST", "parent.txt", map[string]any{}))
	})
	step("sync_fork", "bob/proj", "bob", remote("bob", "bob/proj"), func() {
		must(204, as("bob", "POST", "/repos/bob/proj/sync_fork/main", nil))
	})

	// update-branch by a maintainer of the base (alice), who may not write
	// bob's fork: bob's pull request allows maintainer edits, so the merge
	// of main into his head branch moves a ref of bob/proj, with alice as
	// the pusher.
	bobURL := remote("bob", "bob/proj")
	step("contents API: a head in the fork", "bob/proj", "bob", bobURL, func() {
		body := map[string]any{"new_branch": "fb", "message": "fork head",
			"content": base64.StdEncoding.EncodeToString([]byte("fork"))}
		must(201, as("bob", "POST", "/repos/bob/proj/contents/fork.txt", body))
	})
	pr := must(201, as("bob", "POST", "/repos/alice/proj/pulls", map[string]any{"head": "bob:fb", "base": "main", "title": "from the fork"})).body["number"].(float64)
	step("contents API: main moves past the fork's head", "alice/proj", "alice", url, func() {
		must(201, content("alice", "POST", "past-fork.txt", map[string]any{}))
	})
	// Until bob allows maintainer edits, alice may not update his branch.
	fork := refs(t, bobURL)
	must(403, as("alice", "POST", fmt.Sprintf("/repos/alice/proj/pulls/%d/update", int64(pr)), nil))
	require.Equal(t, fork, refs(t, bobURL), "a refused update moves nothing")
	must(201, as("bob", "PATCH", fmt.Sprintf("/repos/alice/proj/pulls/%d", int64(pr)), map[string]any{"allow_maintainer_edit": true}))
	step("update-branch by a maintainer", "bob/proj", "alice", bobURL, func() {
		must(200, as("alice", "POST", fmt.Sprintf("/repos/alice/proj/pulls/%d/update", int64(pr)), nil))
	})

	// A pull mirror's sync: the repository's owner is the pusher.
	must(201, as("alice", "POST", "/repos/migrate", map[string]any{"clone_addr": s.url + "/alice/proj.git",
		"repo_name": "mirror", "mirror": true, "auth_username": "alice", "auth_password": "alice-password"}))
	hook("alice", "alice/mirror")
	step("contents API: the mirrored repository moves on", "alice/proj", "alice", url, func() {
		must(201, content("alice", "POST", "mirrored.txt", map[string]any{}))
	})
	murl := remote("alice", "alice/mirror")
	step("pull mirror sync", "alice/mirror", "alice", murl, func() {
		must(200, as("alice", "POST", "/repos/alice/mirror/mirror-sync", nil))
		want := refs(t, url)["refs/heads/main"]
		waitFor(t, "the mirror synced", func() bool { return refs(t, murl)["refs/heads/main"] == want })
	})

	// Nothing more was sent than the operations' events.
	step("git push, last", "alice/proj", "alice", url, func() { mustGit(t, work, "push", "-q", "-f", url, "main:last") })
	hooks.mu.Lock()
	defer hooks.mu.Unlock()
	assert.Equal(t, len(hooks.got), hooks.seen, "deliveries beyond the operations': %q", hooks.got[hooks.seen:])
}

// TestRefMoveConsequences: a commit through the contents API (not a git
// push) has every consequence of a push, from the outbox: the issue's
// scenario (main requires one approval with dismiss_stale_approvals; a
// writer commits to the approved pull request's head through the contents
// API: the approval is dismissed and the merge refused, 405 `Does not have
// enough approvals`), the pull request's head follows, the push mirror with
// sync_on_commit pushes, and the size is refreshed. Before the one place,
// the approval stayed and the merge went through.
func TestRefMoveConsequences(t *testing.T) {
	t.Parallel()
	s := start(t, filepath.Join(t.TempDir(), "data"), map[string]string{
		"FORGED_ADMIN_USER": "boss", "FORGED_ADMIN_PASSWORD": "boss-password"}, "-allow-local-migrations")
	host := strings.TrimPrefix(s.url, "http://")
	for _, u := range []string{"alice", "bob"} {
		r := s.do(t, call{method: "POST", path: "/api/v1/admin/users", user: "boss", pass: "boss-password",
			body: map[string]any{"username": u, "email": u + "@example.com", "password": u + "-password", "must_change_password": false}})
		require.Equal(t, 201, r.status, "%s", r.raw)
	}
	as := func(user, method, path string, body any) reply {
		t.Helper()
		return s.do(t, call{method: method, path: "/api/v1" + path, user: user, pass: user + "-password", body: body})
	}
	must := func(status int, r reply) reply {
		t.Helper()
		require.Equal(t, status, r.status, "%s", r.raw)
		return r
	}
	commitFile := func(user, path, branch, newBranch string, size int) string {
		t.Helper()
		data := make([]byte, size)
		for i := range data {
			data[i] = byte(i*7919 + len(path)) // not compressible to nothing
		}
		body := map[string]any{"content": base64.StdEncoding.EncodeToString(data), "message": "add " + path, "branch": branch}
		if newBranch != "" {
			body["new_branch"] = newBranch
		}
		r := must(201, as(user, "POST", "/repos/alice/proj/contents/"+path, body))
		return r.body["commit"].(map[string]any)["sha"].(string)
	}
	must(201, as("alice", "POST", "/user/repos", map[string]any{"name": "proj", "auto_init": true}))
	must(201, as("alice", "POST", "/user/repos", map[string]any{"name": "target"}))
	must(204, as("alice", "PUT", "/repos/alice/proj/collaborators/bob", map[string]any{"permission": "write"}))
	must(201, as("alice", "POST", "/repos/alice/proj/branch_protections", map[string]any{"rule_name": "main",
		"required_approvals": 1, "dismiss_stale_approvals": true, "enable_push": true}))
	must(200, as("alice", "POST", "/repos/alice/proj/push_mirrors", map[string]any{
		"remote_address": s.url + "/alice/target.git", "remote_username": "alice", "remote_password": "alice-password",
		"interval": "8h", "sync_on_commit": true}))

	commitFile("bob", "feature.txt", "main", "feature", 10)
	must(201, as("bob", "POST", "/repos/alice/proj/pulls", map[string]any{"head": "feature", "base": "main", "title": "feature"}))
	review := must(200, as("alice", "POST", "/repos/alice/proj/pulls/1/reviews", map[string]any{"event": "APPROVED", "body": "ok"}))
	assert.Equal(t, "APPROVED", review.body["state"])
	size := must(200, as("alice", "GET", "/repos/alice/proj", nil)).body["size"].(float64)

	// The writer commits to the approved head through the contents API.
	head := commitFile("bob", "more.txt", "feature", "", 300_000)
	waitFor(t, "the pull request's head follows", func() bool {
		return must(200, as("bob", "GET", "/repos/alice/proj/pulls/1", nil)).body["head"].(map[string]any)["sha"] == head
	})
	waitFor(t, "the approval is dismissed as stale", func() bool {
		var list []map[string]any
		r := must(200, as("bob", "GET", "/repos/alice/proj/pulls/1/reviews", nil))
		require.NoError(t, json.Unmarshal(r.raw, &list))
		for _, rv := range list {
			if rv["id"] == review.body["id"] {
				return rv["dismissed"] == true || rv["stale"] == true
			}
		}
		return false
	})
	r := as("bob", "POST", "/repos/alice/proj/pulls/1/merge", map[string]any{"Do": "merge"})
	assert.Equal(t, 405, r.status, "%s", r.raw)
	assert.Contains(t, r.body["message"], "Does not have enough approvals") // Forgejo's ErrDisallowedToMerge
	assert.Equal(t, false, must(200, as("bob", "GET", "/repos/alice/proj/pulls/1", nil)).body["merged"])

	// The size follows the commit; the push mirror pushes it.
	assert.Greater(t, must(200, as("alice", "GET", "/repos/alice/proj", nil)).body["size"].(float64), size)
	tip := commitFile("alice", "main.txt", "main", "", 10)
	target := "http://alice:alice-password@" + host + "/alice/target.git"
	waitFor(t, "the push mirror with sync_on_commit pushed", func() bool { return refs(t, target)["refs/heads/main"] == tip })
}

// TestConcurrentPushesAllHaveTheirConsequences: five simultaneous git
// pushes to one repository, each moving the head of its own pull request:
// every push's consequences happen (its webhook push delivery, its pull
// request's head). Before, the size walk met a temporary file another push
// removed, failed with "repository does not exist", and nothing ran for
// that push.
func TestConcurrentPushesAllHaveTheirConsequences(t *testing.T) {
	t.Parallel()
	const n = 5
	hooks := newHookLog(t)
	s := start(t, filepath.Join(t.TempDir(), "data"), map[string]string{
		"FORGED_ADMIN_USER": "boss", "FORGED_ADMIN_PASSWORD": "boss-password"}, "-webhook-allowed-hosts", "loopback")
	as := func(method, path string, body any) reply {
		t.Helper()
		return s.do(t, call{method: method, path: "/api/v1" + path, user: "boss", pass: "boss-password", body: body})
	}
	r := as("POST", "/user/repos", map[string]any{"name": "proj", "auto_init": true})
	require.Equal(t, 201, r.status, "%s", r.raw)
	url := "http://boss:boss-password@" + strings.TrimPrefix(s.url, "http://") + "/boss/proj.git"

	clones := make([]string, n)
	for i := range n {
		clones[i] = t.TempDir()
		mustGit(t, clones[i], "clone", "-q", url, ".")
		mustGit(t, clones[i], "checkout", "-q", "-b", fmt.Sprintf("b%d", i))
		require.NoError(t, os.WriteFile(filepath.Join(clones[i], "first.txt"), []byte(fmt.Sprint(i)), 0o644))
		mustGit(t, clones[i], "add", ".")
		mustGit(t, clones[i], "commit", "-q", "-m", "first")
		mustGit(t, clones[i], "push", "-q", "origin", fmt.Sprintf("b%d", i))
		r := as("POST", "/repos/boss/proj/pulls", map[string]any{"head": fmt.Sprintf("b%d", i), "base": "main", "title": fmt.Sprint(i)})
		require.Equal(t, 201, r.status, "%s", r.raw)
	}
	r = as("POST", "/repos/boss/proj/hooks", map[string]any{"type": "forgejo", "active": true, "events": []string{"push"},
		"config": map[string]string{"url": hooks.srv.URL, "content_type": "json"}})
	require.Equal(t, 201, r.status, "%s", r.raw)

	heads := make([]string, n)
	for i, dir := range clones {
		for j := range 20 { // many loose objects: a long walk and long pushes
			require.NoError(t, os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%d.txt", j)), []byte(fmt.Sprint(i, j, time.Now())), 0o644))
		}
		mustGit(t, dir, "add", ".")
		mustGit(t, dir, "commit", "-q", "-m", "second")
		heads[i] = strings.TrimSpace(mustGit(t, dir, "rev-parse", "HEAD"))
	}
	var wg sync.WaitGroup
	for _, dir := range clones {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out, err := gitCLI(t, dir, "push", "-q", "origin", "HEAD")
			assert.NoError(t, err, "%s", out)
		}()
	}
	wg.Wait()

	var want []string
	for i := range n {
		want = append(want, fmt.Sprintf("boss/proj push refs/heads/b%d %s %s boss",
			i, strings.TrimSpace(mustGit(t, clones[i], "rev-parse", "HEAD~1")), heads[i]))
	}
	hooks.expect(t, "five concurrent pushes", want)
	for i := range n {
		waitFor(t, fmt.Sprintf("pull request %d follows its push", i+1), func() bool {
			r := as("GET", fmt.Sprintf("/repos/boss/proj/pulls/%d", i+1), nil)
			return r.status == 200 && r.body["head"].(map[string]any)["sha"] == heads[i]
		})
	}
}
