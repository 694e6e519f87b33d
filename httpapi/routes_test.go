package httpapi_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/httpapi"
)

// outcome is an expected status and, if not empty, message.
type outcome struct {
	status int
	msg    string
}

// sample is how to call one operation in TestRouteTable. Every route needs
// one: an operation added without a sample fails the test.
type sample struct {
	path string
	body any
	// anon is the answer without credentials on routes that do not require
	// a token (those answer 401 `token is required`).
	anon outcome
	// ok is the answer to a token with exactly the required scopes.
	ok outcome
	// basic, if set, is the answer to the administrator's password.
	basic outcome
}

var samples = map[string]sample{
	"getVersion":                   {path: "/version", anon: outcome{200, ""}, ok: outcome{200, ""}},
	"getGeneralAPISettings":        {path: "/settings/api", anon: outcome{200, ""}, ok: outcome{200, ""}},
	"getGeneralRepositorySettings": {path: "/settings/repository", anon: outcome{200, ""}, ok: outcome{200, ""}},
	"getGeneralUISettings":         {path: "/settings/ui", anon: outcome{200, ""}, ok: outcome{200, ""}},
	"getGeneralAttachmentSettings": {path: "/settings/attachment", anon: outcome{200, ""}, ok: outcome{200, ""}},
	"listGitignoresTemplates":      {path: "/gitignore/templates", anon: outcome{200, ""}, ok: outcome{200, ""}},
	"getGitignoreTemplateInfo":     {path: "/gitignore/templates/C++", anon: outcome{200, ""}, ok: outcome{200, ""}},
	"listLicenseTemplates":         {path: "/licenses", anon: outcome{200, ""}, ok: outcome{200, ""}},
	"getLicenseTemplateInfo":       {path: "/licenses/MIT", anon: outcome{200, ""}, ok: outcome{200, ""}},
	"userGetCurrent":               {path: "/user", ok: outcome{200, ""}},
	"userGet":                      {path: "/users/alice", anon: outcome{200, ""}, ok: outcome{200, ""}},
	"userSearch":                   {path: "/users/search?q=ali", anon: outcome{200, ""}, ok: outcome{200, ""}},
	"userGetTokens": {path: "/users/alice/tokens",
		anon: outcome{403, "doer should be the site admin or be same as the contextUser"}, ok: outcome{200, ""}},
	"userCreateToken": {path: "/users/alice/tokens", body: map[string]any{"name": "new", "scopes": []string{"all"}},
		anon: outcome{403, "doer should be the site admin or be same as the contextUser"},
		ok:   outcome{401, "auth method not allowed"}, basic: outcome{201, ""}},
	"userDeleteAccessToken": {path: "/users/alice/tokens/a1",
		anon: outcome{403, "doer should be the site admin or be same as the contextUser"},
		ok:   outcome{401, "auth method not allowed"}, basic: outcome{204, ""}},
	"adminSearchUsers": {path: "/admin/users", ok: outcome{200, ""}},
	"adminCreateUser": {path: "/admin/users", body: map[string]any{"username": "zoe", "email": "zoe@example.com", "password": "zoe-password"},
		ok: outcome{201, ""}},
	"adminEditUser":   {path: "/admin/users/alice", body: map[string]any{"full_name": "A"}, ok: outcome{200, ""}},
	"adminDeleteUser": {path: "/admin/users/alice", ok: outcome{422, "user still has ownership of repositories [uid: 2]"}},
	"adminRenameUser": {path: "/admin/users/alice/rename", body: map[string]any{"new_username": "alicia"}, ok: outcome{204, ""}},

	// Repositories: alice/proj exists (auto_init) and the token is root's.
	"createCurrentUserRepo":      {path: "/user/repos", body: map[string]any{"name": "new"}, ok: outcome{201, ""}},
	"userCurrentListRepos":       {path: "/user/repos", ok: outcome{200, ""}},
	"userListRepos":              {path: "/users/alice/repos", anon: outcome{200, ""}, ok: outcome{200, ""}},
	"adminCreateRepo":            {path: "/admin/users/alice/repos", body: map[string]any{"name": "new"}, ok: outcome{201, ""}},
	"repoSearch":                 {path: "/repos/search?q=proj", anon: outcome{200, ""}, ok: outcome{200, ""}},
	"repoGetByID":                {path: "/repositories/1", ok: outcome{200, ""}},
	"userCurrentListStarred":     {path: "/user/starred", ok: outcome{200, ""}},
	"userCurrentCheckStarring":   {path: "/user/starred/alice/proj", ok: outcome{404, ""}},
	"userCurrentPutStar":         {path: "/user/starred/alice/proj", ok: outcome{204, ""}},
	"userCurrentDeleteStar":      {path: "/user/starred/alice/proj", ok: outcome{204, ""}},
	"repoGet":                    {path: "/repos/alice/proj", anon: outcome{200, ""}, ok: outcome{200, ""}},
	"repoEdit":                   {path: "/repos/alice/proj", body: map[string]any{"description": "d"}, ok: outcome{200, ""}},
	"repoDelete":                 {path: "/repos/alice/proj", ok: outcome{403, "token does not have at least one of required scope(s): [write:user]"}},
	"repoListBranches":           {path: "/repos/alice/proj/branches", anon: outcome{200, ""}, ok: outcome{200, ""}},
	"repoCreateBranch":           {path: "/repos/alice/proj/branches", body: map[string]any{"new_branch_name": "b"}, ok: outcome{201, ""}},
	"repoGetBranch":              {path: "/repos/alice/proj/branches/main", anon: outcome{200, ""}, ok: outcome{200, ""}},
	"repoDeleteBranch":           {path: "/repos/alice/proj/branches/main", ok: outcome{403, "can not delete default branch"}},
	"repoListBranchProtection":   {path: "/repos/alice/proj/branch_protections", ok: outcome{200, ""}},
	"repoCreateBranchProtection": {path: "/repos/alice/proj/branch_protections", body: map[string]any{"rule_name": "main"}, ok: outcome{201, ""}},
	"repoGetBranchProtection":    {path: "/repos/alice/proj/branch_protections/main", ok: outcome{404, ""}},
	"repoEditBranchProtection":   {path: "/repos/alice/proj/branch_protections/main", body: map[string]any{}, ok: outcome{404, ""}},
	"repoDeleteBranchProtection": {path: "/repos/alice/proj/branch_protections/main", ok: outcome{404, ""}},
	"repoListCollaborators":      {path: "/repos/alice/proj/collaborators", ok: outcome{200, ""}},
	"repoCheckCollaborator":      {path: "/repos/alice/proj/collaborators/root", ok: outcome{404, ""}},
	"repoAddCollaborator":        {path: "/repos/alice/proj/collaborators/root", body: map[string]any{"permission": "read"}, ok: outcome{204, ""}},
	"repoDeleteCollaborator":     {path: "/repos/alice/proj/collaborators/root", ok: outcome{404, ""}},
	"repoGetRepoPermissions":     {path: "/repos/alice/proj/collaborators/root/permission", ok: outcome{200, ""}},
	"repoGetContentsList":        {path: "/repos/alice/proj/contents", anon: outcome{200, ""}, ok: outcome{200, ""}},
	"repoGetContents":            {path: "/repos/alice/proj/contents/README.md", anon: outcome{200, ""}, ok: outcome{200, ""}},
	"repoCreateFile":             {path: "/repos/alice/proj/contents/new.txt", body: map[string]any{"content": "eA=="}, ok: outcome{201, ""}},
	"repoUpdateFile": {path: "/repos/alice/proj/contents/README.md", body: map[string]any{"content": "eA==", "sha": "0000"},
		ok: outcome{422, ""}},
	"repoDeleteFile":             {path: "/repos/alice/proj/contents/README.md", body: map[string]any{"sha": "0000"}, ok: outcome{422, ""}},
	"repoGetRawFile":             {path: "/repos/alice/proj/raw/README.md", anon: outcome{200, ""}, ok: outcome{200, ""}},
	"repoGetRawFileOrLFS":        {path: "/repos/alice/proj/media/README.md", anon: outcome{200, ""}, ok: outcome{200, ""}},
	"repoGetArchive":             {path: "/repos/alice/proj/archive/main.tar.gz", anon: outcome{200, ""}, ok: outcome{200, ""}},
	"repoGetAllCommits":          {path: "/repos/alice/proj/commits", anon: outcome{200, ""}, ok: outcome{200, ""}},
	"repoGetSingleCommit":        {path: "/repos/alice/proj/git/commits/main", anon: outcome{200, ""}, ok: outcome{200, ""}},
	"repoListAllGitRefs":         {path: "/repos/alice/proj/git/refs", anon: outcome{200, ""}, ok: outcome{200, ""}},
	"repoListGitRefs":            {path: "/repos/alice/proj/git/refs/heads/main", anon: outcome{200, ""}, ok: outcome{200, ""}},
	"GetTree":                    {path: "/repos/alice/proj/git/trees/main", anon: outcome{200, ""}, ok: outcome{200, ""}},
	"GetBlob":                    {path: "/repos/alice/proj/git/blobs/0000", anon: outcome{400, ""}, ok: outcome{400, ""}},
	"repoListTags":               {path: "/repos/alice/proj/tags", anon: outcome{200, ""}, ok: outcome{200, ""}},
	"repoCreateTag":              {path: "/repos/alice/proj/tags", body: map[string]any{"tag_name": "v1", "message": "one"}, ok: outcome{201, ""}},
	"repoGetTag":                 {path: "/repos/alice/proj/tags/v0", anon: outcome{404, ""}, ok: outcome{404, ""}},
	"repoDeleteTag":              {path: "/repos/alice/proj/tags/v0", ok: outcome{404, ""}},
	"GetAnnotatedTag":            {path: "/repos/alice/proj/git/tags/0000", anon: outcome{400, ""}, ok: outcome{400, ""}},
	"repoGetLanguages":           {path: "/repos/alice/proj/languages", anon: outcome{200, ""}, ok: outcome{200, ""}},
	"repoCreateStatus":           {path: "/repos/alice/proj/statuses/main", body: map[string]any{"state": "success", "context": "ci"}, ok: outcome{201, ""}},
	"repoListStatuses":           {path: "/repos/alice/proj/statuses/main", anon: outcome{200, ""}, ok: outcome{200, ""}},
	"repoListStatusesByRef":      {path: "/repos/alice/proj/commits/main/statuses", anon: outcome{200, ""}, ok: outcome{200, ""}},
	"repoGetCombinedStatusByRef": {path: "/repos/alice/proj/commits/main/status", anon: outcome{200, ""}, ok: outcome{200, ""}},
	"repoChangeFiles": {path: "/repos/alice/proj/contents", body: map[string]any{"files": []map[string]any{{"operation": "create", "path": "n.txt", "content": "eA=="}}},
		ok: outcome{201, ""}},
	"repoUpdateBranch":              {path: "/repos/alice/proj/branches/main", body: map[string]any{"name": "trunk"}, ok: outcome{204, ""}},
	"repoDownloadCommitDiffOrPatch": {path: "/repos/alice/proj/git/commits/main.patch", anon: outcome{200, ""}, ok: outcome{200, ""}},
	"userCurrentListSubscriptions":  {path: "/user/subscriptions", ok: outcome{200, ""}},
	"userListStarred":               {path: "/users/alice/starred", ok: outcome{200, ""}},
	"userListSubscriptions":         {path: "/users/alice/subscriptions", ok: outcome{200, ""}},
	"repoTransfer":                  {path: "/repos/alice/proj/transfer", body: map[string]any{"new_owner": "root"}, ok: outcome{202, ""}},
	"acceptRepoTransfer":            {path: "/repos/alice/proj/transfer/accept", ok: outcome{404, ""}},
	"rejectRepoTransfer":            {path: "/repos/alice/proj/transfer/reject", ok: outcome{404, ""}},
	"listForks":                     {path: "/repos/alice/proj/forks", anon: outcome{200, ""}, ok: outcome{200, ""}},
	"createFork":                    {path: "/repos/alice/proj/forks", body: map[string]any{}, ok: outcome{202, ""}},
	"repoListTagProtection":         {path: "/repos/alice/proj/tag_protections", ok: outcome{200, ""}},
	"repoCreateTagProtection":       {path: "/repos/alice/proj/tag_protections", body: map[string]any{"name_pattern": "v*", "whitelist_usernames": []string{"alice"}}, ok: outcome{201, ""}},
	"repoGetTagProtection":          {path: "/repos/alice/proj/tag_protections/1", ok: outcome{404, ""}},
	"repoEditTagProtection":         {path: "/repos/alice/proj/tag_protections/1", body: map[string]any{}, ok: outcome{404, ""}},
	"repoDeleteTagProtection":       {path: "/repos/alice/proj/tag_protections/1", ok: outcome{404, ""}},
	"repoListReleases":              {path: "/repos/alice/proj/releases", anon: outcome{200, ""}, ok: outcome{200, ""}},
	"repoCreateRelease":             {path: "/repos/alice/proj/releases", body: map[string]any{"tag_name": "v1"}, ok: outcome{201, ""}},
	"repoGetLatestRelease":          {path: "/repos/alice/proj/releases/latest", anon: outcome{404, ""}, ok: outcome{404, ""}},
	"repoGetReleaseByTag":           {path: "/repos/alice/proj/releases/tags/v1", anon: outcome{404, ""}, ok: outcome{404, ""}},
	"repoDeleteReleaseByTag":        {path: "/repos/alice/proj/releases/tags/v1", ok: outcome{404, ""}},
	"repoGetRelease":                {path: "/repos/alice/proj/releases/1", anon: outcome{404, ""}, ok: outcome{404, ""}},
	"repoEditRelease":               {path: "/repos/alice/proj/releases/1", body: map[string]any{}, ok: outcome{404, ""}},
	"repoDeleteRelease":             {path: "/repos/alice/proj/releases/1", ok: outcome{404, ""}},
	"repoListReleaseAttachments":    {path: "/repos/alice/proj/releases/1/assets", anon: outcome{404, ""}, ok: outcome{404, ""}},
	"repoCreateReleaseAttachment":   {path: "/repos/alice/proj/releases/1/assets?name=a.txt", body: "x", ok: outcome{404, ""}},
	"repoGetReleaseAttachment":      {path: "/repos/alice/proj/releases/1/assets/1", anon: outcome{404, ""}, ok: outcome{404, ""}},
	"repoEditReleaseAttachment":     {path: "/repos/alice/proj/releases/1/assets/1", body: map[string]any{"name": "b"}, ok: outcome{404, ""}},
	"repoDeleteReleaseAttachment":   {path: "/repos/alice/proj/releases/1/assets/1", ok: outcome{404, ""}},
	"repoUpdateAvatar":              {path: "/repos/alice/proj/avatar", body: map[string]any{"image": "R0lGODlhAQABAAAAACw="}, ok: outcome{204, ""}},
	"repoDeleteAvatar":              {path: "/repos/alice/proj/avatar", ok: outcome{204, ""}},
	"repoListTopics":                {path: "/repos/alice/proj/topics", anon: outcome{200, ""}, ok: outcome{200, ""}},
	"repoUpdateTopics":              {path: "/repos/alice/proj/topics", body: map[string]any{"topics": []string{"a"}}, ok: outcome{204, ""}},
	"repoAddTopic":                  {path: "/repos/alice/proj/topics/go", ok: outcome{204, ""}},
	// proj has no topic: Forgejo's DeleteTopic answers 404 for one the repository lacks.
	"repoDeleteTopic":               {path: "/repos/alice/proj/topics/go", ok: outcome{404, "The target couldn't be found."}},
	"userCurrentCheckSubscription":  {path: "/repos/alice/proj/subscription", ok: outcome{200, ""}},
	"userCurrentPutSubscription":    {path: "/repos/alice/proj/subscription", ok: outcome{200, ""}},
	"userCurrentDeleteSubscription": {path: "/repos/alice/proj/subscription", ok: outcome{204, ""}},
	"repoListSubscribers":           {path: "/repos/alice/proj/subscribers", anon: outcome{200, ""}, ok: outcome{200, ""}},
	"repoListStargazers":            {path: "/repos/alice/proj/stargazers", anon: outcome{200, ""}, ok: outcome{200, ""}},

	// The repository's git beside the contents API (routes_repogit.go):
	// main has no note and proj no .editorconfig nor issue template.
	"repoGetNote":    {path: "/repos/alice/proj/git/notes/main", anon: outcome{404, ""}, ok: outcome{404, ""}},
	"repoSetNote":    {path: "/repos/alice/proj/git/notes/main", body: map[string]any{"message": "a note"}, ok: outcome{200, ""}},
	"repoRemoveNote": {path: "/repos/alice/proj/git/notes/main", ok: outcome{404, ""}},
	"GetBlobs":       {path: "/repos/alice/proj/git/blobs?shas=0000", anon: outcome{400, ""}, ok: outcome{400, ""}},
	"repoApplyDiffPatch": {path: "/repos/alice/proj/diffpatch", body: map[string]any{"sha": "x",
		"content": "diff --git a/n.txt b/n.txt\nnew file mode 100644\n--- /dev/null\n+++ b/n.txt\n@@ -0,0 +1 @@\n+x\n"}, ok: outcome{201, ""}},
	"repoGetEditorConfig":     {path: "/repos/alice/proj/editorconfig/README.md", anon: outcome{404, ""}, ok: outcome{404, ""}},
	"repoGetIssueTemplates":   {path: "/repos/alice/proj/issue_templates", anon: outcome{200, ""}, ok: outcome{200, ""}},
	"repoGetIssueConfig":      {path: "/repos/alice/proj/issue_config", anon: outcome{200, ""}, ok: outcome{200, ""}},
	"repoValidateIssueConfig": {path: "/repos/alice/proj/issue_config/validate", anon: outcome{200, ""}, ok: outcome{200, ""}},

	// Fork sync: alice/proj is no fork.
	"repoSyncForkDefaultInfo": {path: "/repos/alice/proj/sync_fork", anon: outcome{400, "The Repo must be a fork"}, ok: outcome{400, "The Repo must be a fork"}},
	"repoSyncForkDefault":     {path: "/repos/alice/proj/sync_fork", ok: outcome{400, "The Repo must be a fork"}},
	"repoSyncForkBranchInfo":  {path: "/repos/alice/proj/sync_fork/main", anon: outcome{400, "The Repo must be a fork"}, ok: outcome{400, "The Repo must be a fork"}},
	"repoSyncForkBranch":      {path: "/repos/alice/proj/sync_fork/main", ok: outcome{400, "The Repo must be a fork"}},
}

