package httpapi_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/auth/oauthapps"
	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/actions"
	"github.com/hearthforge/hearth/forge/federation"
	"github.com/hearthforge/hearth/forge/feeds"
	"github.com/hearthforge/hearth/forge/gpgkeys"
	"github.com/hearthforge/hearth/forge/hooks"
	"github.com/hearthforge/hearth/forge/lfs"
	"github.com/hearthforge/hearth/forge/notify"
	"github.com/hearthforge/hearth/forge/orgs"
	"github.com/hearthforge/hearth/forge/packages"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/forge/sshkeys"
	"github.com/hearthforge/hearth/httpapi"
	"github.com/hearthforge/hearth/issues"
	"github.com/hearthforge/hearth/mirror"
	"github.com/hearthforge/hearth/quota"
	"github.com/hearthforge/hearth/storage/memstore"
)

// scopeRule is one of Forgejo's route groups and the token scope
// categories its tokenRequiresScopes calls name (nested groups add up: a
// token needs every category of every group the route sits in).
type scopeRule struct {
	// method is "" for any method.
	method string
	// pattern is an OpenAPI path below /api/v1, "{}" matching one
	// segment and a final "**" the rest of the path (or nothing).
	pattern string
	cats    []forge.ScopeCategory
	// public: Forgejo's "Misc (public accessible)" group, no scope.
	public bool
	// owner: tokenRequiresRepoOwnerScope (write:user or
	// write:organization, by the repository's owner).
	owner bool
}

var (
	cUser  = forge.CategoryUser
	cRepo  = forge.CategoryRepository
	cOrg   = forge.CategoryOrganization
	cIssue = forge.CategoryIssue
	cNote  = forge.CategoryNotification
	cPkg   = forge.CategoryPackage
	cAdmin = forge.CategoryAdmin
	cAP    = forge.CategoryActivityPub
)

