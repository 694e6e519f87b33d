package httpapi_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/hearthforge/hearth/forge/repos"
)

// TestRepoListHandlersCostIsFixed counts the repository store
// transactions of each list handler (GET /users/{username}/repos,
// /user/repos, /repos/search, /repos/{owner}/{repo}/forks) for a page of
// one repository and a page of thirty: the handlers convert a page through
// toRepos (one related-data read), so the count does not grow with the
// page.
func TestRepoListHandlersCostIsFixed(t *testing.T) {
	t.Parallel()
	cs := &countingStore{}
	e := newEnvWith(t, func(rc *repos.Config) { cs.Store = rc.Store; rc.Store = cs })
	e.createUser("lister")
	tok := e.token("lister", "write:repository", "write:user")
	create := func(i int) {
		r := e.do(req{method: "POST", path: "/api/v1/user/repos", token: tok, body: map[string]any{"name": fmt.Sprintf("r%02d", i)}})
		e.expect(r, http.StatusCreated, "")
	}
	// Forks of r00, one per user (a user forks a repository once), so
	// that the forks page holds forks whose parent is loaded.
	fork := func(i int) {
		name := fmt.Sprintf("forker%02d", i)
		e.createUser(name)
		r := e.do(req{method: "POST", path: "/api/v1/repos/lister/r00/forks", token: e.token(name, "write:repository"),
			body: map[string]any{"name": fmt.Sprintf("r-fork%02d", i)}})
		e.expect(r, http.StatusAccepted, "")
	}
	lists := []struct{ name, path, token string }{
		{"user repos", "/api/v1/users/lister/repos?limit=50", tok},
		{"my repos", "/api/v1/user/repos?limit=50", tok},
		{"search", "/api/v1/repos/search?q=r&limit=50", tok},
		{"forks", "/api/v1/repos/lister/r00/forks?limit=50", tok},
	}
	type count struct{ txs, queries int64 }
	cost := func() map[string]count {
		out := map[string]count{}
		for _, l := range lists {
			cs.reset()
			r := e.do(req{method: "GET", path: l.path, token: l.token})
			e.expect(r, http.StatusOK, "")
			out[l.name] = count{cs.txs.Load(), cs.queries.Load()}
		}
		return out
	}
	create(0)
	fork(0)
	small := cost()
	for i := 1; i < 30; i++ {
		create(i)
		fork(i)
	}
	large := cost()
	for _, l := range lists {
		s, g := small[l.name], large[l.name]
		t.Logf("%s: 1 repository: %d transactions, %d counted queries; 30: %d, %d", l.name, s.txs, s.queries, g.txs, g.queries)
		if s != g {
			t.Errorf("%s: a page of 1 costs %d transactions and %d queries, a page of 30 costs %d and %d: want the same",
				l.name, s.txs, s.queries, g.txs, g.queries)
		}
	}
}
