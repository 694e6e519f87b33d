package httpapi_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTeamsOverHTTP(t *testing.T) {
	t.Parallel()
	e := newAcmeEnv(t)

	t.Run("create answers with the organisation", func(t *testing.T) {
		r := e.do(as("alice", "POST", "/orgs/acme/teams", map[string]any{"name": "devs", "description": "developers",
			"units_map": map[string]string{"repo.code": "write", "repo.issues": "read", "repo.ext_wiki": "none"}, "can_create_org_repo": true}))
		e.expect(r, http.StatusCreated, "")
		team := r.json(t)
		assert.Equal(t, "devs", team["name"])
		assert.Equal(t, "read", team["permission"], "the minimum unit mode that is not none")
		assert.Equal(t, true, team["can_create_org_repo"])
		assert.Equal(t, false, team["includes_all_repositories"])
		org, ok := team["organization"].(map[string]any)
		require.True(t, ok, "organization: %v", team["organization"])
		assert.Equal(t, "acme", org["name"])
		assert.Equal(t, "write", team["units_map"].(map[string]any)["repo.code"])
	})

	t.Run("refusals", func(t *testing.T) {
		e.expect(e.do(as("alice", "POST", "/orgs/acme/teams", map[string]any{"name": "DEVS", "permission": "read", "units": []string{"repo.code"}})),
			http.StatusUnprocessableEntity, "")
		e.expect(e.do(as("alice", "POST", "/orgs/acme/teams", map[string]any{"permission": "read"})), http.StatusUnprocessableEntity, "[Name]: Required")
		e.expect(e.do(as("alice", "POST", "/orgs/acme/teams", map[string]any{"name": "empty"})), http.StatusUnprocessableEntity, "units permission should not be empty")
		e.expect(e.do(as("carol", "POST", "/orgs/acme/teams", map[string]any{"name": "x", "permission": "read", "units": []string{"repo.code"}})),
			http.StatusForbidden, "Must be an organization member")
		e.expect(e.do(as("alice", "POST", "/orgs/nope/teams", map[string]any{"name": "x", "permission": "read", "units": []string{"repo.code"}})),
			http.StatusNotFound, "")
	})

	// devs is team 2 (Owners is 1).
	e.expect(e.do(as("alice", "PUT", "/teams/2/members/bob", nil)), http.StatusNoContent, "")

	t.Run("a plain member cannot create teams", func(t *testing.T) {
		e.expect(e.do(as("bob", "POST", "/orgs/acme/teams", map[string]any{"name": "x", "permission": "read", "units": []string{"repo.code"}})),
			http.StatusForbidden, "Must be an organization owner")
	})

	t.Run("lists leave the organisation null", func(t *testing.T) {
		r := e.do(as("alice", "GET", "/orgs/acme/teams", nil))
		e.expect(r, http.StatusOK, "")
		list := r.list(t)
		assert.Equal(t, []string{"devs", "Owners"}, names(t, r, "name"))
		for _, team := range list {
			assert.Nil(t, team["organization"])
		}
		owners := list[1]
		assert.Equal(t, "owner", owners["permission"])
		assert.Equal(t, true, owners["includes_all_repositories"])
		assert.Equal(t, "owner", owners["units_map"].(map[string]any)["repo.code"])

		// Forgejo's search lists the actor's own teams unless the actor is
		// a site administrator: bob is in devs, alice (an owner) is not.
		assert.Empty(t, e.do(as("alice", "GET", "/orgs/acme/teams/search?q=velop", nil)).json(t)["data"])
		s := e.do(as("bob", "GET", "/orgs/acme/teams/search?q=velop", nil))
		e.expect(s, http.StatusOK, "")
		body := s.json(t)
		assert.Equal(t, true, body["ok"])
		data := body["data"].([]any)
		require.Len(t, data, 1, "include_desc defaults to true")
		assert.Nil(t, data[0].(map[string]any)["organization"])
		s = e.do(as("bob", "GET", "/orgs/acme/teams/search?q=velop&include_desc=false", nil))
		assert.Empty(t, s.json(t)["data"])
		assert.Equal(t, []string{"devs", "Owners"}, names(t, e.do(as("bob", "GET", "/orgs/acme/teams", nil)), "name"),
			"any member lists every team (Forgejo's ListTeams)")
		e.expect(e.do(as("carol", "GET", "/orgs/acme/teams", nil)), http.StatusForbidden, "Must be an organization member")
	})

	t.Run("get and /user/teams fill the organisation", func(t *testing.T) {
		r := e.do(as("bob", "GET", "/teams/2", nil))
		e.expect(r, http.StatusOK, "")
		assert.Equal(t, "acme", r.json(t)["organization"].(map[string]any)["name"])
		mine := e.do(as("bob", "GET", "/user/teams", nil))
		e.expect(mine, http.StatusOK, "")
		list := mine.list(t)
		require.Len(t, list, 1)
		assert.Equal(t, "acme", list[0]["organization"].(map[string]any)["name"])
		e.expect(e.do(as("carol", "GET", "/teams/2", nil)), http.StatusNotFound, "")
		e.expect(e.do(as("alice", "GET", "/teams/999", nil)), http.StatusNotFound, "")
		e.expect(e.do(as("alice", "GET", "/teams/abc", nil)), http.StatusNotFound, "")
	})

	t.Run("edit answers with the organisation null", func(t *testing.T) {
		// reqOrgOwnership reached through a team answers 404.
		e.expect(e.do(as("bob", "PATCH", "/teams/2", map[string]any{"description": "x"})), http.StatusNotFound, "")
		r := e.do(as("alice", "PATCH", "/teams/2", map[string]any{"description": "the devs", "permission": "write", "units": []string{"repo.code", "repo.pulls"}}))
		e.expect(r, http.StatusOK, "")
		team := r.json(t)
		assert.Nil(t, team["organization"])
		assert.Equal(t, "the devs", team["description"])
		assert.Equal(t, "devs", team["name"], "an empty name leaves it")
		assert.Equal(t, "write", team["permission"])
		e.expect(e.do(as("alice", "PATCH", "/teams/2", map[string]any{"name": "owners"})), http.StatusUnprocessableEntity, "")
	})

	t.Run("members", func(t *testing.T) {
		assert.Equal(t, []string{"bob"}, names(t, e.do(as("bob", "GET", "/teams/2/members", nil)), "login"))
		r := e.do(as("bob", "GET", "/teams/2/members/bob", nil))
		e.expect(r, http.StatusOK, "")
		assert.Equal(t, "bob", r.json(t)["login"])
		e.expect(e.do(as("bob", "GET", "/teams/2/members/alice", nil)), http.StatusNotFound, "")
		e.expect(e.do(as("bob", "PUT", "/teams/2/members/carol", nil)), http.StatusNotFound, "")
		e.expect(e.do(as("alice", "PUT", "/teams/2/members/nobody", nil)), http.StatusNotFound, "")
		e.expect(e.do(as("alice", "PUT", "/teams/2/members/carol", nil)), http.StatusNoContent, "")
		e.status(e.do(as("carol", "GET", "/orgs/acme/members/carol", nil)), http.StatusNoContent, "a team member is an organisation member")
		e.expect(e.do(as("alice", "DELETE", "/teams/2/members/carol", nil)), http.StatusNoContent, "")
		e.status(e.do(as("alice", "GET", "/orgs/acme/members/carol", nil)), http.StatusNotFound, "leaving the last team ends the membership")
	})

	t.Run("the Owners team is never left empty nor deleted", func(t *testing.T) {
		e.expect(e.do(as("alice", "DELETE", "/teams/1/members/alice", nil)), http.StatusUnprocessableEntity, "")
		e.expect(e.do(as("alice", "DELETE", "/teams/1", nil)), http.StatusUnprocessableEntity, "")
		assert.Equal(t, []string{"alice"}, names(t, e.do(as("alice", "GET", "/teams/1/members", nil)), "login"))
		e.expect(e.do(as("alice", "PUT", "/teams/1/members/carol", nil)), http.StatusNoContent, "")
		e.expect(e.do(as("alice", "DELETE", "/teams/1/members/alice", nil)), http.StatusNoContent, "")
		e.expect(e.do(as("carol", "PUT", "/teams/1/members/alice", nil)), http.StatusNoContent, "")
	})

	t.Run("activity feeds wait for the issues work: 501", func(t *testing.T) {
		e.expect(e.do(as("alice", "GET", "/teams/2/activities/feeds", nil)), http.StatusNotImplemented, "")
		e.expect(e.do(as("alice", "GET", "/orgs/acme/activities/feeds", nil)), http.StatusNotImplemented, "")
	})

	t.Run("delete", func(t *testing.T) {
		e.expect(e.do(as("bob", "DELETE", "/teams/2", nil)), http.StatusNotFound, "")
		e.expect(e.do(as("alice", "DELETE", "/teams/2", nil)), http.StatusNoContent, "")
		e.expect(e.do(as("alice", "GET", "/teams/2", nil)), http.StatusNotFound, "")
		e.expect(e.do(as("alice", "GET", "/orgs/acme/members/bob", nil)), http.StatusNotFound, "")
	})
}

