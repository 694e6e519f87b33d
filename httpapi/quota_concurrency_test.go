package httpapi_test

import (
	"encoding/base64"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/quota"
	"github.com/hearthforge/hearth/storage/dbtest"
	"github.com/hearthforge/hearth/storage/memstore"
)

// The class "quota overshoot under concurrency": N writers of one owner
// at once, each writing a size that fits alone; the owner's size:all
// limit holds exactly as many as fit (written out by each test from the
// sizes it writes, not read from the code under test), the others are
// refused, and the usage never passes the limit. Every test runs on
// SQLite and on memstore (PostgreSQL runs the store methods through the
// storetest conformance suite, and this file under HEARTH_TEST_DB).

// quotaWriters is how many writers run at once.
const quotaWriters = 6

// quotaRoom is the room every test gives alice above what she stores
// before the writers start: 3 MB, as the report.
const quotaRoom = 3_000_000

// quotaBackends runs fn on each backend as a parallel subtest.
func quotaBackends(t *testing.T, fn func(t *testing.T, e *quotaEnv)) {
	t.Helper()
	backends := map[string]func(t *testing.T) quotaBackend{
		"db": func(t *testing.T) quotaBackend { // SQLite, or PostgreSQL under HEARTH_TEST_DB
			return dbtest.Open(t, filepath.Join(t.TempDir(), "hearth.db"))
		},
		"memstore": func(*testing.T) quotaBackend { return memstore.New() },
	}
	for name, open := range backends {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			fn(t, newQuotaEnvOn(t, quotaOn, open(t)))
		})
	}
}

// usedAll is owner's size:all as the admin view shows it.
func (e *quotaEnv) usedAll(owner string) int64 {
	e.t.Helper()
	var sum func(v any) int64
	sum = func(v any) int64 {
		switch v := v.(type) {
		case float64:
			return int64(v)
		case map[string]any:
			var n int64
			for _, c := range v { // leaves only (packages' "all" is one)
				n += sum(c)
			}
			return n
		}
		return 0
	}
	return sum(e.used(owner)["size"])
}

// gitBytes is what the repositories on disk take: every file below the
// git store's repositories (the size walk's own measure), hooks and
// temporary files aside. With no write in progress the usage of repos
// is exactly this (no reservation is left).
func (e *quotaEnv) gitBytes() int64 {
	e.t.Helper()
	var n int64
	require.NoError(e.t, filepath.WalkDir(e.gitDir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(e.gitDir, p)
		top := strings.Split(rel, string(filepath.Separator))[0]
		if !strings.HasSuffix(top, ".git") {
			if d.IsDir() && rel != "." {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.IsDir() {
			fi, err := d.Info()
			if err != nil {
				return err
			}
			n += fi.Size()
		}
		return nil
	}))
	return n
}

// race runs write(i) for i < quotaWriters at once and returns which
// were accepted.
func race(write func(i int) bool) []bool {
	ok := make([]bool, quotaWriters)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range quotaWriters {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			ok[i] = write(i)
		}()
	}
	close(start)
	wg.Wait()
	return ok
}

func accepted(ok []bool) int {
	n := 0
	for _, v := range ok {
		if v {
			n++
		}
	}
	return n
}

// TestQuotaConcurrentPushes: six pushes of 1.2 MB of incompressible
// objects at once into six repositories of alice with 3 MB of room: two
// fit (2.4 MB), the others are refused at the pre-receive step ("Quota
// exceeded", no reference moved), and once every push ended the usage
// is what the repositories take on disk (every reservation released).
func TestQuotaConcurrentPushes(t *testing.T) {
	t.Parallel()
	quotaBackends(t, func(t *testing.T, e *quotaEnv) {
		works := make([]*gitWork, quotaWriters)
		for i := range quotaWriters {
			e.send(e.alice, "POST", "/api/v1/user/repos", map[string]any{"name": fmt.Sprintf("p%d", i)}, 201)
			g := newGitWork(t)
			g.run("init", "-q", ".")
			g.write("big.bin", randomBytes(t, 1_200_000))
			g.run("add", ".")
			g.run("commit", "-q", "-m", "big")
			works[i] = g
		}
		base := e.usedAll("alice")
		limit := base + quotaRoom
		e.limit("alice", limit, "size:all")

		ok := race(func(i int) bool {
			url := e.gitURL("alice", "alice-password", "alice", fmt.Sprintf("p%d", i))
			out, err := works[i].cmd("push", url, "main").CombinedOutput()
			if err != nil {
				assert.Contains(t, string(out), "Quota exceeded", "push %d", i)
			}
			return err == nil
		})
		assert.Equal(t, 2, accepted(ok), "exactly the pushes that fit: %v", ok)
		for i, accepted := range ok {
			refs := works[i].run("ls-remote", e.gitURL("alice", "alice-password", "alice", fmt.Sprintf("p%d", i)))
			assert.Equal(t, accepted, strings.Contains(refs, "refs/heads/main"), "push %d moved a reference iff accepted", i)
		}
		used := e.usedAll("alice")
		t.Logf("pushes accepted %v; usage %d of limit %d", ok, used, limit)
		assert.LessOrEqual(t, used, limit, "usage never passes the limit")
		assert.Equal(t, e.gitBytes(), used, "no reservation left once the pushes ended")
		// The room left is refused as a whole: a seventh push of 1.2 MB.
		assert.Contains(t, works[0].fail("push", e.gitURL("alice", "alice-password", "alice", "proj"), "main"), "Quota exceeded")
	})
}

