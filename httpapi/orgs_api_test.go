package httpapi_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// names returns the field name (or key) of every object of a list body.
func names(t *testing.T, r resp, key string) []string {
	t.Helper()
	out := []string{}
	for _, m := range r.list(t) {
		out = append(out, m[key].(string))
	}
	return out
}

func TestOrgCreateGetEditDelete(t *testing.T) {
	t.Parallel()
	e := newOrgEnv(t)
	e.createUser("alice")
	e.createUser("bob")
	tok := e.token("alice", "write:organization")

	r := e.do(req{method: "POST", path: "/api/v1/orgs", token: tok, body: map[string]any{
		"username": "acme", "full_name": "Acme Inc", "email": "info@acme.example", "description": "we make things",
		"website": "https://acme.example", "location": "Earth", "repo_admin_change_team_access": true}})
	e.expect(r, http.StatusCreated, "")
	o := r.json(t)
	assert.Equal(t, "acme", o["name"])
	assert.Equal(t, "acme", o["username"])
	assert.Equal(t, "Acme Inc", o["full_name"])
	assert.Equal(t, "info@acme.example", o["email"])
	assert.Equal(t, "public", o["visibility"])
	assert.Equal(t, true, o["repo_admin_change_team_access"])

	t.Run("e-mail shown to signed-in readers only", func(t *testing.T) {
		anon := e.do(req{method: "GET", path: "/api/v1/orgs/acme"})
		e.expect(anon, http.StatusOK, "")
		assert.Equal(t, "", anon.json(t)["email"])
		signed := e.do(as("bob", "GET", "/orgs/acme", nil))
		e.expect(signed, http.StatusOK, "")
		assert.Equal(t, "info@acme.example", signed.json(t)["email"])
	})

	t.Run("refusals", func(t *testing.T) {
		e.expect(e.do(as("bob", "POST", "/orgs", map[string]any{"username": "acme"})), http.StatusUnprocessableEntity, "user already exists [name: acme]")
		e.expect(e.do(as("bob", "POST", "/orgs", map[string]any{"username": "alice"})), http.StatusUnprocessableEntity, "user already exists [name: alice]")
		e.expect(e.do(as("bob", "POST", "/orgs", map[string]any{})), http.StatusUnprocessableEntity, "[UserName]: Required")
		e.expect(e.do(as("bob", "POST", "/orgs", map[string]any{"username": "vis", "visibility": "secret"})), http.StatusUnprocessableEntity, "[Visibility]: In")
		e.expect(e.do(as("bob", "POST", "/orgs", map[string]any{"username": "bad name!"})), http.StatusUnprocessableEntity, "")
		e.expect(e.do(as("bob", "GET", "/orgs/vis", nil)), http.StatusNotFound, "")
		e.expect(e.do(req{method: "POST", path: "/api/v1/orgs", body: map[string]any{"username": "anon"}}), http.StatusUnauthorized, "token is required")
		// Forgejo's message here is the literal `%!s(<nil>)` (a nil error
		// formatted); Hearth names the refusal.
		e.expect(e.do(rootReq("PATCH", "/admin/users/bob", map[string]any{"allow_create_organization": false})), http.StatusOK, "")
		e.expect(e.do(as("bob", "POST", "/orgs", map[string]any{"username": "bobs"})), http.StatusForbidden, "Create organization not allowed")
		e.expect(e.do(as("bob", "GET", "/orgs/bobs", nil)), http.StatusNotFound, "")
	})

	t.Run("edit", func(t *testing.T) {
		e.expect(e.do(as("bob", "PATCH", "/orgs/acme", map[string]any{"description": "x"})), http.StatusForbidden, "Must be an organization owner")
		e.expect(e.do(as("alice", "PATCH", "/orgs/acme", map[string]any{"visibility": "hidden"})), http.StatusUnprocessableEntity, "[Visibility]: In")
		r := e.do(as("alice", "PATCH", "/orgs/acme", map[string]any{"description": "new", "visibility": "limited", "email": ""}))
		e.expect(r, http.StatusOK, "")
		o := r.json(t)
		assert.Equal(t, "new", o["description"])
		assert.Equal(t, "limited", o["visibility"])
		assert.Equal(t, "Acme Inc", o["full_name"], "fields left out stay")
		assert.Equal(t, "", o["email"])
	})

	t.Run("delete refused while it owns repositories", func(t *testing.T) {
		e.expect(e.do(as("alice", "POST", "/orgs/acme/repos", map[string]any{"name": "site"})), http.StatusCreated, "")
		e.expect(e.do(as("bob", "DELETE", "/orgs/acme", nil)), http.StatusForbidden, "Must be an organization owner")
		e.expect(e.do(as("alice", "DELETE", "/orgs/acme", nil)), http.StatusUnprocessableEntity, "")
		e.expect(e.do(as("alice", "GET", "/orgs/acme", nil)), http.StatusOK, "")
		e.expect(e.do(as("alice", "DELETE", "/repos/acme/site", nil)), http.StatusNoContent, "")
		e.expect(e.do(as("alice", "DELETE", "/orgs/acme", nil)), http.StatusNoContent, "")
		e.expect(e.do(as("alice", "GET", "/orgs/acme", nil)), http.StatusNotFound, "")
	})
}

