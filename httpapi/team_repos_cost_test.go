package httpapi_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/httpapi"
)

// newCountedOrgEnv is newOrgEnv with the repository store counted.
func newCountedOrgEnv(t *testing.T) (*env, *countingStore) {
	t.Helper()
	b := newBase(t, ":memory:", testSecret)
	db, clock, svc, git, blobs := b.db, b.clock, b.auth, b.git, b.blobs
	cs := &countingStore{Store: db.Repos()}
	repoSvc, err := repos.New(repos.Config{Store: cs, Git: git, Blobs: blobs, Clock: clock})
	require.NoError(t, err)
	orgSvc, _ := b.orgService(t, repoSvc)
	api, err := httpapi.New(httpapi.Config{Auth: svc, Repos: repoSvc, Git: git, Orgs: orgSvc})
	require.NoError(t, err)
	srv := httptest.NewServer(checked(t, api))
	t.Cleanup(srv.Close)
	return &env{t: t, srv: srv, auth: svc, clock: clock, repos: repoSvc, api: api}, cs
}

// GET /teams/{id}/repos costs the repository store the same for a page of
// one repository and a page of thirty (one batched read of the views, not
// one per repository), with the member's permission on each.
func TestTeamReposCostIsFixed(t *testing.T) {
	t.Parallel()
	e, cs := newCountedOrgEnv(t)
	e.createUser("alice")
	e.createUser("bob")
	e.createOrg("alice", "acme", "public")
	id := e.createTeam("acme", map[string]any{"name": "crew", "permission": "read",
		"units_map": map[string]string{"repo.code": "read"}})
	e.expect(e.do(rootReq("PUT", "/teams/"+tid(id)+"/members/bob", nil)), http.StatusNoContent, "")
	add := func(i int) {
		name := fmt.Sprintf("r%02d", i)
		e.expect(e.do(as("alice", "POST", "/orgs/acme/repos", map[string]any{"name": name, "private": true})), http.StatusCreated, "")
		e.expect(e.do(rootReq("PUT", "/teams/"+tid(id)+"/repos/acme/"+name, nil)), http.StatusNoContent, "")
	}
	list := func() (cost, []map[string]any) {
		cs.reset()
		r := e.do(as("bob", "GET", "/teams/"+tid(id)+"/repos?limit=50", nil))
		e.expect(r, http.StatusOK, "")
		return cs.cost(), r.list(t)
	}
	add(0)
	small, page := list()
	require.Len(t, page, 1)
	for i := 1; i < 30; i++ {
		add(i)
	}
	large, page := list()
	require.Len(t, page, 30)
	assert.Equal(t, small, large, "the cost of a page does not grow with it")
	perms := page[0]["permissions"].(map[string]any)
	assert.Equal(t, true, perms["pull"])
	assert.Equal(t, false, perms["push"])
}
