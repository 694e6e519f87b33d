package httpapi

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/go-chi/chi/v5"

	"github.com/hearthforge/hearth/forge"
)

// operation is one operation of Forgejo's document, as generated into
// operations_gen.go: method, path below /api/v1 with {params}, operationId,
// and its parameters as "in:name".
type operation struct {
	Method, Path, ID string
	Params           []string
}

// route is one operation of the API: where it lives, which Forgejo
// operation it is, and what it requires before its handler runs. The table
// in routes is the one place these rules are written; it is joined to the
// generated operations by Op (see table).
type route struct {
	// Method and Path may be left out: they come from the operation named
	// by Op. When given, they must be the operation's (a test checks).
	Method string
	// Path is the OpenAPI path below /api/v1, with {params}.
	Path string
	// Op is the Forgejo operationId.
	Op string
	// Scopes are the token scope categories the route needs (all of them),
	// at the level of the HTTP method.
	Scopes []forge.ScopeCategory
	// Token: the route needs a signed-in user (`token is required`).
	Token bool
	// Admin: the route needs a site administrator.
	Admin bool
	// Wild names the last path parameter when it may hold slashes (file
	// paths, refs, branch names): it takes the rest of the path.
	Wild string
	// Public marks a route that needs no scope at all (Forgejo's /version,
	// /settings/*). Every other route must name its Scopes: a test fails
	// on a route with neither.
	Public bool
	// OwnerScope marks a route whose scope category depends on what the
	// path names (DELETE /repos/{owner}/{repo}: write:user for a user's
	// repository, write:organization for an organisation's, as Forgejo's
	// tokenRequiresRepoOwnerScope): the service checks it, the route
	// checks none.
	OwnerScope bool
	h          func(*call)
	// gate, when set, is the operation's permission check that runs before
	// h reads the body (gates.go).
	gate gate
	// missing marks an operation without a handler: it answers 501.
	missing bool
	// absent marks an operation the host's configuration leaves out, as
	// Forgejo leaves the route unregistered (federation off): it answers
	// as an unknown route, before authentication, and declares nothing.
	absent bool
}

// table joins the hand-written routes to the generated operations by
// operationId: one route per operation of the document, those without a
// handler marked missing (they answer 501). It returns, as errors, every
// hand-written route whose Op is no operation of the document, whose Method
// or Path disagrees with it, or that is written twice; such routes are left
// out.
//
// An operation whose domain declares its requirement (declarations) takes
// its scopes, token and administrator checks and gate from there; a route
// of such an operation that states any of them itself is an error too (the
// requirement is written once).
func (a *API) table() ([]route, []error) { return a.tableOf(a.routes()) }

// tableOf is table for a given list of hand-written routes.
func (a *API) tableOf(hand []route) ([]route, []error) {
	out, errs := a.joinRoutes(hand)
	decl := a.declarations()
	for i := range out {
		rt := &out[i]
		d, ok := decl[rt.Op]
		if !ok || rt.missing || rt.absent {
			continue
		}
		if len(rt.Scopes) > 0 || rt.Token || rt.Admin || rt.Public || rt.OwnerScope {
			errs = append(errs, fmt.Errorf("route %s states what its domain declares (%+v)", rt.Op, d.req))
		}
		rt.Scopes, rt.Token, rt.Admin, rt.gate = d.req.Categories, d.req.SignedIn, d.req.SiteAdmin, d.gate
		rt.OwnerScope = d.req.OwnerScope
		// A requirement naming no scope category (and not the owner's) is
		// Forgejo's public group (/nodeinfo, /markup): no scope is asked.
		rt.Public = len(d.req.Categories) == 0 && !d.req.OwnerScope
	}
	return out, errs
}