func TestTeamReposOverHTTP(t *testing.T) {
	t.Parallel()
	e := newAcmeEnv(t)
	e.createOrg("alice", "other", "public")
	e.expect(e.do(as("alice", "POST", "/orgs/acme/repos", map[string]any{"name": "site", "private": true})), http.StatusCreated, "")
	e.expect(e.do(as("alice", "POST", "/orgs/acme/repos", map[string]any{"name": "docs"})), http.StatusCreated, "")
	e.expect(e.do(as("alice", "POST", "/orgs/other/repos", map[string]any{"name": "elsewhere"})), http.StatusCreated, "")
	id := e.createTeam("acme", map[string]any{"name": "devs", "permission": "write", "units": []string{"repo.code"}}, "bob")
	team := "/teams/" + tid(id)

	e.status(e.do(as("bob", "GET", "/repos/acme/site", nil)), http.StatusNotFound, "a private repository the team lacks is invisible")
	// Forgejo answers 403 `Must have admin-level access to the repository`
	// even for a private repository the member cannot see; Hearth does not
	// reveal it: 404.
	e.expect(e.do(as("bob", "PUT", team+"/repos/acme/site", nil)), http.StatusNotFound, "")
	e.expect(e.do(as("bob", "PUT", team+"/repos/acme/docs", nil)), http.StatusForbidden, "Must have admin-level access to the repository")
	e.expect(e.do(as("alice", "PUT", team+"/repos/other/elsewhere", nil)), http.StatusNotFound, "")
	e.expect(e.do(as("alice", "PUT", team+"/repos/acme/nope", nil)), http.StatusNotFound, "")
	e.expect(e.do(as("alice", "PUT", team+"/repos/acme/site", nil)), http.StatusNoContent, "")

	r := e.do(as("bob", "GET", team+"/repos", nil))
	e.expect(r, http.StatusOK, "")
	list := r.list(t)
	require.Len(t, list, 1)
	assert.Equal(t, "site", list[0]["name"])
	assert.Equal(t, map[string]any{"admin": false, "push": true, "pull": true}, list[0]["permissions"])
	e.expect(e.do(as("bob", "GET", team+"/repos/acme/site", nil)), http.StatusOK, "")
	e.expect(e.do(as("bob", "GET", team+"/repos/acme/docs", nil)), http.StatusNotFound, "")
	e.status(e.do(as("bob", "GET", "/repos/acme/site", nil)), http.StatusOK, "the team's repository is visible to its members")

	// /repos/{owner}/{repo}/teams
	teams := e.do(as("bob", "GET", "/repos/acme/site/teams", nil))
	e.expect(teams, http.StatusOK, "")
	assert.ElementsMatch(t, []string{"Owners", "devs"}, names(t, teams, "name"))
	for _, team := range teams.list(t) {
		assert.Nil(t, team["organization"], "repository team lists leave the organisation null")
	}
	one := e.do(as("bob", "GET", "/repos/acme/site/teams/devs", nil))
	e.expect(one, http.StatusOK, "")
	assert.Equal(t, "devs", one.json(t)["name"])
	e.expect(e.do(as("bob", "GET", "/repos/acme/docs/teams/devs", nil)), http.StatusNotFound, "")
	e.expect(e.do(as("bob", "PUT", "/repos/acme/docs/teams/devs", nil)), http.StatusForbidden, "")
	e.expect(e.do(as("alice", "PUT", "/repos/acme/site/teams/devs", nil)), http.StatusUnprocessableEntity, "team 'devs' is already added to repo")
	e.expect(e.do(as("alice", "PUT", "/repos/acme/docs/teams/nope", nil)), http.StatusNotFound, "")
	e.expect(e.do(as("alice", "PUT", "/repos/acme/docs/teams/devs", nil)), http.StatusNoContent, "")
	e.expect(e.do(as("alice", "DELETE", "/repos/acme/docs/teams/devs", nil)), http.StatusNoContent, "")
	e.status(e.do(as("alice", "DELETE", "/repos/acme/docs/teams/devs", nil)), http.StatusUnprocessableEntity, "team 'devs' was not added to repo")
	e.expect(e.do(as("carol", "GET", "/repos/acme/site/teams", nil)), http.StatusNotFound, "")

	// A user's repository has no teams: Forgejo's 405.
	e.expect(e.do(rootReq("POST", "/admin/users/alice/repos", map[string]any{"name": "mine"})), http.StatusCreated, "")
	e.status(e.do(as("alice", "GET", "/repos/alice/mine/teams", nil)), http.StatusMethodNotAllowed, "repo is not owned by an organization")

	e.expect(e.do(as("alice", "DELETE", team+"/repos/acme/site", nil)), http.StatusNoContent, "")
	e.expect(e.do(as("bob", "GET", "/repos/acme/site", nil)), http.StatusNotFound, "")
	assert.Empty(t, e.do(as("bob", "GET", team+"/repos", nil)).list(t))
}