// forgejoScopes is read from Forgejo v15's routers/api/v1/api.go (Routes),
// group by group, independently of Hearth's route table: the first rule
// whose method and pattern match a route gives its categories. Changing a
// route's Scopes in routes*.go without changing this table fails
// TestRouteScopesPinnedToForgejo.
var forgejoScopes = []scopeRule{
	// Misc (public accessible).
	{pattern: "/version", public: true},
	{pattern: "/signing-key.gpg", public: true},
	{pattern: "/signing-key.ssh", public: true},
	{pattern: "/markup", public: true},
	{pattern: "/markdown", public: true},
	{pattern: "/markdown/raw", public: true},
	{pattern: "/gitignore/**", public: true},
	{pattern: "/licenses/**", public: true},
	{pattern: "/label/templates/**", public: true},
	{pattern: "/settings/**", public: true},
	{pattern: "/nodeinfo", public: true},
	{pattern: "/activitypub/**", cats: []forge.ScopeCategory{cAP}},
	// Notifications (requires 'notifications' scope).
	{pattern: "/notifications/**", cats: []forge.ScopeCategory{cNote}},
	// Users: the second /users group (reqToken) holds /gpg_keys: user.
	{pattern: "/users/{}/gpg_keys", cats: []forge.ScopeCategory{cUser}},
	// Public keys: /users/{username}/keys in the /users group (user),
	// /user/keys in the /user group (user), the administrator's
	// /admin/users/{username}/keys in /admin (admin), deploy keys in the
	// /repos/{owner}/{repo} group (repository).
	{pattern: "/users/{}/keys", cats: []forge.ScopeCategory{cUser}},
	{pattern: "/user/keys/**", cats: []forge.ScopeCategory{cUser}},
	{pattern: "/admin/users/{}/keys/**", cats: []forge.ScopeCategory{cAdmin}},
	{pattern: "/repos/{}/{}/keys/**", cats: []forge.ScopeCategory{cRepo}},
	// Users: the /users group is user; /repos inside it adds repository.
	{pattern: "/users/{}/repos", cats: []forge.ScopeCategory{cUser, cRepo}},
	// Organizations: /users/{username}/orgs is user and organization.
	{pattern: "/users/{}/orgs/**", cats: []forge.ScopeCategory{cUser, cOrg}},
	// The user's and organisation's feeds and the heatmap sit in the
	// /users/{username} group (user).
	{pattern: "/users/{}/activities/feeds", cats: []forge.ScopeCategory{cUser}},
	{pattern: "/users/{}/heatmap", cats: []forge.ScopeCategory{cUser}},
	// Followers and following of a user sit in the /users group (user).
	{pattern: "/users/{}/followers", cats: []forge.ScopeCategory{cUser}},
	{pattern: "/users/{}/following/**", cats: []forge.ScopeCategory{cUser}},
	{pattern: "/users/**", cats: []forge.ScopeCategory{cUser}},
	{pattern: "/user/orgs", cats: []forge.ScopeCategory{cUser, cOrg}},
	// Inside the /user group (user): /repos and /starred add repository.
	{pattern: "/user/repos", cats: []forge.ScopeCategory{cUser, cRepo}},
	{pattern: "/user/starred/**", cats: []forge.ScopeCategory{cUser, cRepo}},
	// The /user group's "(admin:gpg_key scope)" comment names no scope of
	// its own: /gpg_keys, /gpg_key_token and /gpg_key_verify are user.
	{pattern: "/user/gpg_keys/**", cats: []forge.ScopeCategory{cUser}},
	{pattern: "/user/gpg_key_token", cats: []forge.ScopeCategory{cUser}},
	{pattern: "/user/gpg_key_verify", cats: []forge.ScopeCategory{cUser}},
	// OAuth2 applications: the /user group's /applications/oauth2 (user).
	{pattern: "/user/applications/oauth2/**", cats: []forge.ScopeCategory{cUser}},
	// The /user group's e-mail addresses, followers, following, settings,
	// avatar and blocks (list_blocked, block, unblock) add no category.
	{pattern: "/user/emails", cats: []forge.ScopeCategory{cUser}},
	{pattern: "/user/followers", cats: []forge.ScopeCategory{cUser}},
	{pattern: "/user/following/**", cats: []forge.ScopeCategory{cUser}},
	{pattern: "/user/settings", cats: []forge.ScopeCategory{cUser}},
	{pattern: "/user/avatar", cats: []forge.ScopeCategory{cUser}},
	{pattern: "/user/list_blocked", cats: []forge.ScopeCategory{cUser}},
	{pattern: "/user/block/{}", cats: []forge.ScopeCategory{cUser}},
	{pattern: "/user/unblock/{}", cats: []forge.ScopeCategory{cUser}},
	{pattern: "/user/**", cats: []forge.ScopeCategory{cUser}},
	{pattern: "/org/{}/repos", cats: []forge.ScopeCategory{cOrg, cRepo}},
	{pattern: "/repositories/{}", cats: []forge.ScopeCategory{cRepo}},
	{method: "DELETE", pattern: "/repos/{}/{}", owner: true},
	// Notifications of a repository: a /repos group of its own.
	{pattern: "/repos/{}/{}/notifications", cats: []forge.ScopeCategory{cNote}},
	// Issue (requires issue scope): a /repos group of its own.
	{pattern: "/repos/issues/search", cats: []forge.ScopeCategory{cIssue}},
	{pattern: "/repos/{}/{}/issues/**", cats: []forge.ScopeCategory{cIssue}},
	{pattern: "/repos/{}/{}/labels/**", cats: []forge.ScopeCategory{cIssue}},
	{pattern: "/repos/{}/{}/milestones/**", cats: []forge.ScopeCategory{cIssue}},
	// Flags sit inside the repository group and add admin.
	{pattern: "/repos/{}/{}/flags/**", cats: []forge.ScopeCategory{cRepo, cAdmin}},
	// Repos (requires repo scope): signing-key.gpg sits in the
	// /{username}/{reponame} group (repoAssignment, no unit).
	{method: "GET", pattern: "/repos/{}/{}/signing-key.gpg", cats: []forge.ScopeCategory{cRepo}},
	// Repos (requires repo scope); repo.ListRepoActivityFeeds among them.
	{pattern: "/repos/{}/{}/activities/feeds", cats: []forge.ScopeCategory{cRepo}},
	// Repos (requires repo scope). Inside it, by name (routes_repogit.go):
	// /git/notes/{sha} and /git/blobs in the /git group, /diffpatch,
	// /editorconfig/{filename}, /issue_templates, /issue_config and
	// /issue_config/validate, each with no group of its own.
	{pattern: "/repos/{}/{}/git/notes/{}", cats: []forge.ScopeCategory{cRepo}},
	{pattern: "/repos/{}/{}/git/blobs", cats: []forge.ScopeCategory{cRepo}},
	{pattern: "/repos/{}/{}/diffpatch", cats: []forge.ScopeCategory{cRepo}},
	{pattern: "/repos/{}/{}/editorconfig/{}", cats: []forge.ScopeCategory{cRepo}},
	{pattern: "/repos/{}/{}/issue_templates", cats: []forge.ScopeCategory{cRepo}},
	{pattern: "/repos/{}/{}/issue_config", cats: []forge.ScopeCategory{cRepo}},
	{pattern: "/repos/{}/{}/issue_config/validate", cats: []forge.ScopeCategory{cRepo}},
	{pattern: "/repos/**", cats: []forge.ScopeCategory{cRepo}},
	{pattern: "/topics/search", cats: []forge.ScopeCategory{cRepo}},
	{pattern: "/packages/**", cats: []forge.ScopeCategory{cPkg}},
	// GET /orgs names tokenRequiresScopes after its handler
	// (m.Get("/orgs", org.GetAll, tokenRequiresScopes(…))): the handler
	// answers first, so no scope is ever asked.
	{method: "GET", pattern: "/orgs", public: true},
	// m.Get("/activities/feeds", org.ListOrgActivityFeeds) in /orgs/{org}
	// and org.ListTeamActivityFeeds in /teams/{teamid}: organization.
	{pattern: "/orgs/{}/activities/feeds", cats: []forge.ScopeCategory{cOrg}},
	{pattern: "/orgs/**", cats: []forge.ScopeCategory{cOrg}},
	{pattern: "/teams/{}/activities/feeds", cats: []forge.ScopeCategory{cOrg}},
	{pattern: "/teams/**", cats: []forge.ScopeCategory{cOrg}},
	// Administrators' e-mail lists sit in the /admin group (admin).
	{pattern: "/admin/emails/**", cats: []forge.ScopeCategory{cAdmin}},
	{pattern: "/admin/users/{}/emails", cats: []forge.ScopeCategory{cAdmin}},
	{pattern: "/admin/**", cats: []forge.ScopeCategory{cAdmin}},
}