// joinRoutes is table for a given list of hand-written routes.
func (a *API) joinRoutes(hand []route) ([]route, []error) {
	byOp := make(map[string]int, len(operations))
	for i, o := range operations {
		byOp[o.ID] = i
	}
	handled := make(map[string]route)
	var errs []error
	for _, rt := range hand {
		i, ok := byOp[rt.Op]
		if !ok {
			errs = append(errs, fmt.Errorf("route %s %s: %q is no operationId of the document", rt.Method, rt.Path, rt.Op))
			continue
		}
		o := operations[i]
		if (rt.Method != "" && rt.Method != o.Method) || (rt.Path != "" && rt.Path != o.Path) {
			errs = append(errs, fmt.Errorf("route %s is %s %s in the document, not %s %s", rt.Op, o.Method, o.Path, rt.Method, rt.Path))
			continue
		}
		if _, dup := handled[rt.Op]; dup {
			errs = append(errs, fmt.Errorf("route %s is written twice", rt.Op))
			continue
		}
		rt.Method, rt.Path = o.Method, o.Path
		handled[rt.Op] = rt
	}
	out := make([]route, 0, len(operations))
	for _, o := range operations {
		rt, ok := handled[o.ID]
		if !ok {
			rt = route{Method: o.Method, Path: o.Path, Op: o.ID, missing: true, Wild: missingWild[o.ID]}
		}
		out = append(out, rt)
	}
	return out, errs
}

// missingWild names the wildcard parameter of operations not built yet
// whose last parameter takes the rest of the path, as Forgejo routes them,
// so that they are routed now as they will be once built.
var missingWild = map[string]string{}

// absent answers an operation the configuration leaves out exactly as an
// unknown route (the router's NotFound).
func (a *API) absent(w http.ResponseWriter, r *http.Request) {
	a.newCall(w, r).notFound()
}

// notImplemented answers an operation Hearth has not built yet: 501 in
// Forgejo's error shape.
func (a *API) notImplemented(w http.ResponseWriter, r *http.Request) {
	a.newCall(w, r).errorStatus(http.StatusNotImplemented, "not implemented: Hearth does not serve this operation yet")
}

// Scope categories for the routes of operations whose domain declares no
// requirement yet (repositories, issues, pull requests, users and tokens
// declare theirs: repos.Requirements, issues.Requirements,
// auth.Requirements).
var (
	user  = []forge.ScopeCategory{forge.CategoryUser}
	admin = []forge.ScopeCategory{forge.CategoryAdmin}
	repo  = []forge.ScopeCategory{forge.CategoryRepository}
)

// chiPattern is the router pattern of a route: its path below /api/v1, with
// the Wild parameter as chi's catch-all.
func (rt route) chiPattern() string {
	p := "/api/v1" + rt.Path
	if rt.Wild != "" {
		p = strings.TrimSuffix(p, "{"+rt.Wild+"}") + "*"
	}
	return p
}