func scopeWords(cats []forge.ScopeCategory, level string) []string {
	var out []string
	for _, c := range cats {
		out = append(out, level+":"+c.String())
	}
	return out
}

// TestRouteTable checks, for every operation of the route table, the answer
// to no credentials, to a token lacking the category, to a read token on a
// write method, and to a token with exactly the right scopes, with
// Forgejo's statuses and messages.
func TestRouteTable(t *testing.T) {
	t.Parallel()
	api, err := httpapi.New(httpapi.Config{Auth: new(auth.Service), Repos: &repos.Service{}})
	if err != nil {
		t.Fatal(err)
	}
	routes := api.Routes()
	for _, rt := range routes {
		if len(rt.Scopes) == 0 && !rt.Public && !rt.OwnerScope {
			t.Errorf("%s %s (%s) declares no scope category and is not marked Public", rt.Method, rt.Path, rt.Op)
		}
		s, ok := samples[rt.Op]
		if !ok {
			t.Errorf("%s has no sample in TestRouteTable", rt.Op)
			continue
		}
		t.Run(rt.Op, func(t *testing.T) {
			t.Parallel()
			run := func(name string, r req, want outcome) {
				t.Helper()
				e := newEnv(t)
				e.createUser("alice")
				e.expect(e.do(req{method: "POST", path: "/api/v1/users/alice/tokens", user: "root", pass: "rootpassword",
					body: map[string]any{"name": "a1", "scopes": []string{"read:user"}}}), 201, "")
				e.expect(e.do(req{method: "POST", path: "/api/v1/admin/users/alice/repos", user: "root", pass: "rootpassword",
					body: map[string]any{"name": "proj", "auto_init": true}}), 201, "")
				if r.token == "scopes" {
					r.token = e.token("root", strings.Split(r.header["scopes"], ",")...)
					r.header = nil
				}
				sampleRun(t, e, rt, s)(name, r, want)
			}
			scoped := func(words ...string) req {
				return req{token: "scopes", header: map[string]string{"scopes": strings.Join(words, ",")}}
			}
			checkRoute(rt, s, rt.Public || rt.OwnerScope, run, scoped)
		})
	}
}

