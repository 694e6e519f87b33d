package httpapi_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// attackWorld: acme (public, owner alice, team crew with member bob and
// repository tool), zeta (private, owner zed, team zteam with member zoe
// and repository zrepo), and eve, who owns her own organisation open
// (with repository orepo) and is nobody in the others.
type attackWorld struct {
	*env
	crew, zteam, eveOwners int64
}

func newAttackWorld(t *testing.T) *attackWorld {
	e := newOrgEnv(t)
	for _, u := range []string{"alice", "bob", "zed", "zoe", "eve"} {
		e.createUser(u)
	}
	e.createOrg("alice", "acme", "public")
	e.createOrg("zed", "zeta", "private")
	e.createOrg("eve", "open", "public")
	w := &attackWorld{env: e}
	w.crew = e.createTeam("acme", map[string]any{"name": "crew", "permission": "write", "units_map": map[string]string{"repo.code": "write"}})
	w.zteam = e.createTeam("zeta", map[string]any{"name": "zteam", "permission": "write", "units_map": map[string]string{"repo.code": "write"}})
	for _, c := range []struct{ org, repo, owner string }{{"acme", "tool", "alice"}, {"zeta", "zrepo", "zed"}, {"open", "orepo", "eve"}} {
		e.expect(e.do(as(c.owner, "POST", "/orgs/"+c.org+"/repos", map[string]any{"name": c.repo})), http.StatusCreated, "")
	}
	e.expect(e.do(rootReq("PUT", "/teams/"+tid(w.crew)+"/members/bob", nil)), http.StatusNoContent, "")
	e.expect(e.do(rootReq("PUT", "/teams/"+tid(w.zteam)+"/members/zoe", nil)), http.StatusNoContent, "")
	e.expect(e.do(rootReq("PUT", "/teams/"+tid(w.crew)+"/repos/acme/tool", nil)), http.StatusNoContent, "")
	e.expect(e.do(rootReq("PUT", "/teams/"+tid(w.zteam)+"/repos/zeta/zrepo", nil)), http.StatusNoContent, "")
	teams := e.do(as("eve", "GET", "/orgs/open/teams", nil)).list(t)
	require.Len(t, teams, 1)
	w.eveOwners = int64(teams[0]["id"].(float64))
	return w
}

// The {id} of another organisation's team, in every team route, answers
// an owner of another organisation exactly as an id no team has, and
// changes nothing.
func TestAttackForeignTeamIDs(t *testing.T) {
	t.Parallel()
	w := newAttackWorld(t)
	routes := []struct{ method, path string }{
		{"GET", "/teams/{id}"}, {"PATCH", "/teams/{id}"}, {"DELETE", "/teams/{id}"},
		{"GET", "/teams/{id}/members"}, {"GET", "/teams/{id}/members/zoe"}, {"PUT", "/teams/{id}/members/eve"},
		{"DELETE", "/teams/{id}/members/zoe"}, {"GET", "/teams/{id}/repos"}, {"GET", "/teams/{id}/repos/zeta/zrepo"},
		{"PUT", "/teams/{id}/repos/zeta/zrepo"}, {"PUT", "/teams/{id}/repos/open/orepo"}, {"DELETE", "/teams/{id}/repos/zeta/zrepo"},
	}
	for _, rt := range routes {
		var body any
		if rt.method == "PATCH" {
			body = map[string]any{"name": "pwned"}
		}
		for _, id := range []int64{w.zteam, w.crew} {
			got := w.do(as("eve", rt.method, strings.ReplaceAll(rt.path, "{id}", tid(id)), body))
			none := w.do(as("eve", rt.method, strings.ReplaceAll(rt.path, "{id}", "987654"), body))
			assert.Equal(t, none.StatusCode, got.StatusCode, "%s %s team %d: %s", rt.method, rt.path, id, got.body)
			assert.Equal(t, http.StatusNotFound, got.StatusCode, "%s %s team %d: %s", rt.method, rt.path, id, got.body)
			assert.JSONEq(t, string(none.body), string(got.body), "%s %s team %d", rt.method, rt.path, id)
		}
	}
	// Nothing changed.
	team := w.do(rootReq("GET", "/teams/"+tid(w.zteam), nil)).json(t)
	assert.Equal(t, "zteam", team["name"])
	members := w.do(rootReq("GET", "/teams/"+tid(w.zteam)+"/members", nil)).list(t)
	require.Len(t, members, 1)
	assert.Equal(t, "zoe", members[0]["login"])
	w.expect(w.do(rootReq("GET", "/teams/"+tid(w.zteam)+"/repos/zeta/zrepo", nil)), http.StatusOK, "")
	w.expect(w.do(rootReq("GET", "/teams/"+tid(w.zteam)+"/repos/open/orepo", nil)), http.StatusNotFound, "")
	// eve's own team cannot take another organisation's repository or user
	// out of its organisation.
	w.status(w.do(as("eve", "PUT", "/teams/"+tid(w.eveOwners)+"/repos/zeta/zrepo", nil)), http.StatusNotFound, "zrepo is no repository of open")
	w.expect(w.do(rootReq("GET", "/teams/"+tid(w.eveOwners)+"/repos/zeta/zrepo", nil)), http.StatusNotFound, "")
	// Another organisation's team name on eve's repository.
	w.status(w.do(as("eve", "PUT", "/repos/open/orepo/teams/zteam", nil)), http.StatusNotFound, "zteam is no team of open")
	w.status(w.do(as("eve", "GET", "/repos/zeta/zrepo/teams/zteam", nil)), http.StatusNotFound, "hidden organisation")
}

