package httpapi_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
)

// countingStore counts the transactions of a repos.Store, the queries
// (Tx method calls) made in them, and the resolutions of one actor's
// access to one repository (resolves: the CollaboratorMode queries, which
// every such resolution of a signed-in actor makes once; batch reads of
// many repositories use CollaboratorModes).
type countingStore struct {
	repos.Store
	txs, queries, resolves atomic.Int64
}

func (s *countingStore) View(ctx context.Context, fn func(repos.Tx) error) error {
	s.txs.Add(1)
	return s.Store.View(ctx, func(tx repos.Tx) error { return fn(countingTx{tx, s}) })
}

func (s *countingStore) Update(ctx context.Context, fn func(repos.Tx) error) error {
	s.txs.Add(1)
	return s.Store.Update(ctx, func(tx repos.Tx) error { return fn(countingTx{tx, s}) })
}

func (s *countingStore) reset() { s.txs.Store(0); s.queries.Store(0); s.resolves.Store(0) }

// countingTx counts every Tx method call as one query (its wrappers are in
// repo_tx_count_test.go).
type countingTx struct {
	repos.Tx
	s *countingStore
}

// cost is what one step of a list request costs the store.
type cost struct{ txs, queries int64 }

func (s *countingStore) cost() cost { return cost{s.txs.Load(), s.queries.Load()} }

// TestRepoListCostIsFixed counts the store transactions and queries of a
// repository list page of 1 and of 30 repositories (one of them a fork
// whose parent is shown, one with a pending transfer), for a signed-in
// actor (whose collaborator modes are read) and an anonymous one: listing
// (repos.Service.List) and converting (RelatedOf, through the handlers'
// toRepos) cost the same whatever the page's length. It logs the cost of
// the whole GET /users/{username}/repos too.
func TestRepoListCostIsFixed(t *testing.T) {
	t.Parallel()
	cs := &countingStore{}
	e := newEnvWith(t, func(rc *repos.Config) { cs.Store = rc.Store; rc.Store = cs })
	e.createUser("lister")
	e.createUser("other")
	tok := e.token("lister", "write:repository", "write:user")
	create := func(i int) {
		r := e.do(req{method: "POST", path: "/api/v1/user/repos", token: tok, body: map[string]any{"name": fmt.Sprintf("r%02d", i)}})
		e.expect(r, http.StatusCreated, "")
	}
	create(0)
	ctx := context.Background()
	lister, err := e.auth.Authenticate(ctx, auth.Credentials{Basic: true, Username: "lister", Password: "lister-password"})
	require.NoError(t, err)
	type costs struct{ list, convert, http cost }
	page := func(actor forge.Actor, f repos.RepoFilter) (costs, int) {
		var c costs
		cs.reset()
		views, _, err := e.repos.List(ctx, actor, f, forge.ListOptions{Page: 1, Limit: 50})
		require.NoError(t, err)
		c.list = cs.cost()
		cs.reset()
		out, err := e.api.RepoPage(httptest.NewRequest("GET", "/api/v1/users/lister/repos", nil), actor, views)
		require.NoError(t, err)
		c.convert = cs.cost()
		require.Len(t, out, len(views))
		cs.reset()
		r := e.do(req{method: "GET", path: "/api/v1/users/lister/repos?limit=50", token: tok})
		e.expect(r, http.StatusOK, "")
		c.http = cs.cost()
		return c, len(views)
	}
	actors := map[string]forge.Actor{"signed in": lister, "anonymous": {}}
	filter := repos.RepoFilter{Keyword: "r"}
	one := map[string]costs{}
	for name, a := range actors {
		c, n := page(a, filter)
		require.Equal(t, 1, n, name)
		one[name] = c
	}
	for i := 1; i < 30; i++ {
		create(i)
	}
	// A fork in the page: its parent is loaded too. A pending transfer.
	other := e.token("other", "write:repository")
	r := e.do(req{method: "POST", path: "/api/v1/repos/lister/r00/forks", token: other, body: map[string]any{"name": "r-fork"}})
	e.expect(r, http.StatusAccepted, "")
	r = e.do(req{method: "POST", path: "/api/v1/repos/lister/r01/transfer", token: tok, body: map[string]any{"new_owner": "other"}})
	e.expect(r, http.StatusCreated, "")
	for name, a := range actors {
		c, n := page(a, filter)
		require.Equal(t, 31, n, name)
		t.Logf("%s: 1 repository: list %+v, convert %+v, GET /users/{username}/repos %+v", name, one[name].list, one[name].convert, one[name].http)
		t.Logf("%s: 31 repositories: list %+v, convert %+v, GET /users/{username}/repos %+v", name, c.list, c.convert, c.http)
		if c.list != one[name].list || c.convert != one[name].convert {
			t.Errorf("%s: a page of 31 costs list %+v, convert %+v; a page of 1 costs list %+v, convert %+v: want the same",
				name, c.list, c.convert, one[name].list, one[name].convert)
		}
		if c.http != one[name].http {
			t.Errorf("%s: GET /users/{username}/repos costs %+v for 31 repositories, %+v for 1: want the same", name, c.http, one[name].http)
		}
		if c.list.txs != 1 || c.convert.txs != 1 {
			t.Errorf("%s: listing costs %d transactions and converting %d: want 1 each", name, c.list.txs, c.convert.txs)
		}
	}
}
