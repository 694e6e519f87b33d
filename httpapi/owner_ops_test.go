package httpapi_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The access an operation requires, as Forgejo's route declarations
// (routers/api/v1/api.go) say, written here from them and not from
// Hearth's route table:
//   - needOwner is reqOwner(): ctx.Repo.IsOwner(), the repository
//     permission's AccessModeOwner, which GetUserRepoPermission
//     (models/perm/access/repo_permission.go) gives to the owner, site
//     administrators and every member of a team of the owning
//     organisation whose mode is admin or more (the Owners team, and a
//     team created with permission "admin"); refused with 403 `user
//     should be the owner of the repo`;
//   - needAdmin is reqAdmin(): IsUserRepoAdmin, admin access through a
//     collaboration or a team; 403 `user should be an owner or a
//     collaborator with admin write of a repository`;
//   - needOrgOwner is reqOrgOwnership(): a member of the organisation's
//     Owners team; 403 `Must be an organization owner`;
//   - needSiteAdmin is reqSiteAdmin(); 403 `user should be the site admin`.
const (
	needAdmin = iota
	needOwner
	needOrgOwner
	needSiteAdmin
)

// ownerOps are operations behind reqOwner, reqAdmin and reqOrgOwnership
// in Forgejo's api.go, with the status they answer when allowed. {repo}
// is the repository of the caller's row.
var ownerOps = []struct {
	name, method, path string
	body               any
	need               int
	ok                 int
	okMessage          string
}{
	// m.Delete("/repos/{username}/{reponame}", …, reqOwner(), repo.Delete)
	{"repoDelete", "DELETE", "/repos/acme/{repo}", nil, needOwner, http.StatusNoContent, ""},
	// m.Post("", reqOwner(), reqAdmin(), bind(api.TransferRepoOption{}), repo.Transfer)
	{"repoTransfer", "POST", "/repos/acme/{repo}/transfer", map[string]any{"new_owner": "nobody-such"}, needOwner,
		http.StatusNotFound, "The new owner does not exist or cannot be found"},
	// addActionsRoutes(m, reqOwner(unit.TypeActions), repo.NewAction())
	{"repoListActionsSecrets", "GET", "/repos/acme/{repo}/actions/secrets", nil, needOwner, http.StatusOK, ""},
	{"getRepoVariablesList", "GET", "/repos/acme/{repo}/actions/variables", nil, needOwner, http.StatusOK, ""},
	// Patch(reqToken(), reqAdmin(), bind(api.EditRepoOption{}), repo.Edit)
	{"repoEdit", "PATCH", "/repos/acme/{repo}", map[string]any{"description": "edited"}, needAdmin, http.StatusOK, ""},
	// m.Group("/hooks", …, reqToken(), reqAdmin(), reqWebhooksEnabled())
	{"repoListHooks", "GET", "/repos/acme/{repo}/hooks", nil, needAdmin, http.StatusOK, ""},
	// m.Group("/tag_protections", …, reqToken(), reqAdmin())
	{"repoListTagProtection", "GET", "/repos/acme/{repo}/tag_protections", nil, needAdmin, http.StatusOK, ""},
	// m.Group("/branch_protections", …, reqToken(), reqAdmin())
	{"repoListBranchProtection", "GET", "/repos/acme/{repo}/branch_protections", nil, needAdmin, http.StatusOK, ""},
	// Put(reqAdmin(), bind(api.AddCollaboratorOption{}), repo.AddCollaborator)
	{"repoAddCollaborator", "PUT", "/repos/acme/{repo}/collaborators/outsider", map[string]any{"permission": "read"}, needAdmin, http.StatusNoContent, ""},
	// m.Group("/{topic}", …, reqAdmin())
	{"repoAddTopic", "PUT", "/repos/acme/{repo}/topics/owned", nil, needAdmin, http.StatusNoContent, ""},
	// Patch(reqToken(), reqOrgOwnership(), bind(api.EditOrgOption{}), org.Edit)
	{"orgEdit", "PATCH", "/orgs/acme", map[string]any{"description": "edited"}, needOrgOwner, http.StatusOK, ""},
	// addActionsRoutes(m, reqOrgOwnership(), org.NewAction())
	{"orgListActionsSecrets", "GET", "/orgs/acme/actions/secrets", nil, needOrgOwner, http.StatusOK, ""},
	// m.Group("/hooks", …, reqToken(), reqOrgOwnership(), reqWebhooksEnabled())
	{"orgListHooks", "GET", "/orgs/acme/hooks", nil, needOrgOwner, http.StatusOK, ""},
	// m.Post("", reqToken(), reqOrgOwnership(), bind(api.CreateLabelOption{}), org.CreateLabel)
	{"orgCreateLabel", "POST", "/orgs/acme/labels", map[string]any{"name": "{repo}", "color": "#aabbcc"}, needOrgOwner, http.StatusCreated, ""},
	// m.Group("/admin", …, tokenRequiresScopes(…Admin), reqToken(), reqSiteAdmin())
	{"adminGetAllOrgs", "GET", "/admin/orgs", nil, needSiteAdmin, http.StatusOK, ""},
}