func (a *API) routes() []route {
	routes := []route{
		{Method: "GET", Path: "/version", Op: "getVersion", Public: true, h: a.getVersion},
		{Method: "GET", Path: "/settings/api", Op: "getGeneralAPISettings", Public: true, h: a.getAPISettings},
		{Method: "GET", Path: "/settings/repository", Op: "getGeneralRepositorySettings", Public: true, h: a.getRepoSettings},
		{Method: "GET", Path: "/settings/ui", Op: "getGeneralUISettings", Public: true, h: a.getUISettings},
		{Method: "GET", Path: "/settings/attachment", Op: "getGeneralAttachmentSettings", Public: true, h: a.getAttachmentSettings},
		// Forgejo's "Misc (public accessible)" group; /label/templates waits
		// for label templates (501).
		{Method: "GET", Path: "/gitignore/templates", Op: "listGitignoresTemplates", Public: true, h: a.listGitignoreTemplates},
		{Method: "GET", Path: "/gitignore/templates/{name}", Op: "getGitignoreTemplateInfo", Public: true, h: a.getGitignoreTemplate},
		{Method: "GET", Path: "/licenses", Op: "listLicenseTemplates", Public: true, h: a.listLicenseTemplates},
		{Method: "GET", Path: "/licenses/{name}", Op: "getLicenseTemplateInfo", Public: true, h: a.getLicenseTemplate},

		{Method: "GET", Path: "/user", Op: "userGetCurrent", h: a.getCurrentUser},
		{Method: "GET", Path: "/users/search", Op: "userSearch", h: a.searchUsers},
		{Method: "GET", Path: "/users/{username}", Op: "userGet", h: a.getUser},

		{Method: "GET", Path: "/users/{username}/tokens", Op: "userGetTokens", h: a.listTokens},
		{Method: "POST", Path: "/users/{username}/tokens", Op: "userCreateToken", h: a.createToken},
		{Method: "DELETE", Path: "/users/{username}/tokens/{token}", Op: "userDeleteAccessToken", h: a.deleteToken},

		{Method: "GET", Path: "/admin/users", Op: "adminSearchUsers", h: a.adminListUsers},
		{Method: "POST", Path: "/admin/users", Op: "adminCreateUser", h: a.adminCreateUser},
		{Method: "PATCH", Path: "/admin/users/{username}", Op: "adminEditUser", h: a.adminEditUser},
		{Method: "DELETE", Path: "/admin/users/{username}", Op: "adminDeleteUser", h: a.adminDeleteUser},
		{Method: "POST", Path: "/admin/users/{username}/rename", Op: "adminRenameUser", h: a.adminRenameUser},
	}
	if a.cfg.Repos != nil {
		routes = append(routes, a.repoRoutes()...)
	}
	if a.cfg.Orgs != nil {
		routes = append(routes, a.orgRoutes()...)
	}
	if a.cfg.Actions != nil {
		routes = append(routes, a.actionsRoutes()...)
	}
	if a.cfg.Issues != nil {
		routes = append(routes, a.issueRoutes()...)
		routes = append(routes, a.issueDepsRoutes()...)
		routes = append(routes, a.issueSocialRoutes()...)
		routes = append(routes, a.pullRoutes()...)
	}
	routes = append(routes, a.hookRoutes()...)
	routes = append(routes, a.notifyRoutes()...)
	routes = append(routes, a.oauthAppRoutes()...)
	routes = append(routes, a.feedRoutes()...)
	routes = append(routes, a.sshKeyRoutes()...)
	routes = append(routes, a.peopleRoutes()...)
	routes = append(routes, a.packageRoutes()...)
	routes = append(routes, a.quotaRoutes()...)
	routes = append(routes, a.mirrorRoutes()...)
	routes = append(routes, a.syncForkRoutes()...)
	routes = append(routes, a.markupRoutes()...)
	routes = append(routes, a.federationRoutes()...)
	routes = append(routes, a.cronRoutes()...)
	routes = append(routes, a.gpgKeyRoutes()...)
	routes = append(routes, a.repoGitRoutes()...)
	routes = append(routes, a.wikiRoutes()...)
	routes = append(routes, a.flagRoutes()...)
	routes = append(routes, a.topicRoutes()...)
	routes = append(routes, a.generateRoutes()...)
	return routes
}