// TestQuotaConcurrentContents: six contents-API commits of 700 kB at
// once: four fit in 3 MB (each is held with git's overhead on top:
// 700 kB + 1/64 + 8 KiB), the others answer 413; the usage ends as the
// disk says.
func TestQuotaConcurrentContents(t *testing.T) {
	t.Parallel()
	quotaBackends(t, func(t *testing.T, e *quotaEnv) {
		for i := range quotaWriters {
			e.send(e.alice, "POST", "/api/v1/user/repos", map[string]any{"name": fmt.Sprintf("c%d", i)}, 201)
		}
		blobs := make([]string, quotaWriters)
		for i := range blobs {
			blobs[i] = base64.StdEncoding.EncodeToString(randomBytes(t, 700_000))
		}
		base := e.usedAll("alice")
		limit := base + quotaRoom
		e.limit("alice", limit, "size:all")

		ok := race(func(i int) bool {
			r := e.do(req{method: "POST", path: fmt.Sprintf("/api/v1/repos/alice/c%d/contents/big.bin", i), token: e.alice,
				body: map[string]any{"content": blobs[i], "message": "big"}})
			if r.StatusCode != 201 {
				assert.Equal(t, 413, r.StatusCode, "writer %d: %s", i, r.body)
			}
			return r.StatusCode == 201
		})
		assert.Equal(t, 4, accepted(ok), "exactly the commits that fit: %v", ok)
		used := e.usedAll("alice")
		t.Logf("commits accepted %v; usage %d of limit %d", ok, used, limit)
		assert.LessOrEqual(t, used, limit, "usage never passes the limit")
		assert.Equal(t, e.gitBytes(), used, "no reservation left once the writes ended")
	})
}

// TestQuotaConcurrentForks: alice forks six 1.2 MB repositories of bob at
// once with 3 MB of room: two fit (each fork is its parent's size from
// the transaction that creates it); the others answer 413 and leave no
// repository.
func TestQuotaConcurrentForks(t *testing.T) {
	t.Parallel()
	quotaBackends(t, func(t *testing.T, e *quotaEnv) {
		for i := range quotaWriters {
			e.send(e.bob, "POST", "/api/v1/user/repos", map[string]any{"name": fmt.Sprintf("b%d", i)}, 201)
			g := newGitWork(t)
			g.run("init", "-q", ".")
			g.write("big.bin", randomBytes(t, 1_200_000))
			g.run("add", ".")
			g.run("commit", "-q", "-m", "big")
			g.run("push", "-q", e.gitURL("bob", "bob-password", "bob", fmt.Sprintf("b%d", i)), "main")
		}
		base := e.usedAll("alice")
		limit := base + quotaRoom
		e.limit("alice", limit, "size:all")

		ok := race(func(i int) bool {
			r := e.do(req{method: "POST", path: fmt.Sprintf("/api/v1/repos/bob/b%d/forks", i), token: e.alice, body: map[string]any{}})
			if r.StatusCode != 202 {
				assert.Equal(t, 413, r.StatusCode, "fork %d: %s", i, r.body)
			}
			return r.StatusCode == 202
		})
		assert.Equal(t, 2, accepted(ok), "exactly the forks that fit: %v", ok)
		for i, accepted := range ok {
			want := 404
			if accepted {
				want = 200
			}
			e.send(e.alice, "GET", fmt.Sprintf("/api/v1/repos/alice/b%d", i), nil, want)
		}
		t.Logf("forks accepted %v; usage %d of limit %d", ok, e.usedAll("alice"), limit)
		assert.LessOrEqual(t, e.usedAll("alice"), limit, "usage never passes the limit")
	})
}