func TestOrgRenameAndAvatar(t *testing.T) {
	t.Parallel()
	e := newOrgEnv(t)
	e.createUser("alice")
	e.createUser("bob")
	e.createOrg("alice", "acme", "public")

	e.expect(e.do(as("bob", "POST", "/orgs/acme/rename", map[string]any{"new_name": "x"})), http.StatusForbidden, "Must be an organization owner")
	e.expect(e.do(as("alice", "POST", "/orgs/acme/rename", map[string]any{"new_name": "bob"})), http.StatusUnprocessableEntity, "")
	e.expect(e.do(as("alice", "POST", "/orgs/acme/rename", map[string]any{})), http.StatusUnprocessableEntity, "[NewName]: Required")
	e.expect(e.do(as("alice", "POST", "/orgs/acme/rename", map[string]any{"new_name": "acme2"})), http.StatusNoContent, "")
	e.expect(e.do(as("alice", "GET", "/orgs/acme", nil)), http.StatusNotFound, "")
	r := e.do(as("alice", "GET", "/orgs/acme2", nil))
	e.expect(r, http.StatusOK, "")
	before := r.json(t)["avatar_url"]

	gif := "R0lGODlhAQABAAAAACw="
	e.expect(e.do(as("bob", "POST", "/orgs/acme2/avatar", map[string]any{"image": gif})), http.StatusForbidden, "Must be an organization owner")
	e.expect(e.do(as("alice", "POST", "/orgs/acme2/avatar", map[string]any{"image": "bm90IGFuIGltYWdl"})), http.StatusUnprocessableEntity, "")
	e.expect(e.do(as("alice", "POST", "/orgs/acme2/avatar", map[string]any{"image": gif})), http.StatusNoContent, "")
	after := e.do(as("alice", "GET", "/orgs/acme2", nil)).json(t)["avatar_url"]
	assert.NotEqual(t, before, after, "an uploaded avatar changes avatar_url")
	rec := httptest.NewRecorder()
	e.api.OrgAvatarHandler().ServeHTTP(rec, httptest.NewRequest("GET", strings.TrimPrefix(after.(string), e.srv.URL), nil))
	assert.Equal(t, http.StatusOK, rec.Code)
	assert.Equal(t, "image/gif", rec.Header().Get("Content-Type"))
	rec = httptest.NewRecorder()
	e.api.OrgAvatarHandler().ServeHTTP(rec, httptest.NewRequest("GET", "/avatars/repo-avatar-1", nil))
	assert.Equal(t, http.StatusNotFound, rec.Code, "only organisation avatars are served")
	e.expect(e.do(as("alice", "DELETE", "/orgs/acme2/avatar", nil)), http.StatusNoContent, "")
	assert.Equal(t, before, e.do(as("alice", "GET", "/orgs/acme2", nil)).json(t)["avatar_url"])
}