func TestOrgRepositoryRoutes(t *testing.T) {
	t.Parallel()
	e := newAcmeEnv(t)
	e.createTeam("acme", map[string]any{"name": "makers", "permission": "write", "units": []string{"repo.code"}, "can_create_org_repo": true}, "bob")

	r := e.do(as("alice", "POST", "/orgs/acme/repos", map[string]any{"name": "pub", "auto_init": true}))
	e.expect(r, http.StatusCreated, "")
	assert.Equal(t, "acme", r.json(t)["owner"].(map[string]any)["login"])
	e.expect(e.do(as("bob", "POST", "/org/acme/repos", map[string]any{"name": "hidden", "private": true})), http.StatusCreated, "")
	e.expect(e.do(as("carol", "POST", "/orgs/acme/repos", map[string]any{"name": "x"})), http.StatusForbidden, "")
	e.expect(e.do(as("carol", "POST", "/orgs/nope/repos", map[string]any{"name": "x"})), http.StatusNotFound, "")
	e.expect(e.do(as("carol", "POST", "/org/nope/repos", map[string]any{"name": "x"})), http.StatusUnprocessableEntity, "org does not exist [id: 0, name: nope]")
	e.expect(e.do(as("alice", "POST", "/orgs/acme/repos", map[string]any{})), http.StatusUnprocessableEntity, "[Name]: Required")
	e.expect(e.do(as("alice", "POST", "/orgs/acme/repos", map[string]any{"name": "pub"})), http.StatusConflict, "")

	assert.Equal(t, []string{"pub"}, names(t, e.do(req{method: "GET", path: "/api/v1/orgs/acme/repos"}), "name"))
	assert.Equal(t, []string{"pub"}, names(t, e.do(as("carol", "GET", "/orgs/acme/repos", nil)), "name"))
	assert.ElementsMatch(t, []string{"hidden", "pub"}, names(t, e.do(as("alice", "GET", "/orgs/acme/repos", nil)), "name"))
	e.expect(e.do(req{method: "GET", path: "/api/v1/orgs/nope/repos"}), http.StatusNotFound, "GetOrgByName")
}