// TestQuotaConcurrentAttachments: six 700 kB issue attachments at once:
// four fit in 3 MB; the refused ones store nothing.
func TestQuotaConcurrentAttachments(t *testing.T) {
	t.Parallel()
	quotaBackends(t, func(t *testing.T, e *quotaEnv) {
		n := e.newIssue(e.alice, "files")
		base := e.usedAll("alice")
		limit := base + quotaRoom
		e.limit("alice", limit, "size:all")
		body := strings.Repeat("x", 700_000)
		ok := race(func(i int) bool {
			r := e.upload(e.alice, e.issuePath(n, "/assets"), fmt.Sprintf("a%d.bin", i), body, nil)
			if r.StatusCode != 201 {
				assert.Equal(t, 413, r.StatusCode, "upload %d: %s", i, r.body)
			}
			return r.StatusCode == 201
		})
		assert.Equal(t, 4, accepted(ok), "exactly the attachments that fit: %v", ok)
		used := e.usedAll("alice")
		assert.LessOrEqual(t, used, limit)
		assert.Equal(t, base+4*700_000, used)
		list := e.send(e.alice, "GET", e.issuePath(n, "/assets"), nil, 200).list(t)
		assert.Len(t, list, 4, "a refused upload leaves no attachment")
	})
}

// TestQuotaConcurrentPackages: six 700 kB generic package files at once:
// four fit in 3 MB; the refused ones store nothing.
func TestQuotaConcurrentPackages(t *testing.T) {
	t.Parallel()
	quotaBackends(t, func(t *testing.T, e *quotaEnv) {
		base := e.usedAll("alice")
		limit := base + quotaRoom
		e.limit("alice", limit, "size:all")
		body := strings.Repeat("y", 700_000)
		ok := race(func(i int) bool {
			r := e.do(req{method: "PUT", path: fmt.Sprintf("/api/packages/alice/generic/tool/1.%d/f.bin", i), token: e.alice, body: body})
			if r.StatusCode != 201 {
				assert.Equal(t, 413, r.StatusCode, "upload %d: %s", i, r.body)
			}
			return r.StatusCode == 201
		})
		assert.Equal(t, 4, accepted(ok), "exactly the files that fit: %v", ok)
		used := e.usedAll("alice")
		assert.LessOrEqual(t, used, limit)
		assert.Equal(t, base+4*700_000, used)
		r := e.do(req{method: "GET", path: "/api/v1/user/quota/packages", token: e.alice})
		require.Equal(t, 200, r.StatusCode, "%s", r.body)
		assert.Equal(t, "4", r.Header.Get("X-Total-Count"), "a refused upload leaves no file")
	})
}

// TestQuotaSizedWrites is the sequential side of the class: a write that
// brings a known number of bytes is checked with them, not only with
// "is the owner still below the limit": a fork carries its parent's
// size, a transfer the repository's, a contents commit its files'. Each
// is refused when it does not fit in the room left, although the owner
// is below the limit, and allowed when it fits.
func TestQuotaSizedWrites(t *testing.T) {
	t.Parallel()
	e := newQuotaEnv(t, quotaOn)
	e.send(e.alice, "POST", "/api/v1/user/repos", map[string]any{"name": "big"}, 201)
	e.send(e.alice, "POST", "/api/v1/repos/alice/big/contents/big.bin",
		map[string]any{"content": base64.StdEncoding.EncodeToString(randomBytes(t, 300_000)), "message": "big"}, 201)
	e.createUser("carol")
	carol := e.token("carol", "all")
	e.send(carol, "POST", "/api/v1/user/repos", map[string]any{"name": "own"}, 201)
	limit := e.usedAll("carol") + 100_000
	e.limit("carol", limit, "size:all")

	e.expectQuota(e.do(req{method: "POST", path: "/api/v1/repos/alice/big/forks", token: carol, body: map[string]any{}}), "carol")
	e.expect(e.do(req{method: "GET", path: "/api/v1/repos/carol/big", token: carol}), 404, "")
	e.expectQuota(e.do(req{method: "POST", path: "/api/v1/repos/alice/big/transfer", token: e.alice,
		body: map[string]any{"new_owner": "carol"}}), "carol")
	e.send(e.alice, "GET", "/api/v1/repos/alice/big", nil, 200)
	e.expectQuota(e.do(req{method: "POST", path: "/api/v1/repos/carol/own/contents/a.bin", token: carol,
		body: map[string]any{"content": base64.StdEncoding.EncodeToString(randomBytes(t, 150_000))}}), "carol")
	e.send(carol, "POST", "/api/v1/repos/carol/own/contents/b.bin",
		map[string]any{"content": base64.StdEncoding.EncodeToString(randomBytes(t, 50_000))}, 201)
	assert.LessOrEqual(t, e.usedAll("carol"), limit)
	assert.Equal(t, e.usedAll("carol")+e.usedAll("alice"), e.gitBytes(), "no reservation left")
}