// TestOrgVisibilityOverHTTP: GET /orgs lists public organisations to
// anonymous readers, public and limited ones to signed-in users, all to
// site administrators; GET /orgs/{org} of an organisation the reader may
// not see is 404 like a missing one.
func TestOrgVisibilityOverHTTP(t *testing.T) {
	t.Parallel()
	e := newOrgEnv(t)
	e.createUser("alice")
	e.createUser("bob")
	e.createOrg("alice", "pub", "public")
	e.createOrg("alice", "lim", "limited")
	e.createOrg("alice", "priv", "private")

	anon := e.do(req{method: "GET", path: "/api/v1/orgs"})
	e.expect(anon, http.StatusOK, "")
	assert.Equal(t, []string{"pub"}, names(t, anon, "name"))
	assert.Equal(t, "1", anon.Header.Get("X-Total-Count"))
	assert.Equal(t, []string{"lim", "pub"}, names(t, e.do(as("bob", "GET", "/orgs", nil)), "name"))
	assert.Equal(t, []string{"lim", "priv", "pub"}, names(t, e.do(rootReq("GET", "/orgs", nil)), "name"))
	assert.Equal(t, []string{"lim", "priv", "pub"}, names(t, e.do(rootReq("GET", "/admin/orgs", nil)), "name"))
	e.expect(e.do(as("bob", "GET", "/admin/orgs", nil)), http.StatusForbidden, "user should be the site admin")

	page := e.do(rootReq("GET", "/orgs?limit=1&page=2", nil))
	assert.Equal(t, []string{"priv"}, names(t, page, "name"))
	assert.Equal(t, "3", page.Header.Get("X-Total-Count"))
	assert.Contains(t, page.Header.Get("Link"), `rel="next"`)

	for _, c := range []struct {
		who  req
		org  string
		want int
	}{
		{req{method: "GET", path: "/api/v1/orgs/pub"}, "pub", 200},
		{req{method: "GET", path: "/api/v1/orgs/lim"}, "lim", 404},
		{req{method: "GET", path: "/api/v1/orgs/priv"}, "priv", 404},
		{as("bob", "GET", "/orgs/lim", nil), "lim", 200},
		{as("bob", "GET", "/orgs/priv", nil), "priv", 404},
		{as("alice", "GET", "/orgs/priv", nil), "priv", 200},
		{rootReq("GET", "/orgs/priv", nil), "priv", 200},
	} {
		got := e.do(c.who)
		assert.Equal(t, c.want, got.StatusCode, "%s %s: %s", c.who.user, c.org, got.body)
	}
	missing := e.do(as("bob", "GET", "/orgs/nope", nil))
	hidden := e.do(as("bob", "GET", "/orgs/priv", nil))
	assert.Equal(t, missing.StatusCode, hidden.StatusCode)
	assert.Equal(t, "GetOrgByName", missing.json(t)["message"], "orgAssignment's 404")
	assert.Equal(t, []any{"user redirect does not exist [name: nope]"}, missing.json(t)["errors"])
	assert.Equal(t, "GetOrgByName", hidden.json(t)["message"], "a hidden organisation answers as a missing one")

	// The lists of a user's organisations.
	assert.Equal(t, []string{"lim", "priv", "pub"}, names(t, e.do(as("alice", "GET", "/user/orgs", nil)), "name"))
	assert.Equal(t, []string{}, names(t, e.do(as("bob", "GET", "/user/orgs", nil)), "name"))
	assert.Equal(t, []string{"lim", "priv", "pub"}, names(t, e.do(as("alice", "GET", "/users/alice/orgs", nil)), "name"))
	e.expect(e.do(as("bob", "GET", "/users/nobody/orgs", nil)), http.StatusNotFound, "")
}

func TestOrgPermissionsOverHTTP(t *testing.T) {
	t.Parallel()
	e := newAcmeEnv(t)
	e.createTeam("acme", map[string]any{"name": "writers", "permission": "write", "units": []string{"repo.code"}, "can_create_org_repo": true}, "bob")

	perm := func(who, user string) map[string]any {
		r := e.do(as(who, "GET", "/users/"+user+"/orgs/acme/permissions", nil))
		e.expect(r, http.StatusOK, "")
		return r.json(t)
	}
	assert.Equal(t, map[string]any{"is_owner": true, "is_admin": true, "can_write": true, "can_read": true, "can_create_repository": true}, perm("carol", "alice"))
	assert.Equal(t, map[string]any{"is_owner": false, "is_admin": false, "can_write": true, "can_read": true, "can_create_repository": true}, perm("carol", "bob"))
	assert.Equal(t, map[string]any{"is_owner": false, "is_admin": false, "can_write": false, "can_read": false, "can_create_repository": false}, perm("alice", "carol"))
	e.expect(e.do(as("alice", "GET", "/users/nobody/orgs/acme/permissions", nil)), http.StatusNotFound, "")
	e.expect(e.do(as("alice", "GET", "/users/bob/orgs/nope/permissions", nil)), http.StatusNotFound, "GetUserByName")
	e.expect(e.do(as("alice", "GET", "/users/nobody/orgs/acme/permissions", nil)), http.StatusNotFound, "user redirect does not exist [name: nobody]")
}