// A private organisation and its teams and members are invisible to a
// stranger wherever they could show; the same answer as for a missing one.
func TestAttackHiddenOrgOracles(t *testing.T) {
	t.Parallel()
	w := newAttackWorld(t)
	for _, p := range []string{"/orgs/{org}", "/orgs/{org}/members", "/orgs/{org}/public_members", "/orgs/{org}/teams",
		"/orgs/{org}/teams/search?q=z", "/orgs/{org}/repos", "/orgs/{org}/members/zoe", "/orgs/{org}/public_members/zed",
		"/users/zoe/orgs/{org}/permissions", "/repos/{org}/zrepo", "/repos/{org}/zrepo/teams"} {
		got := w.do(as("eve", "GET", strings.ReplaceAll(p, "{org}", "zeta"), nil))
		none := w.do(as("eve", "GET", strings.ReplaceAll(p, "{org}", "nosuchorg"), nil))
		assert.Equal(t, none.StatusCode, got.StatusCode, "%s: %s", p, got.body)
		assert.NotEqual(t, http.StatusOK, got.StatusCode, "%s: %s", p, got.body)
	}
	for _, l := range w.do(as("eve", "GET", "/users/zoe/orgs", nil)).list(t) {
		assert.NotEqual(t, "zeta", l["username"])
	}
	for _, l := range w.do(as("eve", "GET", "/orgs?limit=50", nil)).list(t) {
		assert.NotEqual(t, "zeta", l["username"])
	}
	// A plain member of acme may not manage it.
	w.expect(w.do(as("bob", "POST", "/orgs/acme/teams", map[string]any{"name": "mine", "permission": "admin"})), http.StatusForbidden, "")
	// On /teams/{id} Forgejo's reqOrgOwnership answers a non-owner with
	// 404 (no organisation is assigned on those routes).
	w.expect(w.do(as("bob", "PATCH", "/teams/"+tid(w.crew), map[string]any{"name": "crew", "permission": "admin"})), http.StatusNotFound, "")
	w.expect(w.do(as("bob", "PUT", "/teams/"+tid(w.crew)+"/members/eve", nil)), http.StatusNotFound, "")
	w.expect(w.do(as("bob", "DELETE", "/teams/"+tid(w.crew), nil)), http.StatusNotFound, "")
	team := w.do(rootReq("GET", "/teams/"+tid(w.crew), nil)).json(t)
	assert.Equal(t, "write", team["permission"], "unchanged")
	w.expect(w.do(as("bob", "PATCH", "/orgs/acme", map[string]any{"visibility": "private"})), http.StatusForbidden, "")
	w.expect(w.do(as("bob", "DELETE", "/orgs/acme/members/alice", nil)), http.StatusForbidden, "")
}

// Bad bodies are 422 and store nothing; huge pages are cut to 50.
func TestAttackBadBodiesAndPages(t *testing.T) {
	t.Parallel()
	w := newAttackWorld(t)
	count := func() int { return len(w.do(rootReq("GET", "/orgs/acme/teams?limit=50", nil)).list(t)) }
	before := count()
	for _, b := range []map[string]any{
		{"name": "", "permission": "read"},
		{"name": strings.Repeat("x", 300), "permission": "read"},
		{"name": "bad name!", "permission": "read"},
		{"name": "ok1", "permission": "god"},
		{"name": "CREW", "permission": "read"},
	} {
		r := w.do(rootReq("POST", "/orgs/acme/teams", b))
		assert.True(t, r.StatusCode == http.StatusUnprocessableEntity || r.StatusCode == http.StatusBadRequest || r.StatusCode == http.StatusConflict,
			"%v: %d %s", b, r.StatusCode, r.body)
	}
	assert.Equal(t, before, count(), "nothing stored")
	// Forgejo's convertUnitsMap takes unknown units and modes without a
	// complaint (TypeFromKey, ParseAccessMode): Hearth stores no unknown
	// unit and reads an unknown mode as none.
	r := w.do(rootReq("POST", "/orgs/acme/teams", map[string]any{"name": "odd", "permission": "read",
		"units_map": map[string]string{"repo.bogus": "read", "repo.code": "sudo"}}))
	w.expect(r, http.StatusCreated, "")
	assert.Equal(t, map[string]any{"repo.code": "none"}, r.json(t)["units_map"])
	for _, b := range []map[string]any{{"visibility": "bogus"}, {"email": "not-an-email"}, {"website": "javascript:alert(1)"}} {
		r := w.do(as("alice", "PATCH", "/orgs/acme", b))
		assert.Equal(t, http.StatusUnprocessableEntity, r.StatusCode, "%v: %s", b, r.body)
	}
	org := w.do(as("alice", "GET", "/orgs/acme", nil)).json(t)
	assert.Equal(t, "public", org["visibility"])
	assert.Equal(t, "", org["website"])
	for _, name := range []string{"ācme", strings.Repeat("a", 41), "-acme", "acme.", "a..b", "ACME", "api"} {
		r := w.do(as("alice", "POST", "/orgs", map[string]any{"username": name}))
		assert.Contains(t, []int{http.StatusUnprocessableEntity}, r.StatusCode, "%q: %s", name, r.body)
	}
	for i := 0; i < 3; i++ {
		w.createUser("m" + tid(int64(i)))
	}
	r = w.do(rootReq("GET", "/orgs/acme/teams?limit=100000&page=1", nil))
	w.expect(r, http.StatusOK, "")
	for _, p := range []string{"?page=-5", "?limit=-1", "?page=99999999999999999999", "?limit=abc"} {
		r := w.do(rootReq("GET", "/orgs/acme/members"+p, nil))
		assert.Less(t, r.StatusCode, 500, "%s: %s", p, r.body)
	}
}