// TestQuotaMultiSubjectRuleEnforced: a limit-0 rule acts through each of
// its subjects at the enforcement points: release and issue attachments
// are refused by rules that list them last, beside an unlimited rule,
// while the git writes the rules do not cover go through.
func TestQuotaMultiSubjectRuleEnforced(t *testing.T) {
	t.Parallel()
	e := newQuotaEnv(t, quotaOn)
	e.send(e.alice, "POST", "/api/v1/user/repos", map[string]any{"name": "code", "auto_init": true}, 201)
	rel := e.send(e.alice, "POST", "/api/v1/repos/alice/code/releases", map[string]any{"tag_name": "v1"}, 201).json(t)
	n := e.newIssue(e.alice, "files")
	e.limit("alice", quota.Unlimited, "size:all")
	for name, subjects := range map[string][]string{
		"no-releases": {"size:git:lfs", "size:assets:attachments:releases"},
		"no-issues":   {"size:assets:artifacts", "size:git:lfs", "size:assets:attachments:issues"},
	} {
		e.admin("POST", "/rules", map[string]any{"name": name, "limit": 0, "subjects": subjects}, 201)
		e.admin("PUT", "/groups/g-alice/rules/"+name, nil, 204)
	}
	e.expectQuota(e.upload(e.alice, fmt.Sprintf("/api/v1/repos/alice/code/releases/%v/assets", rel["id"]), "r.bin", "x", nil), "alice")
	e.expectQuota(e.upload(e.alice, e.issuePath(n, "/assets"), "i.bin", "x", nil), "alice")
	e.send(e.alice, "POST", "/api/v1/repos/alice/code/contents/ok.txt", map[string]any{"content": b64("ok")}, 201)
}

// TestQuotaPushRefusedElsewhere: a push the pre-receive step refuses for
// another reason (a force push to a protected branch) never asks for
// quota and returns; a push git accepts but whose reservation was
// refused moves nothing; neither leaves a reservation behind.
func TestQuotaPushRefusedElsewhere(t *testing.T) {
	t.Parallel()
	e := newQuotaEnv(t, quotaOn)
	url := e.gitURL("alice", "alice-password", "alice", "proj")
	g := newGitWork(t)
	g.run("init", "-q", ".")
	first := g.commit("a.txt", "a\n")
	g.run("push", "-q", url, "main")
	e.send(e.alice, "POST", e.proj+"/branch_protections", map[string]any{"branch_name": "main", "enable_push": true}, 201)
	e.limit("alice", e.usedAll("alice")+200_000, "size:all")

	g.commit("c.txt", "c\n")
	g.run("push", "-q", url, "main") // a fast-forward fits
	g.run("reset", "-q", "--hard", first)
	g.commit("d.txt", "d\n")
	out := g.fail("push", "--force", url, "main")
	assert.Contains(t, out, "protected from force push")
	assert.Equal(t, e.gitBytes(), e.usedAll("alice"), "no reservation left")

	g.write("big.bin", randomBytes(t, 300_000))
	g.run("add", ".")
	g.run("commit", "-q", "-m", "big")
	assert.Contains(t, g.fail("push", url, "HEAD:refs/heads/side"), "Quota exceeded")
	assert.NotContains(t, g.run("ls-remote", url), "refs/heads/side")
	assert.Equal(t, e.gitBytes(), e.usedAll("alice"), "no reservation left")
}