func TestOrgMembersOverHTTP(t *testing.T) {
	t.Parallel()
	e := newAcmeEnv(t)
	id := e.createTeam("acme", map[string]any{"name": "devs", "permission": "read", "units": []string{"repo.code"}}, "bob")

	t.Run("members see every member, others the public ones", func(t *testing.T) {
		assert.Equal(t, []string{"alice", "bob"}, names(t, e.do(as("bob", "GET", "/orgs/acme/members", nil)), "login"))
		assert.Equal(t, []string{}, names(t, e.do(as("carol", "GET", "/orgs/acme/members", nil)), "login"))
		assert.Equal(t, []string{}, names(t, e.do(req{method: "GET", path: "/api/v1/orgs/acme/public_members"}), "login"))
	})

	t.Run("publicize and conceal", func(t *testing.T) {
		e.expect(e.do(as("bob", "PUT", "/orgs/acme/public_members/alice", nil)), http.StatusForbidden, "Cannot publicize another member")
		e.expect(e.do(as("carol", "PUT", "/orgs/acme/public_members/carol", nil)), http.StatusForbidden, "Must be an organization member")
		e.expect(e.do(as("bob", "PUT", "/orgs/acme/public_members/bob", nil)), http.StatusNoContent, "")
		e.expect(e.do(req{method: "GET", path: "/api/v1/orgs/acme/public_members/bob"}), http.StatusNoContent, "")
		e.expect(e.do(req{method: "GET", path: "/api/v1/orgs/acme/public_members/alice"}), http.StatusNotFound, "")
		assert.Equal(t, []string{"bob"}, names(t, e.do(req{method: "GET", path: "/api/v1/orgs/acme/public_members"}), "login"))
		assert.Equal(t, []string{"bob"}, names(t, e.do(as("carol", "GET", "/orgs/acme/members", nil)), "login"))
		e.expect(e.do(as("bob", "DELETE", "/orgs/acme/public_members/alice", nil)), http.StatusForbidden, "Cannot conceal another member")
		e.expect(e.do(as("bob", "DELETE", "/orgs/acme/public_members/bob", nil)), http.StatusNoContent, "")
		e.expect(e.do(req{method: "GET", path: "/api/v1/orgs/acme/public_members/bob"}), http.StatusNotFound, "")
	})

	t.Run("is member", func(t *testing.T) {
		e.expect(e.do(as("bob", "GET", "/orgs/acme/members/alice", nil)), http.StatusNoContent, "")
		e.expect(e.do(as("bob", "GET", "/orgs/acme/members/carol", nil)), http.StatusNotFound, "")
		e.expect(e.do(rootReq("GET", "/orgs/acme/members/bob", nil)), http.StatusNoContent, "")
		e.expect(e.do(as("carol", "GET", "/orgs/acme/members/carol", nil)), http.StatusNotFound, "")
		// A stranger asking about someone else is sent to the public check.
		hr, err := http.NewRequest("GET", e.srv.URL+"/api/v1/orgs/acme/members/alice", nil)
		require.NoError(t, err)
		hr.SetBasicAuth("carol", "carol-password")
		res, err := (&http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}).Do(hr)
		require.NoError(t, err)
		res.Body.Close()
		assert.Equal(t, http.StatusSeeOther, res.StatusCode)
		assert.Equal(t, "/api/v1/orgs/acme/public_members/alice", res.Header.Get("Location"))
		e.expect(e.do(as("bob", "GET", "/orgs/acme/members/nobody", nil)), http.StatusNotFound, "")
	})

	t.Run("remove", func(t *testing.T) {
		e.expect(e.do(as("bob", "DELETE", "/orgs/acme/members/alice", nil)), http.StatusForbidden, "Must be an organization owner")
		e.expect(e.do(as("alice", "DELETE", "/orgs/acme/members/alice", nil)), http.StatusUnprocessableEntity, "")
		e.expect(e.do(as("alice", "GET", "/orgs/acme/members/alice", nil)), http.StatusNoContent, "")
		e.expect(e.do(as("alice", "DELETE", "/orgs/acme/members/bob", nil)), http.StatusNoContent, "")
		e.expect(e.do(as("alice", "GET", "/orgs/acme/members/bob", nil)), http.StatusNotFound, "")
		assert.Equal(t, []string{}, names(t, e.do(as("alice", "GET", "/teams/"+tid(id)+"/members", nil)), "login"))
	})
}

