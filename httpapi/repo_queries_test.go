package httpapi_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
)

// countingStore counts the transactions of a repos.Store and the queries
// (Tx method calls) a repository list page makes.
type countingStore struct {
	repos.Store
	txs, queries atomic.Int64
}

func (s *countingStore) View(ctx context.Context, fn func(repos.Tx) error) error {
	s.txs.Add(1)
	return s.Store.View(ctx, func(tx repos.Tx) error { return fn(countingTx{tx, s}) })
}

func (s *countingStore) Update(ctx context.Context, fn func(repos.Tx) error) error {
	s.txs.Add(1)
	return s.Store.Update(ctx, func(tx repos.Tx) error { return fn(countingTx{tx, s}) })
}

func (s *countingStore) reset() { s.txs.Store(0); s.queries.Store(0) }

// countingTx counts the queries that listing and converting repositories
// use; other methods pass through uncounted.
type countingTx struct {
	repos.Tx
	s *countingStore
}

func (t countingTx) ListRepos(ctx context.Context, f repos.RepoFilter, o forge.ListOptions) ([]*forge.Repository, int64, error) {
	t.s.queries.Add(1)
	return t.Tx.ListRepos(ctx, f, o)
}

func (t countingTx) UserByID(ctx context.Context, id forge.ID) (*forge.User, error) {
	t.s.queries.Add(1)
	return t.Tx.UserByID(ctx, id)
}

func (t countingTx) UserByName(ctx context.Context, name string) (*forge.User, error) {
	t.s.queries.Add(1)
	return t.Tx.UserByName(ctx, name)
}

func (t countingTx) RepoByID(ctx context.Context, id forge.ID) (*forge.Repository, error) {
	t.s.queries.Add(1)
	return t.Tx.RepoByID(ctx, id)
}

func (t countingTx) RepoByName(ctx context.Context, owner forge.ID, name string) (*forge.Repository, error) {
	t.s.queries.Add(1)
	return t.Tx.RepoByName(ctx, owner, name)
}

func (t countingTx) CollaboratorMode(ctx context.Context, repo, user forge.ID) (forge.AccessMode, error) {
	t.s.queries.Add(1)
	return t.Tx.CollaboratorMode(ctx, repo, user)
}

func (t countingTx) Transfer(ctx context.Context, repo forge.ID) (*repos.Transfer, error) {
	t.s.queries.Add(1)
	return t.Tx.Transfer(ctx, repo)
}

// TestRepoListCostIsFixed counts the store transactions of a repository
// list page of 1 and of 30 repositories (and a fork): converting a page costs one transaction whatever its
// length. It logs the cost of the whole GET /users/{username}/repos too.
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
	page := func() (convertTxs, convertQueries, httpTxs, httpQueries int64, n int) {
		views, _, err := e.repos.List(ctx, forge.Actor{}, repos.RepoFilter{OwnerID: 0, Keyword: "r"}, forge.ListOptions{Page: 1, Limit: 50})
		require.NoError(t, err)
		cs.reset()
		out := e.api.RepoPage(httptest.NewRequest("GET", "/api/v1/users/lister/repos", nil), forge.Actor{}, views)
		convertTxs, convertQueries = cs.txs.Load(), cs.queries.Load()
		require.Len(t, out, len(views))
		cs.reset()
		r := e.do(req{method: "GET", path: "/api/v1/users/lister/repos?limit=50", token: tok})
		e.expect(r, http.StatusOK, "")
		return convertTxs, convertQueries, cs.txs.Load(), cs.queries.Load(), len(r.list(t))
	}
	ct1, cq1, ht1, hq1, n1 := page()
	require.Equal(t, 1, n1)
	for i := 1; i < 30; i++ {
		create(i)
	}
	// A fork in the converted page: its parent is loaded too.
	other := e.token("other", "write:repository")
	r := e.do(req{method: "POST", path: "/api/v1/repos/lister/r00/forks", token: other, body: map[string]any{"name": "r-fork"}})
	e.expect(r, http.StatusAccepted, "")
	ct30, cq30, ht30, hq30, n30 := page()
	require.Equal(t, 30, n30)
	t.Logf("converting a page: 1 repository: %d transactions, %d queries; 30: %d transactions, %d queries", ct1, cq1, ct30, cq30)
	t.Logf("GET /users/{username}/repos: 1 repository: %d transactions, %d queries; 30: %d transactions, %d queries", ht1, hq1, ht30, hq30)
	if ct1 != 1 || ct30 != 1 {
		t.Errorf("converting a page of 1 costs %d transactions and of 30 costs %d: want 1 each", ct1, ct30)
	}
}
