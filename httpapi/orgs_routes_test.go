package httpapi_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge/orgs"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/httpapi"
)

// orgSamples are the route-table samples of the organisation and team
// operations. They need the world orgWorld builds (TestOrgRouteTable): the
// organisation acme owned by alice, with alice/proj, the repository
// acme/site, the team devs (id 2, bob in it, acme/site in it) and the user
// carol in no team; the token is root's.
var orgSamples = map[string]sample{
	"orgGetAll":              {path: "/orgs", anon: outcome{200, ""}, ok: outcome{200, ""}},
	"orgCreate":              {path: "/orgs", body: map[string]any{"username": "neworg"}, ok: outcome{201, ""}},
	"orgGet":                 {path: "/orgs/acme", anon: outcome{200, ""}, ok: outcome{200, ""}},
	"orgEdit":                {path: "/orgs/acme", body: map[string]any{"description": "d"}, ok: outcome{200, ""}},
	"orgDelete":              {path: "/orgs/acme", ok: outcome{422, ""}},
	"renameOrg":              {path: "/orgs/acme/rename", body: map[string]any{"new_name": "acme2"}, ok: outcome{204, ""}},
	"orgUpdateAvatar":        {path: "/orgs/acme/avatar", body: map[string]any{"image": "R0lGODlhAQABAAAAACw="}, ok: outcome{204, ""}},
	"orgDeleteAvatar":        {path: "/orgs/acme/avatar", ok: outcome{204, ""}},
	"orgListCurrentUserOrgs": {path: "/user/orgs", ok: outcome{200, ""}},
	"orgListUserOrgs":        {path: "/users/alice/orgs", ok: outcome{200, ""}},
	"orgGetUserPermissions":  {path: "/users/alice/orgs/acme/permissions", ok: outcome{200, ""}},
	"adminGetAllOrgs":        {path: "/admin/orgs", ok: outcome{200, ""}},
	"adminCreateOrg":         {path: "/admin/users/alice/orgs", body: map[string]any{"username": "other"}, ok: outcome{201, ""}},
	"orgListMembers":         {path: "/orgs/acme/members", ok: outcome{200, ""}},
	"orgIsMember":            {path: "/orgs/acme/members/alice", ok: outcome{204, ""}},
	"orgDeleteMember":        {path: "/orgs/acme/members/bob", ok: outcome{204, ""}},
	"orgListPublicMembers":   {path: "/orgs/acme/public_members", anon: outcome{200, ""}, ok: outcome{200, ""}},
	"orgIsPublicMember":      {path: "/orgs/acme/public_members/alice", anon: outcome{404, ""}, ok: outcome{404, ""}},
	"orgPublicizeMember":     {path: "/orgs/acme/public_members/alice", ok: outcome{403, "Cannot publicize another member"}},
	"orgConcealMember":       {path: "/orgs/acme/public_members/alice", ok: outcome{403, "Cannot conceal another member"}},
	"orgListBlockedUsers":    {path: "/orgs/acme/list_blocked", ok: outcome{200, ""}},
	"orgBlockUser":           {path: "/orgs/acme/block/carol", ok: outcome{204, ""}},
	"orgUnblockUser":         {path: "/orgs/acme/unblock/carol", ok: outcome{204, ""}},
	"orgListTeams":           {path: "/orgs/acme/teams", ok: outcome{200, ""}},
	"orgCreateTeam": {path: "/orgs/acme/teams", body: map[string]any{"name": "qa", "permission": "read", "units": []string{"repo.code"}},
		ok: outcome{201, ""}},
	"teamSearch":              {path: "/orgs/acme/teams/search?q=dev", ok: outcome{200, ""}},
	"userListTeams":           {path: "/user/teams", ok: outcome{200, ""}},
	"orgGetTeam":              {path: "/teams/2", ok: outcome{200, ""}},
	"orgEditTeam":             {path: "/teams/2", body: map[string]any{"description": "x"}, ok: outcome{200, ""}},
	"orgDeleteTeam":           {path: "/teams/2", ok: outcome{204, ""}},
	"orgListTeamMembers":      {path: "/teams/2/members", ok: outcome{200, ""}},
	"orgListTeamMember":       {path: "/teams/2/members/bob", ok: outcome{200, ""}},
	"orgAddTeamMember":        {path: "/teams/2/members/carol", ok: outcome{204, ""}},
	"orgRemoveTeamMember":     {path: "/teams/2/members/bob", ok: outcome{204, ""}},
	"orgListRepos":            {path: "/orgs/acme/repos", anon: outcome{200, ""}, ok: outcome{200, ""}},
	"createOrgRepo":           {path: "/orgs/acme/repos", body: map[string]any{"name": "new"}, ok: outcome{201, ""}},
	"createOrgRepoDeprecated": {path: "/org/acme/repos", body: map[string]any{"name": "new"}, ok: outcome{201, ""}},
	"orgListTeamRepos":        {path: "/teams/2/repos", ok: outcome{200, ""}},
	"orgListTeamRepo":         {path: "/teams/2/repos/acme/site", ok: outcome{200, ""}},
	"orgAddTeamRepository":    {path: "/teams/2/repos/acme/site", ok: outcome{204, ""}},
	"orgRemoveTeamRepository": {path: "/teams/2/repos/acme/site", ok: outcome{204, ""}},
	"repoListTeams":           {path: "/repos/acme/site/teams", ok: outcome{200, ""}},
	"repoCheckTeam":           {path: "/repos/acme/site/teams/devs", ok: outcome{200, ""}},
	"repoAddTeam":             {path: "/repos/acme/site/teams/devs", ok: outcome{422, "team 'devs' is already added to repo"}},
	"repoDeleteTeam":          {path: "/repos/acme/site/teams/devs", ok: outcome{204, ""}},
}