func TestOrgBlocksOverHTTP(t *testing.T) {
	t.Parallel()
	e := newAcmeEnv(t)
	e.createOrg("alice", "other", "public")
	id := e.createTeam("acme", map[string]any{"name": "devs", "permission": "read", "units": []string{"repo.code"}}, "bob")

	e.expect(e.do(as("bob", "PUT", "/orgs/acme/block/carol", nil)), http.StatusForbidden, "Must be an organization owner")
	e.expect(e.do(as("alice", "PUT", "/orgs/acme/block/other", nil)), http.StatusUnprocessableEntity, "")
	e.expect(e.do(as("alice", "PUT", "/orgs/acme/block/nobody", nil)), http.StatusNotFound, "")
	e.status(e.do(as("alice", "PUT", "/orgs/acme/unblock/carol", nil)), http.StatusNoContent, "unblocking a user not blocked changes nothing")
	e.expect(e.do(as("alice", "PUT", "/orgs/acme/block/bob", nil)), http.StatusNoContent, "")
	e.expect(e.do(as("alice", "GET", "/orgs/acme/members/bob", nil)), http.StatusNotFound, "")
	r := e.do(as("alice", "GET", "/orgs/acme/list_blocked", nil))
	e.expect(r, http.StatusOK, "")
	list := r.list(t)
	require.Len(t, list, 1)
	assert.Equal(t, "1", r.Header.Get("X-Total-Count"))
	e.expect(e.do(rootReq("PUT", "/teams/"+tid(id)+"/members/bob", nil)), http.StatusUnprocessableEntity, "")
	e.expect(e.do(as("alice", "PUT", "/orgs/acme/unblock/bob", nil)), http.StatusNoContent, "")
	assert.Empty(t, e.do(as("alice", "GET", "/orgs/acme/list_blocked", nil)).list(t))
	e.expect(e.do(rootReq("PUT", "/teams/"+tid(id)+"/members/bob", nil)), http.StatusNoContent, "")
}

// TestUsersRouteKnowsOrganisations: GET /users/{username} answers for an
// organisation as Forgejo does, a private one only to its members (and
// site administrators), 404 to others exactly as for a missing name.
func TestUsersRouteKnowsOrganisations(t *testing.T) {
	t.Parallel()
	e := newOrgEnv(t)
	e.createUser("alice")
	e.createUser("bob")
	e.createOrg("alice", "acme", "public")
	e.createOrg("alice", "secret", "private")

	r := e.do(req{method: "GET", path: "/api/v1/users/acme"})
	e.expect(r, http.StatusOK, "")
	assert.Equal(t, "acme", r.json(t)["login"])
	r = e.do(as("alice", "GET", "/users/secret", nil))
	e.expect(r, http.StatusOK, "")
	assert.Equal(t, "secret", r.json(t)["login"])
	e.expect(e.do(rootReq("GET", "/users/secret", nil)), http.StatusOK, "")
	hidden := e.do(as("bob", "GET", "/users/secret", nil))
	missing := e.do(as("bob", "GET", "/users/nosuch", nil))
	e.expect(hidden, http.StatusNotFound, "user redirect does not exist [name: secret]")
	e.expect(missing, http.StatusNotFound, "user redirect does not exist [name: nosuch]")
	e.expect(e.do(req{method: "GET", path: "/api/v1/users/secret"}), http.StatusNotFound, "")
}

func TestAdminCreateOrgOverHTTP(t *testing.T) {
	t.Parallel()
	e := newOrgEnv(t)
	e.createUser("alice")
	e.createUser("bob")
	r := e.do(rootReq("POST", "/admin/users/alice/orgs", map[string]any{"username": "acme", "visibility": "private"}))
	e.expect(r, http.StatusCreated, "")
	assert.Equal(t, "private", r.json(t)["visibility"])
	e.expect(e.do(as("alice", "GET", "/orgs/acme/members/alice", nil)), http.StatusNoContent, "")
	e.expect(e.do(as("bob", "POST", "/admin/users/bob/orgs", map[string]any{"username": "x"})), http.StatusForbidden, "user should be the site admin")
	e.expect(e.do(rootReq("POST", "/admin/users/nobody/orgs", map[string]any{"username": "x"})), http.StatusNotFound, "user redirect does not exist [name: nobody]")
	e.expect(e.do(rootReq("POST", "/admin/users/acme/orgs", map[string]any{"username": "x"})), http.StatusUnprocessableEntity, "acme is an organization not a user")
	e.expect(e.do(rootReq("GET", "/orgs/x", nil)), http.StatusNotFound, "")
}