// repoRoutes are the repository operations. What each requires (scopes,
// token, administrator, gate) is forge/repos' declaration
// (repos.Requirements); who may do what on a repository (reader, writer,
// administrator, owner; archived repositories refuse writes) is decided by
// forge/repos, with Forgejo's messages.
func (a *API) repoRoutes() []route {
	const rp = "/repos/{owner}/{repo}"
	return []route{
		{Method: "POST", Path: "/user/repos", Op: "createCurrentUserRepo", h: a.createUserRepo},
		{Method: "GET", Path: "/user/repos", Op: "userCurrentListRepos", h: a.listMyRepos},
		{Method: "GET", Path: "/users/{username}/repos", Op: "userListRepos", h: a.listUserRepos},
		{Method: "POST", Path: "/admin/users/{username}/repos", Op: "adminCreateRepo", h: a.adminCreateRepo},
		{Method: "GET", Path: "/repos/search", Op: "repoSearch", h: a.searchRepos},
		{Method: "GET", Path: "/repositories/{id}", Op: "repoGetByID", h: a.getRepoByID},
		{Method: "GET", Path: "/user/starred", Op: "userCurrentListStarred", h: a.listReposOf(true, true)},
		{Method: "GET", Path: "/user/subscriptions", Op: "userCurrentListSubscriptions", h: a.listReposOf(true, false)},
		{Method: "GET", Path: "/users/{username}/starred", Op: "userListStarred", h: a.listReposOf(false, true)},
		{Method: "GET", Path: "/users/{username}/subscriptions", Op: "userListSubscriptions", h: a.listReposOf(false, false)},
		{Method: "GET", Path: "/user/starred/{owner}/{repo}", Op: "userCurrentCheckStarring", h: a.checkStarred},
		{Method: "PUT", Path: "/user/starred/{owner}/{repo}", Op: "userCurrentPutStar", h: a.star(true)},
		{Method: "DELETE", Path: "/user/starred/{owner}/{repo}", Op: "userCurrentDeleteStar", h: a.star(false)},

		{Method: "GET", Path: rp, Op: "repoGet", h: a.getRepo},
		{Method: "PATCH", Path: rp, Op: "repoEdit", h: a.editRepo},
		{Method: "DELETE", Path: rp, Op: "repoDelete", h: a.deleteRepo},

		{Method: "POST", Path: rp + "/transfer", Op: "repoTransfer", h: a.transferRepo},
		{Method: "POST", Path: rp + "/transfer/accept", Op: "acceptRepoTransfer", h: a.acceptTransfer},
		{Method: "POST", Path: rp + "/transfer/reject", Op: "rejectRepoTransfer", h: a.rejectTransfer},
		{Method: "POST", Path: rp + "/avatar", Op: "repoUpdateAvatar", h: a.setAvatar},
		{Method: "DELETE", Path: rp + "/avatar", Op: "repoDeleteAvatar", h: a.deleteAvatar},
		{Method: "GET", Path: rp + "/forks", Op: "listForks", h: a.listForks},
		{Method: "POST", Path: rp + "/forks", Op: "createFork", h: a.createFork},
		{Method: "GET", Path: rp + "/tag_protections", Op: "repoListTagProtection", h: a.listTagProtections},
		{Method: "POST", Path: rp + "/tag_protections", Op: "repoCreateTagProtection", h: a.createTagProtection},
		{Method: "GET", Path: rp + "/tag_protections/{id}", Op: "repoGetTagProtection", h: a.getTagProtection},
		{Method: "PATCH", Path: rp + "/tag_protections/{id}", Op: "repoEditTagProtection", h: a.editTagProtection},
		{Method: "DELETE", Path: rp + "/tag_protections/{id}", Op: "repoDeleteTagProtection", h: a.deleteTagProtection},

		{Method: "GET", Path: rp + "/releases", Op: "repoListReleases", h: a.listReleases},
		{Method: "POST", Path: rp + "/releases", Op: "repoCreateRelease", h: a.createRelease},
		{Method: "GET", Path: rp + "/releases/latest", Op: "repoGetLatestRelease", h: a.getRelease("latest")},
		{Method: "GET", Path: rp + "/releases/tags/{tag}", Op: "repoGetReleaseByTag", h: a.getRelease("tag")},
		{Method: "DELETE", Path: rp + "/releases/tags/{tag}", Op: "repoDeleteReleaseByTag", h: a.deleteRelease(true)},
		{Method: "GET", Path: rp + "/releases/{id}", Op: "repoGetRelease", h: a.getRelease("id")},
		{Method: "PATCH", Path: rp + "/releases/{id}", Op: "repoEditRelease", h: a.editRelease},
		{Method: "DELETE", Path: rp + "/releases/{id}", Op: "repoDeleteRelease", h: a.deleteRelease(false)},
		{Method: "GET", Path: rp + "/releases/{id}/assets", Op: "repoListReleaseAttachments", h: a.listAssets},
		{Method: "POST", Path: rp + "/releases/{id}/assets", Op: "repoCreateReleaseAttachment", h: a.uploadAsset},
		{Method: "GET", Path: rp + "/releases/{id}/assets/{attachment_id}", Op: "repoGetReleaseAttachment", h: a.getAsset},
		{Method: "PATCH", Path: rp + "/releases/{id}/assets/{attachment_id}", Op: "repoEditReleaseAttachment", h: a.editAsset},
		{Method: "DELETE", Path: rp + "/releases/{id}/assets/{attachment_id}", Op: "repoDeleteReleaseAttachment", h: a.deleteAsset},

		{Method: "GET", Path: rp + "/branches", Op: "repoListBranches", h: a.listBranches},
		{Method: "POST", Path: rp + "/branches", Op: "repoCreateBranch", h: a.createBranch},
		{Method: "GET", Path: rp + "/branches/{branch}", Op: "repoGetBranch", Wild: "branch", h: a.getBranch},
		{Method: "DELETE", Path: rp + "/branches/{branch}", Op: "repoDeleteBranch", Wild: "branch", h: a.deleteBranch},
		{Method: "PATCH", Path: rp + "/branches/{branch}", Op: "repoUpdateBranch", Wild: "branch", h: a.renameBranch},
		{Method: "GET", Path: rp + "/branch_protections", Op: "repoListBranchProtection", h: a.listProtections},
		{Method: "POST", Path: rp + "/branch_protections", Op: "repoCreateBranchProtection", h: a.createProtection},
		{Method: "GET", Path: rp + "/branch_protections/{name}", Op: "repoGetBranchProtection", h: a.getProtection},
		{Method: "PATCH", Path: rp + "/branch_protections/{name}", Op: "repoEditBranchProtection", h: a.editProtection},
		{Method: "DELETE", Path: rp + "/branch_protections/{name}", Op: "repoDeleteBranchProtection", h: a.deleteProtection},

		{Method: "GET", Path: rp + "/collaborators", Op: "repoListCollaborators", h: a.listCollaborators},
		{Method: "GET", Path: rp + "/collaborators/{collaborator}", Op: "repoCheckCollaborator", h: a.checkCollaborator},
		{Method: "PUT", Path: rp + "/collaborators/{collaborator}", Op: "repoAddCollaborator", h: a.addCollaborator},
		{Method: "DELETE", Path: rp + "/collaborators/{collaborator}", Op: "repoDeleteCollaborator", h: a.deleteCollaborator},
		{Method: "GET", Path: rp + "/collaborators/{collaborator}/permission", Op: "repoGetRepoPermissions", h: a.collaboratorPermission},

		{Method: "GET", Path: rp + "/contents", Op: "repoGetContentsList", h: a.getContents},
		{Method: "POST", Path: rp + "/contents", Op: "repoChangeFiles", h: a.changeFiles},
		{Method: "GET", Path: rp + "/contents/{filepath}", Op: "repoGetContents", Wild: "filepath", h: a.getContents},
		{Method: "POST", Path: rp + "/contents/{filepath}", Op: "repoCreateFile", Wild: "filepath", h: a.changeFile("create", 201)},
		{Method: "PUT", Path: rp + "/contents/{filepath}", Op: "repoUpdateFile", Wild: "filepath", h: a.changeFile("update", 200)},
		{Method: "DELETE", Path: rp + "/contents/{filepath}", Op: "repoDeleteFile", Wild: "filepath", h: a.changeFile("delete", 200)},
		{Method: "GET", Path: rp + "/raw/{filepath}", Op: "repoGetRawFile", Wild: "filepath", h: a.getRaw},
		// Hearth has no LFS: media serves the blob itself, as raw.
		{Method: "GET", Path: rp + "/media/{filepath}", Op: "repoGetRawFileOrLFS", Wild: "filepath", h: a.getRaw},
		{Method: "GET", Path: rp + "/archive/{archive}", Op: "repoGetArchive", h: a.getArchive},

		{Method: "GET", Path: rp + "/commits", Op: "repoGetAllCommits", h: a.listCommits},
		{Method: "GET", Path: rp + "/git/commits/{sha}", Op: "repoGetSingleCommit", h: a.getCommit},
		{Method: "GET", Path: rp + "/git/commits/{sha}.{diffType}", Op: "repoDownloadCommitDiffOrPatch", h: a.downloadDiff},
		{Method: "GET", Path: rp + "/git/refs", Op: "repoListAllGitRefs", h: a.listRefs},
		{Method: "GET", Path: rp + "/git/refs/{ref}", Op: "repoListGitRefs", Wild: "ref", h: a.listRefs},
		{Method: "GET", Path: rp + "/git/trees/{sha}", Op: "GetTree", h: a.getTree},
		{Method: "GET", Path: rp + "/git/blobs/{sha}", Op: "GetBlob", h: a.getBlob},
		{Method: "GET", Path: rp + "/tags", Op: "repoListTags", h: a.listTags},
		{Method: "POST", Path: rp + "/tags", Op: "repoCreateTag", h: a.createTag},
		{Method: "GET", Path: rp + "/tags/{tag}", Op: "repoGetTag", Wild: "tag", h: a.getTag},
		{Method: "DELETE", Path: rp + "/tags/{tag}", Op: "repoDeleteTag", Wild: "tag", h: a.deleteTag},
		{Method: "GET", Path: rp + "/git/tags/{sha}", Op: "GetAnnotatedTag", h: a.getAnnotatedTag},
		{Method: "GET", Path: rp + "/languages", Op: "repoGetLanguages", h: a.getLanguages},
		{Method: "POST", Path: rp + "/statuses/{sha}", Op: "repoCreateStatus", h: a.createStatus},
		{Method: "GET", Path: rp + "/statuses/{sha}", Op: "repoListStatuses", h: a.listStatuses("sha")},
		{Method: "GET", Path: rp + "/commits/{ref}/statuses", Op: "repoListStatusesByRef", h: a.listStatuses("ref")},
		{Method: "GET", Path: rp + "/commits/{ref}/status", Op: "repoGetCombinedStatusByRef", h: a.combinedStatus},

		{Method: "GET", Path: rp + "/topics", Op: "repoListTopics", h: a.listTopics},
		{Method: "PUT", Path: rp + "/topics", Op: "repoUpdateTopics", h: a.putTopics},
		{Method: "PUT", Path: rp + "/topics/{topic}", Op: "repoAddTopic", h: a.addTopic},
		{Method: "DELETE", Path: rp + "/topics/{topic}", Op: "repoDeleteTopic", h: a.deleteTopic},

		{Method: "GET", Path: rp + "/subscription", Op: "userCurrentCheckSubscription", h: a.getSubscription},
		{Method: "PUT", Path: rp + "/subscription", Op: "userCurrentPutSubscription", h: a.putSubscription},
		{Method: "DELETE", Path: rp + "/subscription", Op: "userCurrentDeleteSubscription", h: a.deleteSubscription},
		{Method: "GET", Path: rp + "/subscribers", Op: "repoListSubscribers", h: a.listSubscribers},
		{Method: "GET", Path: rp + "/stargazers", Op: "repoListStargazers", h: a.listStargazers},
	}
}