// refusal is Forgejo's 403 message for each requirement.
var refusal = map[int]string{
	needAdmin:     "user should be an owner or a collaborator with admin write of a repository",
	needOwner:     "user should be the owner of the repo",
	needOrgOwner:  "Must be an organization owner",
	needSiteAdmin: "user should be the site admin",
}

// ownerWorld is an organisation acme (owned by boss) with a team of admin
// permission (tadmin), one of write permission (writer), both including
// every repository, and an outside collaborator with admin access to each
// repository (cadmin).
type ownerWorld struct {
	e     *env
	toks  map[string]string
	teams map[string]string // team name → id
}

func newOwnerWorld(t *testing.T) *ownerWorld {
	e := newMatrixEnv(t)
	w := &ownerWorld{e: e, toks: map[string]string{}, teams: map[string]string{}}
	for _, u := range []string{"boss", "tadmin", "writer", "cadmin", "outsider"} {
		e.createUser(u)
		w.toks[u] = e.token(u, "all")
	}
	e.createOrg("boss", "acme", "public")
	units := []string{"repo.code", "repo.issues", "repo.pulls", "repo.releases", "repo.wiki", "repo.actions"}
	for team, member := range map[string]string{"admins": "tadmin", "writers": "writer", "spare": ""} {
		body := map[string]any{"name": team, "permission": "write", "units": units, "includes_all_repositories": team != "spare"}
		if team == "admins" {
			body["permission"] = "admin"
		}
		r := w.do("boss", "POST", "/orgs/acme/teams", body)
		require.Equal(t, http.StatusCreated, r.StatusCode, "%s", r.body)
		id := tid(int64(r.json(t)["id"].(float64)))
		w.teams[team] = id
		if member != "" {
			require.Equal(t, http.StatusNoContent, w.do("boss", "PUT", "/teams/"+id+"/members/"+member, nil).StatusCode)
		}
	}
	return w
}

func (w *ownerWorld) do(who, method, path string, body any) resp {
	return w.e.do(req{method: method, path: "/api/v1" + path, token: w.toks[who], body: body})
}

// repo creates the private repository acme/name with Actions on and
// cadmin as its admin collaborator.
func (w *ownerWorld) repo(t *testing.T, name string) {
	r := w.do("boss", "POST", "/orgs/acme/repos", map[string]any{"name": name, "private": true, "auto_init": true})
	require.Equal(t, http.StatusCreated, r.StatusCode, "%s", r.body)
	r = w.do("boss", "PATCH", "/repos/acme/"+name, map[string]any{"has_actions": true})
	require.Equal(t, http.StatusOK, r.StatusCode, "%s", r.body)
	r = w.do("boss", "PUT", "/repos/acme/"+name+"/collaborators/cadmin", map[string]any{"permission": "admin"})
	require.Equal(t, http.StatusNoContent, r.StatusCode, "%s", r.body)
}