// checkRoute runs the route table's cases for rt with its sample s, each
// through run: no credentials (s.anon, or 401 `token is required` on a
// token route); then, where any token may call the route (anyToken), a
// token of another category gets s.ok; elsewhere a token lacking the
// category, and a read token on a write method, get 403 naming the
// required scopes, and a token with exactly those scopes gets s.ok; last,
// the administrator's password gets s.basic when the sample sets it.
// scoped is a request carrying a token with the scopes words.
func checkRoute(rt httpapi.RouteInfo, s sample, anyToken bool, run func(name string, r req, want outcome), scoped func(words ...string) req) {
	anon := s.anon
	if rt.Token {
		anon = outcome{401, "token is required"}
	}
	run("no credentials", req{}, anon)
	if anyToken {
		run("any token", scoped("write:misc"), s.ok)
	} else {
		level := strings.ToLower(forge.LevelForMethod(rt.Method).String())
		required := "token does not have at least one of required scope(s): [" + strings.Join(scopeWords(rt.Scopes, level), " ") + "]"
		run("token lacking the category", scoped("write:misc"), outcome{403, required})
		if level == "write" {
			run("read token on a write method", scoped(scopeWords(rt.Scopes, "read")...), outcome{403, required})
		}
		run("right token", scoped(scopeWords(rt.Scopes, level)...), s.ok)
	}
	if s.basic.status != 0 {
		run("administrator's password", req{user: "root", pass: "rootpassword"}, s.basic)
	}
}