// serveRoute wraps a route's handler in Forgejo's request pipeline:
// security headers, the query-token deprecation warning, authentication,
// account state, scopes, reqToken, reqSiteAdmin.
func (a *API) serveRoute(rt route) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		c := a.newCall(w, r)
		defer c.recover()
		if !c.rateAllowed(rt.Op) {
			return
		}
		if !c.authenticate() {
			return
		}
		if c.actor.Scoped {
			level := forge.LevelForMethod(r.Method)
			// Forgejo requires every listed category although its message
			// says "at least one", and the message lists all of them.
			ok := true
			for _, cat := range rt.Scopes {
				ok = ok && c.actor.Scope.Has(cat, level)
			}
			if !ok {
				required := make([]string, len(rt.Scopes))
				for i, cat := range rt.Scopes {
					required[i] = level.String() + ":" + cat.String()
				}
				c.errorStatus(http.StatusForbidden, "token does not have at least one of required scope(s): "+bracketList(required))
				return
			}
		}
		if rt.Token && !c.actor.IsSignedIn() {
			c.errorStatus(http.StatusUnauthorized, "token is required")
			return
		}
		if rt.Admin && !c.actor.IsSiteAdmin() {
			c.errorStatus(http.StatusForbidden, "user should be the site admin")
			return
		}
		if rt.Wild != "" {
			rest := chi.URLParam(r, "*")
			if u, err := url.PathUnescape(rest); err == nil {
				rest = u
			}
			r.SetPathValue(rt.Wild, rest)
		}
		if rt.gate != nil && !rt.gate(c) {
			return
		}
		rt.h(c)
	}
}

// bracketList formats like Go's %v of a []string: [a b].
func bracketList(items []string) string {
	out := "["
	for i, s := range items {
		if i > 0 {
			out += " "
		}
		out += s
	}
	return out + "]"
}

// chiParam reads a path parameter set by chi.
func chiParam(r *http.Request, name string) string { return chi.URLParam(r, name) }