// TestOwnerOnlyOperationsAsForgejo asks each operation of ownerOps, over
// HTTP, as an owner of the organisation, a member of an admin team, an
// admin collaborator and a member of a write team, each on a repository
// of its own, and expects what Forgejo's declarations give each: the
// access mode of each caller is written here from GetUserRepoPermission
// (a team of admin mode makes its members owners of the team's
// repositories; an admin collaborator is an administrator, not an owner).
func TestOwnerOnlyOperationsAsForgejo(t *testing.T) {
	t.Parallel()
	w := newOwnerWorld(t)
	// What each caller is, per Forgejo's rules.
	has := map[string]map[int]bool{
		"boss":   {needAdmin: true, needOwner: true, needOrgOwner: true},
		"tadmin": {needAdmin: true, needOwner: true},
		"cadmin": {needAdmin: true},
		"writer": {},
	}
	for _, op := range ownerOps {
		for _, who := range []string{"boss", "tadmin", "cadmin", "writer"} {
			name := strings.ToLower(op.name + "-" + who)
			path := op.path
			if strings.Contains(path, "{repo}") {
				w.repo(t, name)
				path = strings.ReplaceAll(path, "{repo}", name)
			}
			body := op.body
			if m, ok := body.(map[string]any); ok && m["name"] == "{repo}" {
				body = map[string]any{"name": name, "color": m["color"]}
			}
			r := w.do(who, op.method, path, body)
			if has[who][op.need] {
				if assert.Equal(t, op.ok, r.StatusCode, "%s as %s: %s", op.name, who, r.body) && op.okMessage != "" {
					assert.Equal(t, op.okMessage, r.json(t)["message"], "%s as %s", op.name, who)
				}
				continue
			}
			if assert.Equal(t, http.StatusForbidden, r.StatusCode, "%s as %s: %s", op.name, who, r.body) {
				assert.Equal(t, refusal[op.need], r.json(t)["message"], "%s as %s", op.name, who)
			}
		}
	}
}

// TestRepoTeamsNeedOwnerUnlessOrgAllows is PUT and DELETE
// /repos/{owner}/{repo}/teams/{team} as Forgejo's changeRepoTeam, after
// reqAdmin: unless the organisation's repo_admin_change_team_access is on,
// only an owner of the repository (IsOwner: the Owners team, a member of a
// team of admin mode, a site administrator) may, others get 403 `user is
// nor repo admin nor owner`; with it on, any repository administrator.
func TestRepoTeamsNeedOwnerUnlessOrgAllows(t *testing.T) {
	t.Parallel()
	w := newOwnerWorld(t)
	w.repo(t, "shared")
	path := "/repos/acme/shared/teams/spare"
	try := func(who string, status int, msg string) {
		t.Helper()
		for _, method := range []string{"PUT", "DELETE"} {
			r := w.do(who, method, path, nil)
			if assert.Equal(t, status, r.StatusCode, "%s %s as %s: %s", method, path, who, r.body) && msg != "" {
				assert.Equal(t, msg, r.json(t)["message"], "%s as %s", method, who)
			}
		}
	}
	for _, on := range []bool{false, true} {
		r := w.do("boss", "PATCH", "/orgs/acme", map[string]any{"repo_admin_change_team_access": on})
		require.Equal(t, http.StatusOK, r.StatusCode, "%s", r.body)
		require.Equal(t, on, r.json(t)["repo_admin_change_team_access"])
		try("writer", http.StatusForbidden, refusal[needAdmin])
		if on {
			try("cadmin", http.StatusNoContent, "")
		} else {
			try("cadmin", http.StatusForbidden, "user is nor repo admin nor owner")
		}
		try("tadmin", http.StatusNoContent, "")
		try("boss", http.StatusNoContent, "")
	}
}

// TestTeamOwnerOperationsAsForgejo is PATCH /teams/{id} and PUT
// /teams/{id}/members/{user} on the write team, behind Forgejo's
// reqTeamMembership() (an owner or a member of the team; a member of the
// organisation outside the team 403 `Must be a team member`, anyone else
// 404) and then reqOrgOwnership(), which on /teams routes (no
// ctx.Org.Organization, only the team) answers a team member who is no
// owner 404, not 403.
func TestTeamOwnerOperationsAsForgejo(t *testing.T) {
	t.Parallel()
	w := newOwnerWorld(t)
	id := w.teams["writers"]
	for _, op := range []struct {
		method, path string
		body         any
		ok           int
	}{
		{"PATCH", "/teams/" + id, map[string]any{"name": "writers", "description": "edited"}, http.StatusOK},
		{"PUT", "/teams/" + id + "/members/outsider", nil, http.StatusNoContent},
	} {
		for who, want := range map[string][2]any{
			"boss":   {op.ok, ""},
			"tadmin": {http.StatusForbidden, "Must be a team member"},
			"writer": {http.StatusNotFound, ""}, // reqOrgOwnership without ctx.Org.Organization: NotFound
			"cadmin": {http.StatusNotFound, ""},
		} {
			r := w.do(who, op.method, op.path, op.body)
			if assert.Equal(t, want[0], r.StatusCode, "%s %s as %s: %s", op.method, op.path, who, r.body) && want[1] != "" {
				assert.Equal(t, want[1], r.json(t)["message"], "%s %s as %s", op.method, op.path, who)
			}
		}
	}
}