// sampleRun is checkRoute's run in the world e: it sends r as rt's
// request, with s's path and body, and checks the status and, where want
// names one, the message.
func sampleRun(t *testing.T, e *env, rt httpapi.RouteInfo, s sample) func(name string, r req, want outcome) {
	return func(name string, r req, want outcome) {
		t.Helper()
		r.method, r.path, r.body = rt.Method, "/api/v1"+s.path, s.body
		got := e.do(r)
		if !assert.Equal(t, want.status, got.StatusCode, "%s: %s", name, got.body) {
			return
		}
		if want.msg != "" {
			assert.Equal(t, want.msg, got.json(t)["message"], name)
		}
	}
}

// scoped is a request carrying a token of root's with the scopes words.
func (e *env) scoped(words ...string) req { return req{token: e.token("root", words...)} }

// allowUndocumented adds to perOperation the statuses that operations
// answer although the document does not declare them, each with its
// reason.
func allowUndocumented(add map[string]map[int]string) {
	for op, statuses := range add {
		m := perOperation[op]
		if m == nil {
			m = map[int]string{}
			perOperation[op] = m
		}
		for status, reason := range statuses {
			m[status] = reason
		}
	}
}

// checkRouteGroup is TestRouteTable for the routes one service adds (named
// group, as messages name it): the group has a sample per route and no
// more, each route declares a scope category or is Public, and each answers
// checkRoute's cases as its own subtest, in a world newWorld builds for it
// (refusals first: they change nothing, so one world serves all). anyToken,
// when not nil, tells the routes any token may call; more, when not nil,
// runs the group's own cases after them.
func checkRouteGroup(t *testing.T, group string, routes []httpapi.RouteInfo, samples map[string]sample, newWorld func(*testing.T) *env,
	anyToken func(httpapi.RouteInfo) bool, more func(run func(string, req, outcome), rt httpapi.RouteInfo, s sample)) {
	t.Helper()
	if len(routes) != len(samples) {
		t.Errorf("%s adds %d operations, its samples are %d", group, len(routes), len(samples))
	}
	for _, rt := range routes {
		if len(rt.Scopes) == 0 && !rt.Public && !rt.OwnerScope {
			t.Errorf("%s %s (%s) declares no scope category and is not marked Public", rt.Method, rt.Path, rt.Op)
		}
		s, ok := samples[rt.Op]
		if !ok {
			t.Errorf("%s of %s has no sample", rt.Op, group)
			continue
		}
		t.Run(rt.Op, func(t *testing.T) {
			t.Parallel()
			e := newWorld(t)
			run := sampleRun(t, e, rt, s)
			checkRoute(rt, s, anyToken != nil && anyToken(rt), run, e.scoped)
			if more != nil {
				more(run, rt, s)
			}
		})
	}
}