func init() {
	for k, v := range orgSamples {
		samples[k] = v
	}
	// Statuses the document does not declare, with their reasons.
	allowUndocumented(map[string]map[int]string{
		"orgDelete":               {http.StatusUnprocessableEntity: "an organisation that still owns repositories is refused with 422 (Forgejo answers its ErrUserOwnRepos with a 500)"},
		"orgDeleteMember":         {http.StatusUnprocessableEntity: "removing the last member of the Owners team is refused with 422 (Forgejo: 500)"},
		"orgRemoveTeamMember":     {http.StatusUnprocessableEntity: "removing the last member of the Owners team is refused with 422 (Forgejo: 500)"},
		"orgDeleteTeam":           {http.StatusUnprocessableEntity: "the Owners team cannot be deleted (422)"},
		"orgEditTeam":             {http.StatusUnprocessableEntity: "an invalid or taken team name, or a change to the Owners team, is 422"},
		"orgAddTeamMember":        {http.StatusUnprocessableEntity: "adding an organisation or a blocked user to a team is 422"},
		"createOrgRepo":           {http.StatusConflict: "an existing repository name is 409 `The repository with the same name already exists.` (Forgejo's CreateUserRepo, which CreateOrgRepo calls)"},
		"createOrgRepoDeprecated": {http.StatusConflict: "as createOrgRepo"},
		"renameOrg":               {http.StatusNotFound: "an unknown {org} is orgAssignment's 404 (spec/auth.md §9); the document omits it"},
		"orgListBlockedUsers":     {http.StatusNotFound: "an unknown {org} is orgAssignment's 404 (spec/auth.md §9); the document omits it"},
		"adminCreateOrg":          {http.StatusNotFound: "an unknown {username} is 404 `user redirect does not exist` (spec/auth.md §9: UserAssignmentAPI); the document omits it"},
	})
}

// orgWorld builds what orgSamples need: alice with alice/proj, bob and
// carol; the organisation acme owned by alice with the repository
// acme/site and the team devs (id 2: code write, bob in it, acme/site in
// it).
func orgWorld(e *env) {
	e.t.Helper()
	for _, u := range []string{"alice", "bob", "carol"} {
		e.createUser(u)
	}
	e.expect(e.do(rootReq("POST", "/admin/users/alice/repos", map[string]any{"name": "proj", "auto_init": true})), 201, "")
	e.createOrg("alice", "acme", "public")
	e.expect(e.do(rootReq("POST", "/orgs/acme/repos", map[string]any{"name": "site", "auto_init": true})), 201, "")
	id := e.createTeam("acme", map[string]any{"name": "devs", "units_map": map[string]string{"repo.code": "write"}})
	if id != 2 {
		e.t.Fatalf("team devs has id %d, the samples expect 2", id)
	}
	e.expect(e.do(rootReq("PUT", "/teams/2/members/bob", nil)), 204, "")
	e.expect(e.do(rootReq("PUT", "/teams/2/repos/acme/site", nil)), 204, "")
}