// matchScopePattern reports whether path (an OpenAPI path) matches
// pattern.
func matchScopePattern(pattern, path string) bool {
	ps := strings.Split(strings.Trim(pattern, "/"), "/")
	xs := strings.Split(strings.Trim(path, "/"), "/")
	for i, p := range ps {
		if p == "**" {
			return i == len(ps)-1
		}
		if i >= len(xs) {
			return false
		}
		if p == "{}" {
			if !strings.HasPrefix(xs[i], "{") {
				return false
			}
			continue
		}
		if p != xs[i] {
			return false
		}
	}
	return len(xs) == len(ps)
}

// forgejoRule returns the first rule of forgejoScopes for method and path.
func forgejoRule(method, path string) (scopeRule, bool) {
	for _, r := range forgejoScopes {
		if (r.method == "" || r.method == method) && matchScopePattern(r.pattern, path) {
			return r, true
		}
	}
	return scopeRule{}, false
}

// TestRouteScopesPinnedToForgejo checks the scope categories of every
// served operation against forgejoScopes, the test's own reading of
// Forgejo's route groups: the route-table and access-matrix tests read the
// expected scopes from the table under test, so a scope dropped there
// (read:user off /user/starred, say) passed them.
func TestRouteScopesPinnedToForgejo(t *testing.T) {
	t.Parallel()
	// Quota enabled: its routes are registered as Forgejo's are then.
	quotaSvc, err := quota.New(quota.ServiceConfig{Store: memstore.New().Quota(), Quota: quota.Config{Enabled: true}})
	if err != nil {
		t.Fatal(err)
	}
	// Federation enabled: /nodeinfo and /activitypub are registered as
	// Forgejo's are then.
	fed, err := federation.New(federation.Config{Enabled: true, Store: memstore.New().Federation(), Keys: &federation.MemoryKeys{}})
	if err != nil {
		t.Fatal(err)
	}
	api, err := httpapi.New(httpapi.Config{Auth: new(auth.Service), Repos: &repos.Service{}, Orgs: &orgs.Service{},
		Actions: &actions.Service{}, Issues: &issues.Service{}, Hooks: &hooks.Service{}, Notify: &notify.Service{},
		Quota: quotaSvc, Mirror: &mirror.Service{}, LFS: &lfs.Service{}, Packages: &packages.Service{},
		GPGKeys: &gpgkeys.Service{}, OAuthApps: &oauthapps.Service{}, Feeds: &feeds.Service{}, SSHKeys: &sshkeys.Service{}, Federation: fed})
	if err != nil {
		t.Fatal(err)
	}
	routes := api.Routes()
	if len(routes) < 380 {
		t.Fatalf("only %d routes served: the table did not load", len(routes))
	}
	sorted := func(c []forge.ScopeCategory) []forge.ScopeCategory {
		c = slices.Clone(c)
		slices.Sort(c)
		return c
	}
	for _, rt := range routes {
		want, ok := forgejoRule(rt.Method, rt.Path)
		if !ok {
			t.Errorf("%s %s (%s): no rule of Forgejo's groups covers it", rt.Method, rt.Path, rt.Op)
			continue
		}
		switch {
		case want.public:
			if !rt.Public {
				t.Errorf("%s %s (%s): Forgejo needs no scope; Hearth asks %v", rt.Method, rt.Path, rt.Op, rt.Scopes)
			}
		case want.owner:
			if !rt.OwnerScope {
				t.Errorf("%s %s (%s): Forgejo asks the owner's scope (user or organization); Hearth asks %v", rt.Method, rt.Path, rt.Op, rt.Scopes)
			}
		default:
			if rt.Public || rt.OwnerScope || !slices.Equal(sorted(rt.Scopes), sorted(want.cats)) {
				t.Errorf("%s %s (%s): Forgejo asks %v; Hearth asks %v (public %v, owner %v)",
					rt.Method, rt.Path, rt.Op, want.cats, rt.Scopes, rt.Public, rt.OwnerScope)
			}
		}
	}
}

// TestScopePatternMatching pins the matcher the table above relies on.
func TestScopePatternMatching(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		pattern, path string
		want          bool
	}{
		{"/users/{}/repos", "/users/{username}/repos", true},
		{"/users/{}/repos", "/users/search/repos", false},
		{"/users/**", "/users", true},
		{"/users/**", "/users/{username}/starred", true},
		{"/user/**", "/users/{username}", false},
		{"/repos/{}/{}", "/repos/{owner}/{repo}", true},
		{"/repos/{}/{}", "/repos/{owner}/{repo}/issues", false},
		{"/orgs", "/orgs/{org}", false},
	} {
		if got := matchScopePattern(c.pattern, c.path); got != c.want {
			t.Errorf("match(%q, %q) = %v, want %v", c.pattern, c.path, got, c.want)
		}
	}
}
