package httpapi_test

import (
	"encoding/base64"
	"fmt"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge/repos"
)

// TestRepoItemListsCostIsFixed counts the store transactions and queries
// (every repos.Tx call) of the list responses inside a repository — a
// directory listing (GET …/contents), the releases (each with an author
// and an asset) and the statuses of a commit (each with a creator, some by
// another user) — for one item and for thirty: a list costs the same
// whatever its length, the per-item data being read in batches.
func TestRepoItemListsCostIsFixed(t *testing.T) {
	t.Parallel()
	cs := &countingStore{}
	e := newEnvWith(t, func(rc *repos.Config) { cs.Store = rc.Store; rc.Store = cs })
	e.createUser("alice")
	e.createUser("bob")
	tok := e.token("alice", "write:repository", "write:user")
	e.expect(e.do(req{method: "POST", path: "/api/v1/user/repos", token: tok, body: map[string]any{"name": "proj", "auto_init": true}}),
		http.StatusCreated, "")
	e.expect(e.do(req{method: "PUT", path: "/api/v1/repos/alice/proj/collaborators/bob", token: tok, body: map[string]any{"permission": "write"}}),
		http.StatusNoContent, "")
	bob := e.token("bob", "write:repository")
	base := "/api/v1/repos/alice/proj"
	r := e.do(req{method: "GET", path: base + "/branches/main", token: tok})
	e.expect(r, http.StatusOK, "")
	sha := r.json(t)["commit"].(map[string]any)["id"].(string)

	// add makes item i of each list: a file of dir/ (each its own commit),
	// a release with an asset, a status (every other one by bob).
	add := func(i int) {
		r := e.do(req{method: "POST", path: fmt.Sprintf("%s/contents/dir/f%02d.txt", base, i), token: tok,
			body: map[string]any{"content": base64.StdEncoding.EncodeToString([]byte(fmt.Sprint(i)))}})
		e.expect(r, http.StatusCreated, "")
		r = e.do(req{method: "POST", path: base + "/releases", token: tok, body: map[string]any{"tag_name": fmt.Sprintf("v%d", i)}})
		e.expect(r, http.StatusCreated, "")
		id := fmt.Sprint(r.json(t)["id"])
		r = e.do(req{method: "POST", path: base + "/releases/" + id + "/assets?name=a.txt", token: tok, body: "asset",
			header: map[string]string{"Content-Type": "application/octet-stream"}})
		e.expect(r, http.StatusCreated, "")
		st := tok
		if i%2 == 1 {
			st = bob
		}
		r = e.do(req{method: "POST", path: base + "/statuses/" + sha, token: st,
			body: map[string]any{"state": "success", "context": fmt.Sprintf("ci/%02d", i)}})
		e.expect(r, http.StatusCreated, "")
	}
	lists := []struct{ name, path string }{
		{"contents", base + "/contents/dir"},
		{"releases", base + "/releases?limit=50"},
		{"statuses", base + "/commits/" + sha + "/statuses?limit=50"},
		{"combined status", base + "/commits/" + sha + "/status"},
	}
	cost := func(n int) map[string]count {
		out := map[string]count{}
		for _, l := range lists {
			cs.reset()
			r := e.do(req{method: "GET", path: l.path, token: tok})
			e.expect(r, http.StatusOK, "")
			out[l.name] = count{cs.txs.Load(), cs.queries.Load()}
			if l.name != "combined status" {
				require.Len(t, r.list(t), n, l.name)
			}
		}
		return out
	}
	add(0)
	small := cost(1)
	for i := 1; i < 30; i++ {
		add(i)
	}
	large := cost(30)
	for _, l := range lists {
		s, g := small[l.name], large[l.name]
		t.Logf("%s: 1 item: %d transactions, %d queries; 30: %d, %d", l.name, s.txs, s.queries, g.txs, g.queries)
		assert.Equal(t, s, g, "%s: a list of 1 and a list of 30 cost the same", l.name)
	}
	// The per-item data is there: each entry's commit time, each
	// release's author and asset, each status's creator.
	r = e.do(req{method: "GET", path: base + "/contents/dir", token: tok})
	for _, en := range r.list(t) {
		assert.NotEqual(t, "0001-01-01T00:00:00Z", en["last_commit_when"], en["name"])
	}
	r = e.do(req{method: "GET", path: base + "/releases?limit=50", token: tok})
	for _, rel := range r.list(t) {
		assert.Equal(t, "alice", rel["author"].(map[string]any)["login"])
		assert.Len(t, rel["assets"], 1)
	}
	r = e.do(req{method: "GET", path: base + "/commits/" + sha + "/statuses?limit=50", token: tok})
	creators := map[string]int{}
	for _, st := range r.list(t) {
		creators[st["creator"].(map[string]any)["login"].(string)]++
	}
	assert.Equal(t, map[string]int{"alice": 15, "bob": 15}, creators)
}

// count is what one request costs the store.
type count struct{ txs, queries int64 }