// orgsAdded are the routes orgRoutes adds to the route table.
func orgsAdded(t *testing.T) []httpapi.RouteInfo {
	t.Helper()
	cfg := httpapi.Config{Auth: new(auth.Service), Repos: &repos.Service{}}
	with := cfg
	with.Orgs = &orgs.Service{}
	return addedRoutes(t, cfg, with)
}

// TestOrgRouteTable is TestRouteTable for the organisation and team
// operations: for each, the answer to no credentials, to a token lacking
// the category, to a read token on a write method, and to a token with
// exactly the right scopes, in the world of orgWorld.
func TestOrgRouteTable(t *testing.T) {
	t.Parallel()
	world := func(t *testing.T) *env {
		e := newOrgEnv(t)
		orgWorld(e)
		return e
	}
	checkRouteGroup(t, "orgRoutes", orgsAdded(t), orgSamples, world,
		func(rt httpapi.RouteInfo) bool { return rt.Public }, nil)
}

// TestOrgRoutesRefuseBadBodies: every organisation and team operation
// with a request body answers a body that is not JSON, or JSON of the
// wrong shape, with 422 in Forgejo's shape and changes nothing.
func TestOrgRoutesRefuseBadBodies(t *testing.T) {
	t.Parallel()
	e := newOrgEnv(t)
	orgWorld(e)
	routes := orgsAdded(t)
	before := e.do(rootReq("GET", "/orgs/acme", nil)).body
	n := 0
	for _, rt := range routes {
		s := orgSamples[rt.Op]
		if s.body == nil {
			continue
		}
		for _, body := range []string{"{", `{"name": 5, "username": 5, "new_name": 5, "description": 5, "image": 5}`, "[]"} {
			n++
			r := rootReq(rt.Method, s.path, body)
			got := e.do(r)
			assert.Equal(t, http.StatusUnprocessableEntity, got.StatusCode, "%s with %s: %s", rt.Op, body, got.body)
		}
	}
	if n == 0 {
		t.Fatal("no operation with a body")
	}
	assert.Equal(t, string(before), string(e.do(rootReq("GET", "/orgs/acme", nil)).body), "nothing changed")
}

// TestOrgRoutesUnknownNames: every operation on an organisation, team or
// repository that does not exist answers 404 (the deprecated POST
// /org/{org}/repos 422, as Forgejo), whoever asks. The {org} of
// /teams/{id}/repos/{org}/{repo} is not read (Forgejo looks the repository
// up in the team's organisation).
func TestOrgRoutesUnknownNames(t *testing.T) {
	t.Parallel()
	e := newOrgEnv(t)
	orgWorld(e)
	routes := orgsAdded(t)
	n := 0
	for _, rt := range routes {
		s := orgSamples[rt.Op]
		for _, swap := range [][2]string{{"/acme", "/nope"}, {"/teams/2", "/teams/99"}, {"/site", "/nosuch"}} {
			if !strings.Contains(s.path, swap[0]) || strings.HasPrefix(rt.Path, "/teams/{id}/repos/") && swap[0] == "/acme" {
				continue
			}
			n++
			path := strings.Replace(s.path, swap[0], swap[1], 1)
			want := http.StatusNotFound
			if rt.Op == "createOrgRepoDeprecated" {
				want = http.StatusUnprocessableEntity
			}
			got := e.do(rootReq(rt.Method, path, s.body))
			assert.Equal(t, want, got.StatusCode, "%s %s: %s", rt.Method, path, got.body)
		}
	}
	if n < 30 {
		t.Errorf("only %d requests", n)
	}
}
