package httpapi_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/auth/oauthapps"
	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/actions"
	"github.com/hearthforge/hearth/forge/cron"
	"github.com/hearthforge/hearth/forge/feeds"
	"github.com/hearthforge/hearth/forge/gpgkeys"
	"github.com/hearthforge/hearth/forge/hooks"
	"github.com/hearthforge/hearth/forge/hooks/hookhttp"
	"github.com/hearthforge/hearth/forge/markup"
	"github.com/hearthforge/hearth/forge/notify"
	"github.com/hearthforge/hearth/forge/packages"
	"github.com/hearthforge/hearth/forge/site"
	"github.com/hearthforge/hearth/httpapi"
	"github.com/hearthforge/hearth/issues"
	"github.com/hearthforge/hearth/mirror"
	"github.com/hearthforge/hearth/quota"
	"github.com/hearthforge/hearth/storage/gitstore"
)

// newMatrixEnv is the API with every service wired in, on one SQLite file in
// t.TempDir(), served on loopback.
func newMatrixEnv(t *testing.T) *env {
	t.Helper()
	key := testSecret
	b := newBase(t, filepath.Join(t.TempDir(), "hearth.db"), key)
	db, clock, svc, git, blobs := b.db, b.clock, b.auth, b.git, b.blobs
	repoSvc, repoPorts := b.repoService(t)
	orgSvc, orgPorts := b.orgService(t, repoSvc)
	issueSvc, participants, err := issues.NewWithPorts(issues.Config{Store: db.Issues(), Repos: repoSvc, Orgs: orgSvc,
		Search: site.IssueRepos{Repos: repoSvc}, Clock: clock, Blobs: blobs, Teams: orgSvc, TeamLookup: orgPorts,
		Pulls: issues.PullConfig{Git: git, Repos: repoSvc}})
	require.NoError(t, err)
	notifySvc, ports, err := notify.NewWithPorts(notify.Config{Store: db.Notify(), Repos: repoSvc, Watchers: repoPorts,
		Participants: participants})
	require.NoError(t, err)
	actSvc, err := actions.New(actions.Config{Store: db.Actions(), Key: key, Repos: repoSvc, Orgs: orgSvc, Clock: clock})
	require.NoError(t, err)
	policy, err := hooks.ParseAddressPolicy(nil)
	require.NoError(t, err)
	hookSvc, err := hooks.New(hooks.Config{Store: db.Hooks(), Clock: clock, Repos: repoSvc, Orgs: orgSvc,
		Sender: hookhttp.New(policy), Timeout: time.Second, RootURL: "https://forge.example/",
		Payloads: &site.HookPayloads{RootURL: "https://forge.example/", Accounts: repoPorts}})
	require.NoError(t, err)
	quotaSvc, err := quota.New(quota.ServiceConfig{Store: db.Quota(), Quota: quota.Config{Enabled: true}, Orgs: orgSvc})
	require.NoError(t, err)
	pkgSvc, err := packages.New(packages.Config{Store: db.Packages(), Blobs: blobs, Orgs: orgSvc, Repos: repoSvc, Clock: clock})
	require.NoError(t, err)
	mirrorSvc, err := mirror.New(mirror.Config{Store: db.Mirrors(), Repos: mirrorRepos{repoSvc}, Creator: site.MirrorCreator{Repos: repoSvc},
		Git: gitstore.Mirror{Store: git}, Policy: mirror.Policy{AllowLoopback: true}, Secret: []byte("0123456789abcdef0123456789abcdef")})
	require.NoError(t, err)
	gpgSvc, err := gpgkeys.New(gpgkeys.Config{Store: db.GPGKeys(), Users: svc, Emails: site.PrimaryEmails{Store: db.Auth()},
		Repos: repoSvc, Signing: matrixSigningKeys(t), Clock: clock})
	require.NoError(t, err)
	feedSvc, err := feeds.New(feeds.Config{Store: db.Feeds(), Repos: repoSvc, Accounts: svc, Orgs: orgSvc,
		Teams: site.TeamRepos{Orgs: orgSvc}, Watchers: repoPorts, Clock: clock})
	require.NoError(t, err)
	oauthSvc, err := oauthapps.New(oauthapps.Config{Store: db.OAuthApps(), Clock: clock})
	require.NoError(t, err)
	// No rate limit: the matrix makes thousands of requests from one address.
	return b.serve(t, httpapi.Config{Auth: svc, Repos: repoSvc, RepoPorts: repoPorts, Git: git, Orgs: orgSvc, Issues: issueSvc,
		Actions: actSvc, Hooks: hookSvc, Notify: notifySvc, Quota: quotaSvc, Packages: pkgSvc,
		Mirror: mirrorSvc, GPGKeys: gpgSvc, Feeds: feedSvc, OAuthApps: oauthSvc, RateLimit: httpapi.RateLimit{Disabled: true},
		Markup: markup.New(markup.Config{Mentions: site.Mentions{Auth: svc}}), Cron: matrixCron(t)}, b.notifications(t, ports))
}

// matrixWorld is the seeded world of the access matrix.
//
// Users: olivia owns everything; reader, writer and radmin are read, write
// and admin collaborators on olivia's repositories; teamr and teamw are
// members of the read and write teams of every organisation; stranger has
// no relation; hidden is a private user and limited a limited one; root is
// the site administrator. Organisations (owned by olivia): puborg
// (public), limorg (limited), privorg (private). Repositories: pubrepo
// (public) and privrepo (private) under olivia and under each
// organisation; pubrepo and privrepo of olivia hold issue 1 with comment,
// label, milestone, release v1, hook, secret S1 and variable V1.
type matrixWorld struct {
	e       *env
	tokens  map[string]string // actor name → token
	teamIDs map[string]string // "org/team" → id
	repoIDs map[string]string // "owner/repo" → id
	thread  string            // id of a notification thread of olivia's
	// pull is the index of the pull request (feature into main) of
	// olivia's pubrepo and privrepo, privorg/privrepo and puborg/pubrepo;
	// headSHA is the
	// head commit of pubrepo's; review is writer's approval of pubrepo's
	// pull and reviewComment its code comment.
	pull, headSHA, review, reviewComment string
}

// matrixUsers are the users of the world besides root.
var matrixUsers = []string{"olivia", "reader", "writer", "radmin", "teamr", "teamw", "stranger", "hidden", "limited"}

func seedMatrix(t *testing.T, e *env) *matrixWorld {
	w := &matrixWorld{e: e, tokens: map[string]string{}, teamIDs: map[string]string{}, repoIDs: map[string]string{}}
	ok := func(r resp, why string) resp {
		t.Helper()
		require.True(t, r.StatusCode/100 == 2, "seed %s: %d %s", why, r.StatusCode, r.body)
		return r
	}
	for _, u := range matrixUsers {
		e.createUser(u)
	}
	ok(e.do(rootReq("PATCH", "/admin/users/hidden", map[string]any{"login_name": "hidden", "source_id": 0, "visibility": "private"})), "hidden user")
	ok(e.do(rootReq("PATCH", "/admin/users/limited", map[string]any{"login_name": "limited", "source_id": 0, "visibility": "limited"})), "limited user")
	for _, o := range []struct{ name, vis string }{{"puborg", "public"}, {"limorg", "limited"}, {"privorg", "private"}} {
		ok(e.do(as("olivia", "POST", "/orgs", map[string]any{"username": o.name, "visibility": o.vis})), "org "+o.name)
		for _, tm := range []struct{ name, perm, member string }{{"readers", "read", "teamr"}, {"writers", "write", "teamw"}} {
			r := ok(e.do(as("olivia", "POST", "/orgs/"+o.name+"/teams", map[string]any{"name": tm.name, "permission": tm.perm,
				"includes_all_repositories": true,
				"units":                     []string{"repo.code", "repo.issues", "repo.pulls", "repo.releases", "repo.wiki", "repo.actions"}})), "team")
			id := strconv.FormatInt(int64(r.json(t)["id"].(float64)), 10)
			w.teamIDs[o.name+"/"+tm.name] = id
			ok(e.do(as("olivia", "PUT", "/teams/"+id+"/members/"+tm.member, nil)), "team member")
		}
	}
	for _, owner := range []string{"olivia", "puborg", "limorg", "privorg"} {
		for _, rp := range []struct {
			name string
			priv bool
		}{{"pubrepo", false}, {"privrepo", true}} {
			path := "/user/repos"
			if owner != "olivia" {
				path = "/orgs/" + owner + "/repos"
			}
			r := ok(e.do(as("olivia", "POST", path, map[string]any{"name": rp.name, "private": rp.priv, "auto_init": true})), "repo")
			full := owner + "/" + rp.name
			w.repoIDs[full] = strconv.FormatInt(int64(r.json(t)["id"].(float64)), 10)
			ok(e.do(as("olivia", "PATCH", "/repos/"+full, map[string]any{"has_actions": true})), "actions on")
		}
	}
	for _, rp := range []string{"olivia/pubrepo", "olivia/privrepo", "privorg/privrepo"} {
		base := "/repos/" + rp
		for c, perm := range map[string]string{"reader": "read", "writer": "write", "radmin": "admin"} {
			ok(e.do(as("olivia", "PUT", base+"/collaborators/"+c, map[string]any{"permission": perm})), "collaborator")
		}
		ok(e.do(as("olivia", "POST", base+"/issues", map[string]any{"title": "first"})), "issue")
		ok(e.do(as("olivia", "POST", base+"/issues/1/comments", map[string]any{"body": "a comment"})), "comment")
		ok(e.do(as("olivia", "POST", base+"/labels", map[string]any{"name": "bug", "color": "#ff0000"})), "label")
		ok(e.do(as("olivia", "POST", base+"/milestones", map[string]any{"title": "m1"})), "milestone")
		ok(e.do(as("olivia", "POST", base+"/releases", map[string]any{"tag_name": "v1", "name": "v1"})), "release")
		ok(e.do(as("olivia", "POST", base+"/hooks", map[string]any{"type": "gitea", "active": false,
			"config": map[string]string{"url": "https://hooks.example/x", "content_type": "json"}})), "hook")
		ok(e.do(as("olivia", "PUT", base+"/actions/secrets/S1", map[string]any{"data": "s3cret-value"})), "secret")
		ok(e.do(as("olivia", "POST", base+"/actions/variables/V1", map[string]any{"value": "v"})), "variable")
	}
	// A pull request (branch feature, one new file) in each repository
	// with collaborators and in puborg/pubrepo (where the team members
	// act; an issue first, for the pull requests to share an index);
	// writer approves olivia/pubrepo's with a code comment.
	ok(e.do(as("olivia", "POST", "/repos/puborg/pubrepo/issues", map[string]any{"title": "first"})), "issue")
	for _, rp := range []string{"olivia/pubrepo", "olivia/privrepo", "privorg/privrepo", "puborg/pubrepo"} {
		base := "/repos/" + rp
		f := ok(e.do(as("olivia", "POST", base+"/contents/feature.txt", map[string]any{"content": "ZmVhdHVyZQo=",
			"message": "feature", "new_branch": "feature"})), "feature branch").json(t)
		r := ok(e.do(as("olivia", "POST", base+"/pulls", map[string]any{"head": "feature", "base": "main", "title": "a pull"})), "pull").json(t)
		n := strconv.FormatInt(int64(r["number"].(float64)), 10)
		require.True(t, w.pull == "" || w.pull == n, "pull requests have one index")
		w.pull = n
		if rp == "olivia/pubrepo" {
			w.headSHA = f["commit"].(map[string]any)["sha"].(string)
			rv := ok(e.do(as("writer", "POST", base+"/pulls/"+n+"/reviews", map[string]any{"event": "APPROVED", "body": "lgtm",
				"comments": []map[string]any{{"path": "feature.txt", "body": "nice", "new_position": 1}}})), "review").json(t)
			w.review = strconv.FormatInt(int64(rv["id"].(float64)), 10)
			cs := ok(e.do(as("writer", "GET", base+"/pulls/"+n+"/reviews/"+w.review+"/comments", nil)), "review comments").list(t)
			require.NotEmpty(t, cs, "the review has a comment")
			w.reviewComment = strconv.FormatInt(int64(cs[0]["id"].(float64)), 10)
		}
	}
	// Quota: rule r1 (1 GiB of everything) in group g1.
	ok(e.do(rootReq("POST", "/admin/quota/rules", map[string]any{"name": "r1", "limit": 1 << 30, "subjects": []string{"size:all"}})), "quota rule")
	ok(e.do(rootReq("POST", "/admin/quota/groups", map[string]any{"name": "g1"})), "quota group")
	ok(e.do(rootReq("PUT", "/admin/quota/groups/g1/rules/r1", nil)), "quota group rule")
	// Packages: a generic package tool 1.0 (one file) of olivia, hidden,
	// limited, privorg and limorg, uploaded by password as a package
	// client does (the refusals on the hidden owners hide a real package).
	for _, o := range []struct{ owner, by string }{{"olivia", "olivia"}, {"hidden", "hidden"}, {"limited", "limited"},
		{"privorg", "olivia"}, {"limorg", "olivia"}} {
		ok(e.do(req{method: "PUT", path: "/api/packages/" + o.owner + "/generic/tool/1.0/tool.txt", body: "tool bytes",
			user: o.by, pass: o.by + "-password"}), "package of "+o.owner)
	}
	// olivia's GPG key 1.
	ok(e.do(as("olivia", "POST", "/user/gpg_keys", map[string]any{"armored_public_key": armoredTestKey(t, "olivia@example.com")})), "gpg key")
	// olivia's notification thread 1: reader comments on her issue.
	ok(e.do(as("reader", "POST", "/repos/olivia/pubrepo/issues/1/comments", map[string]any{"body": "by reader"})), "reader's comment")
	// olivia's OAuth2 application 1.
	ok(e.do(as("olivia", "POST", "/user/applications/oauth2", map[string]any{"name": "app", "redirect_uris": []string{"https://app.example/cb"}})),
		"olivia's OAuth2 application")
	for _, u := range append([]string{"root"}, matrixUsers...) {
		w.tokens[u] = e.token(u, "all")
	}
	threads := ok(e.do(as("olivia", "GET", "/notifications?all=true", nil)), "olivia's notifications").list(t)
	require.NotEmpty(t, threads, "olivia has a notification thread")
	w.thread = strconv.FormatInt(int64(threads[0]["id"].(float64)), 10)
	w.tokens["olivia:public-only"] = e.token("olivia", "all", "public-only")
	for c := forge.CategoryActivityPub; c <= forge.CategoryUser; c++ {
		w.tokens["olivia:only:"+c.String()] = e.token("olivia", "write:"+c.String())
	}
	w.tokens["olivia:read"] = e.token("olivia", readAll()...)
	w.tokens["root:read"] = e.token("root", readAll()...)
	for c := forge.CategoryActivityPub; c <= forge.CategoryUser; c++ {
		w.tokens["olivia:without:"+c.String()] = e.token("olivia", writeAllBut(c)...)
		w.tokens["root:without:"+c.String()] = e.token("root", writeAllBut(c)...)
	}
	return w
}

func readAll() []string {
	var out []string
	for c := forge.CategoryActivityPub; c <= forge.CategoryUser; c++ {
		out = append(out, "read:"+c.String())
	}
	return out
}

func writeAllBut(skip forge.ScopeCategory) []string {
	var out []string
	for c := forge.CategoryActivityPub; c <= forge.CategoryUser; c++ {
		if c != skip {
			out = append(out, "write:"+c.String())
		}
	}
	return out
}

// params are the values of a route's path parameters.
type params map[string]string

// fill gives the URL of path with ps; {id} and {name} take the meaning of
// the path they are in.
func (w *matrixWorld) fill(path string, ps params) string {
	var get func(k string) string
	get = func(k string) string {
		if v, ok := ps[k]; ok {
			return v
		}
		switch k {
		case "owner", "username", "user":
			return "olivia"
		case "repo":
			return "pubrepo"
		case "org":
			return "puborg"
		case "index":
			if strings.Contains(path, "/pulls/") {
				return w.pull
			}
			return "1"
		case "sha":
			if strings.HasSuffix(path, "/pull") {
				return w.headSHA
			}
			return "main"
		case "base":
			return "main"
		case "head":
			return "feature"
		case "basehead":
			return "main...feature"
		case "comment":
			return w.reviewComment
		case "attachment_id", "identifier", "position", "run_id", "runner_id", "token":
			return "1"
		case "branch", "ref":
			return "main"
		case "tag":
			return "v1"
		case "filepath":
			return "README.md"
		case "archive":
			return "main.zip"
		case "diffType":
			return "diff"
		case "collaborator":
			return "reader"
		case "secretname":
			return "S1"
		case "variablename":
			return "V1"
		case "topic":
			return "topic1"
		case "workflowfilename":
			return "ci.yml"
		case "team":
			return "readers"
		case "type":
			return "generic"
		case "version":
			return "1.0"
		case "repo_name":
			return "pubrepo"
		case "quotagroup":
			return "g1"
		case "quotarule":
			return "r1"
		case "name":
			switch {
			case strings.HasPrefix(path, "/gitignore"):
				return "Go"
			case strings.HasPrefix(path, "/licenses"):
				return "MIT"
			case strings.HasPrefix(path, "/packages/"):
				return "tool"
			}
			return "main"
		case "id":
			switch {
			case strings.HasPrefix(path, "/teams/"):
				org := ps["org"]
				if org == "" || org == "olivia" {
					org = "puborg"
				}
				return w.teamIDs[org+"/readers"]
			case strings.HasPrefix(path, "/notifications/threads/"):
				return w.thread
			case strings.HasPrefix(path, "/repositories/"):
				return w.repoIDs[get("owner")+"/"+get("repo")]
			case strings.Contains(path, "/reviews/{id}"):
				return w.review
			}
			return "1"
		}
		return "x"
	}
	var b strings.Builder
	b.WriteString("/api/v1")
	for rest := path; rest != ""; {
		i := strings.IndexByte(rest, '{')
		if i < 0 {
			b.WriteString(rest)
			break
		}
		j := strings.IndexByte(rest, '}')
		b.WriteString(rest[:i])
		b.WriteString(get(rest[i+1 : j]))
		rest = rest[j+1:]
	}
	if strings.HasSuffix(path, "/quota/check") {
		b.WriteString("?subject=size:all")
	}
	return b.String()
}

// probe is one request of the matrix and the rule its answer must keep.
type probe struct {
	op, why     string
	method, url string
	token       string
	// body is the request body of a write ("{}" unless an invalid-body
	// probe sets it; a GET sends none).
	body  string
	check func(status int, body []byte) string // "" when the answer is right
	// refusal marks a probe whose answer is a refusal of the caller;
	// byClass one refused by the route's class, byScope one refused by
	// its token's scopes (the others are refused because the caller may
	// not see the thing, or is anonymous). pipeline marks a probe that the
	// route's own requirements refuse before any handler or gate runs
	// (scopes, reqToken, reqSiteAdmin): no body can change that answer.
	refusal, byClass, byScope, pipeline bool
	// like, when >= 0, is the index of the probe (the same request with
	// the body {}) whose answer this one must repeat exactly.
	like int
	// same, when set, is a second request whose answer must be the same
	// (status and body, with the names in norm replaced).
	same string
	norm []string
}

type answer struct {
	status int
	body   []byte
}

func (w *matrixWorld) send(ctx context.Context, method, url, token, payload string) (answer, error) {
	var body io.Reader
	if method != "GET" {
		body = strings.NewReader(payload)
	}
	hr, err := http.NewRequestWithContext(ctx, method, w.e.srv.URL+url, body)
	if err != nil {
		return answer{}, err
	}
	if body != nil {
		hr.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		hr.Header.Set("Authorization", "token "+token)
	}
	res, err := http.DefaultClient.Do(hr)
	if err != nil {
		return answer{}, err
	}
	defer res.Body.Close()
	data, err := io.ReadAll(res.Body)
	return answer{res.StatusCode, data}, err
}

func is2xx(s int) bool { return s/100 == 2 }

// refused wants a refusal: 401, 403 or 404, never a 2xx and never an
// answer about the body (400, 413, 422). Forgejo's permission middlewares
// (reqToken, reqRepoWriter, reqOrgOwnership…) run before it binds the
// JSON body, so a caller without rights gets the same refusal whatever
// the body; Hearth's handlers ask the service's permission before they
// decode (the invalid-body probes check it on every write route).
func refused(status int, _ []byte) string {
	switch status {
	case http.StatusUnauthorized, http.StatusForbidden, http.StatusNotFound:
		return ""
	}
	return fmt.Sprintf("got %d, want a refusal (401, 403 or 404)", status)
}

// notScopeRefused wants an answer that is no success (the body is
// invalid) and no refusal by token scope.
func notScopeRefused(status int, body []byte) string {
	if is2xx(status) || status == http.StatusForbidden && strings.Contains(string(body), "token does not have") {
		return fmt.Sprintf("got %d, want no success and no scope refusal", status)
	}
	return ""
}

func wantStatus(want int) func(int, []byte) string {
	return func(status int, _ []byte) string {
		if status != want {
			return fmt.Sprintf("got %d, want %d", status, want)
		}
		return ""
	}
}

func allowed(status int, _ []byte) string {
	if !is2xx(status) {
		return fmt.Sprintf("got %d, want 2xx", status)
	}
	return ""
}

func normalize(b []byte, names []string) string {
	s := string(b)
	for _, n := range names {
		s = strings.ReplaceAll(s, n, "NAME")
	}
	return s
}

// probes are the requests of the matrix for the routes.
func (w *matrixWorld) probes(routes []httpapi.RouteInfo) []probe {
	tok := w.tokens
	var out []probe
	add := func(rt httpapi.RouteInfo, why, token string, ps params, check func(int, []byte) string) *probe {
		p := probe{op: rt.Op, why: why, method: rt.Method, url: w.fill(rt.Path, ps), token: token, check: check, like: -1,
			pipeline: rt.Admin || rt.Token && token == ""}
		if rt.Method != "GET" {
			p.body = "{}"
		}
		out = append(out, p)
		return &out[len(out)-1]
	}
	// deny adds a probe that must be refused; denyByClass one that the
	// route's class refuses (Forgejo's reqRepoWriter, reqAdmin,
	// reqOrgOwnership…, or its handler's own check).
	deny := func(rt httpapi.RouteInfo, why, token string, ps params, check func(int, []byte) string) *probe {
		p := add(rt, why, token, ps, check)
		p.refusal = true
		return p
	}
	denyByClass := func(rt httpapi.RouteInfo, why, token string, ps params, check func(int, []byte) string) *probe {
		p := deny(rt, why, token, ps, check)
		p.byClass = true
		return p
	}
	sameAs := func(p *probe, rt httpapi.RouteInfo, ps params, norm ...string) {
		p.same = w.fill(rt.Path, ps)
		p.norm = norm
	}
	for _, rt := range routes {
		class, ok := accessMatrix[rt.Op]
		if !ok {
			continue
		}
		has := func(p string) bool { return strings.Contains(rt.Path, "{"+p+"}") }
		write := rt.Method != "GET"

		// Private things are 404 to strangers and anonymous, exactly as a
		// missing thing is; a public-only token sees none of them.
		if class != acSiteAdmin && has("repo") {
			for _, h := range []struct{ owner, repo, who string }{
				{"olivia", "privrepo", "anon stranger"}, {"puborg", "privrepo", "anon stranger"},
				{"privorg", "pubrepo", "anon stranger"}, {"limorg", "pubrepo", "anon public-only"},
			} {
				ps := params{"owner": h.owner, "org": h.owner, "repo": h.repo}
				missing := params{"owner": h.owner, "org": h.owner, "repo": "norepo"}
				for _, who := range strings.Fields(h.who) {
					if who == "public-only" {
						continue
					}
					p := deny(rt, who+" on "+h.owner+"/"+h.repo+" as on a missing repository", tok[who], ps, refused)
					sameAs(p, rt, missing, h.repo, "norepo")
				}
				if h.who != "anon" {
					deny(rt, "public-only token on "+h.owner+"/"+h.repo, tok["olivia:public-only"], ps, refused)
				}
			}
		}
		if class != acSiteAdmin && has("org") && !has("repo") {
			for _, h := range []struct{ org, who string }{{"privorg", "anon stranger"}, {"limorg", "anon"}} {
				for _, who := range strings.Fields(h.who) {
					p := deny(rt, who+" on "+h.org+" as on a missing organisation", tok[who], params{"org": h.org}, refused)
					sameAs(p, rt, params{"org": "noorg"}, h.org, "noorg")
				}
			}
			deny(rt, "public-only token on privorg", tok["olivia:public-only"], params{"org": "privorg"}, refused)
			deny(rt, "public-only token on limorg", tok["olivia:public-only"], params{"org": "limorg"}, refused)
		}
		if class != acSiteAdmin && strings.HasPrefix(rt.Path, "/teams/{id}") {
			for _, who := range []string{"anon", "stranger"} {
				id := w.teamIDs["privorg/readers"]
				p := deny(rt, who+" on a team of privorg as on a missing team", tok[who], params{"id": id, "org": "privorg", "repo": "pubrepo"}, refused)
				sameAs(p, rt, params{"id": "999999", "org": "privorg", "repo": "pubrepo"}, id, "999999")
			}
		}
		if strings.HasPrefix(rt.Path, "/packages/{owner}") {
			for _, h := range []struct{ owner, who string }{{"hidden", "anon stranger"}, {"limited", "anon"},
				{"privorg", "anon stranger"}, {"limorg", "anon"}} {
				for _, who := range strings.Fields(h.who) {
					p := deny(rt, who+" on the packages of "+h.owner+" as on a missing owner", tok[who], params{"owner": h.owner}, refused)
					sameAs(p, rt, params{"owner": "noowner"}, h.owner, "noowner")
				}
			}
		}
		if class != acSiteAdmin && strings.HasPrefix(rt.Path, "/users/{username}") {
			for _, h := range []struct{ user, who string }{{"hidden", "anon stranger"}, {"limited", "anon"}} {
				for _, who := range strings.Fields(h.who) {
					p := deny(rt, who+" on user "+h.user+" as on a missing user", tok[who], params{"username": h.user}, refused)
					sameAs(p, rt, params{"username": "nouser"}, h.user, "nouser")
				}
			}
		}

		// Converting a mirror is for the repository's owners (Forgejo's
		// reqOwner): an admin collaborator is refused before the
		// repository is found to be no mirror.
		if rt.Op == "repoConvert" {
			deny(rt, "admin collaborator converts", tok["radmin"], nil, wantStatus(http.StatusForbidden))
		}

		// Site administration: 403 to a signed-in user who is not one.
		if class == acSiteAdmin {
			deny(rt, "owner (not a site admin)", tok["olivia"], nil, wantStatus(http.StatusForbidden))
			deny(rt, "anonymous on a site-admin route", "", nil, refused)
		}

		// Scopes: a token without the route's category, or with read only
		// for a write, gets 403.
		if !rt.Public && !rt.OwnerScope && len(rt.Scopes) > 0 {
			who := "olivia"
			if rt.Admin || class == acSiteAdmin {
				who = "root"
			}
			deny(rt, "token without "+rt.Scopes[0].String(), tok[who+":without:"+rt.Scopes[0].String()], nil, wantStatus(http.StatusForbidden)).byScope = true
			if write {
				deny(rt, "read-only token on a write", tok[who+":read"], nil, wantStatus(http.StatusForbidden)).byScope = true
			}
		}

		// A gate asks for no scope the route does not: the owner with a
		// token of the route's scope alone gets past it (to the 422 of the
		// body {, which no handler reads as a change).
		if write && rt.Gated && len(rt.Scopes) == 1 && !rt.Admin {
			p := add(rt, "owner with a token of the route's scope alone, body {", tok["olivia:only:"+rt.Scopes[0].String()], nil, notScopeRefused)
			p.body = "{"
		}

		// Reads reserved to administrators of the repository or owners of
		// the organisation.
		if !write {
			switch class {
			case acRepoAdmin:
				// (about another user: anyone may read their own permission)
				deny(rt, "read collaborator reads an admin thing", tok["reader"], params{"collaborator": "writer"}, refused)
				deny(rt, "write collaborator reads an admin thing", tok["writer"], params{"collaborator": "reader"}, refused)
				deny(rt, "stranger reads an admin thing", tok["stranger"], nil, refused)
			case acOrgOwner:
				for _, who := range []string{"stranger", "teamr", "teamw"} {
					deny(rt, who+" reads an owner's thing", tok[who], nil, refused)
				}
			case acSelfOnly:
				deny(rt, "stranger reads another user's own things", tok["stranger"], nil, refused)
			}
			if strings.HasPrefix(rt.Path, "/notifications/threads/") {
				deny(rt, "stranger reads another user's notification", tok["stranger"], nil, refused)
			}
		}

		// Who may write, by class.
		if write {
			switch class {
			case acSelfOnly:
				denyByClass(rt, "stranger on another user's own things", tok["stranger"], nil, refused)
			case acRepoWrite, acRepoAdmin:
				denyByClass(rt, "read collaborator writes", tok["reader"], nil, refused)
				denyByClass(rt, "stranger writes a public repository", tok["stranger"], nil, refused)
				denyByClass(rt, "read team member writes", tok["teamr"], params{"owner": "puborg", "org": "puborg"}, refused)
				if class == acRepoAdmin {
					denyByClass(rt, "write collaborator administers", tok["writer"], nil, refused)
					denyByClass(rt, "write team member administers", tok["teamw"], params{"owner": "puborg", "org": "puborg"}, refused)
				}
			case acOrgOwner:
				for _, who := range []string{"stranger", "teamr", "teamw"} {
					denyByClass(rt, who+" acts as an organisation owner", tok[who], nil, refused)
				}
			case acOther:
				if strings.HasPrefix(rt.Path, "/notifications/threads/") {
					denyByClass(rt, "stranger marks another user's notification", tok["stranger"], nil, refused)
				}
			case acOrgMember:
				denyByClass(rt, "stranger acts as a member", tok["stranger"], params{"username": "teamr"}, refused)
			}
			continue
		}

		// Who may read, by class: the answers must be 2xx.
		if matrixNoSeed[rt.Op] {
			continue
		}
		owner := "olivia"
		if class == acSiteAdmin {
			owner = "root"
		}
		add(rt, "owner reads", tok[owner], nil, allowed)
		// ids (comments, labels, hooks…) are the public repository's:
		// other repositories are read by what their names give.
		byName := !strings.Contains(rt.Path, "id}") && !has("sha") && !has("identifier") && !has("token")
		switch class {
		case acRepoRead:
			if !byName {
				break
			}
			add(rt, "read collaborator reads a private repository", tok["reader"], params{"repo": "privrepo"}, allowed)
			add(rt, "read team member reads a private repository", tok["teamr"], params{"owner": "privorg", "org": "privorg", "repo": "privrepo"}, allowed)
			add(rt, "site admin reads a private repository", tok["root"], params{"repo": "privrepo"}, allowed)
		case acOrgRead:
			add(rt, "member reads a private organisation", tok["teamr"], params{"org": "privorg"}, allowed)
		case acTeamRead:
			add(rt, "member reads its team", tok["teamr"], nil, allowed)
		case acPublic:
			add(rt, "anonymous reads a public route", "", nil, allowed)
		}
	}
	// A refusal does not depend on the body: every write refused past the
	// route's own requirements is sent again with a body that is no JSON
	// (and with a valid one, matrixValidBodies) and must get the very
	// answer the body {} gets. Where Forgejo binds the body before the
	// check (matrixBindsFirst), a refused caller gets its 422 for a body
	// that is no JSON.
	for i, n := 0, len(out); i < n; i++ {
		if !out[i].refusal || out[i].method == "GET" || out[i].pipeline || out[i].byScope {
			continue
		}
		p := out[i]
		if first, ok := matrixBindsFirst[p.op]; ok && (p.byClass || first == bindsFirstAll) {
			out[i].check = refusedOrBody
			p.why += " with the body {"
			p.body, p.check = "{", wantStatus(http.StatusUnprocessableEntity)
			out = append(out, p)
			continue
		}
		bodies := invalidBodies
		if v, ok := matrixValidBodies[p.op]; ok {
			bodies = append(bodies[:len(bodies):len(bodies)], v)
		}
		for _, body := range bodies {
			p := out[i]
			p.why += " with the body " + body
			p.body, p.like = body, i
			out = append(out, p)
		}
	}
	return out
}

// matrixValidBodies are bodies that the operations would accept from a
// caller with rights: a caller without gets the very refusal of the body
// {} (the operations whose {} is valid need none).
var matrixValidBodies = map[string]string{
	"repoCreateBranch": `{"new_branch_name": "nb"}`, "repoUpdateBranch": `{"name": "renamed"}`,
	"repoCreateStatus": `{"state": "success"}`, "repoCreateTag": `{"tag_name": "t9"}`,
	"repoCreateFile": `{"content": "eA=="}`, "repoCreateRelease": `{"tag_name": "v9"}`,
	"repoSetNote":               `{"message": "a note"}`,
	"repoApplyDiffPatch":        `{"sha": "x", "content": "diff --git a/n.txt b/n.txt\nnew file mode 100644\n--- /dev/null\n+++ b/n.txt\n@@ -0,0 +1 @@\n+x\n"}`,
	"repoEditReleaseAttachment": `{"name": "x.txt"}`, "repoUpdateAvatar": `{"image": "` + matrixPNG + `"}`,
	"repoCreateBranchProtection": `{"rule_name": "x"}`, "repoCreateTagProtection": `{"name_pattern": "v*"}`,
	"repoUpdateTopics": `{"topics": ["a"]}`, "repoTransfer": `{"new_owner": "stranger"}`,
	"issueCreateLabel": `{"name": "x", "color": "#00ff00"}`, "issueCreateMilestone": `{"title": "m9"}`,
	"issueCreateIssue": `{"title": "t"}`, "issueCreateComment": `{"body": "b"}`,
	"issuePostIssueReaction": `{"content": "+1"}`, "repoCreatePullRequest": `{"head": "feature", "base": "main", "title": "t"}`,
	"orgCreateLabel": `{"name": "x", "color": "#00ff00"}`, "renameOrg": `{"new_name": "neworg"}`,
	"orgUpdateAvatar": `{"image": "` + matrixPNG + `"}`, "orgCreateTeam": `{"name": "t9", "permission": "read"}`,
	"orgEditTeam": `{"name": "readers"}`, "createOrgRepo": `{"name": "r9"}`,
	"createRepoVariable": `{"value": "v"}`, "updateRepoVariable": `{"value": "v"}`, "updateRepoSecret": `{"data": "d"}`,
	"registerRepoRunner": `{"name": "r"}`, "createOrgVariable": `{"value": "v"}`, "updateOrgVariable": `{"value": "v"}`,
	"updateOrgSecret": `{"data": "d"}`, "registerOrgRunner": `{"name": "r"}`, "DispatchWorkflow": `{"ref": "main"}`,
	"repoCreateHook": matrixHook, "orgCreateHook": matrixHook,
	"repoAddPushMirror": `{"remote_address": "https://mirror.example/x.git", "interval": "8h"}`,
	"userCreateToken":   `{"name": "tk", "scopes": ["read:user"]}`,
}

// matrixPNG is a 1×1 PNG image in base64.
const matrixPNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="

const matrixHook = `{"type": "gitea", "config": {"url": "https://hooks.example/y", "content_type": "json"}}`

// bindsFirst says which refusals of an operation come after Forgejo binds
// its body.
type bindsFirst int

const (
	bindsFirstByClass bindsFirst = iota // those of its class; hidden things are 404 before
	bindsFirstAll                       // all but reqToken's and the scopes': no middleware checks the caller first
)

// matrixBindsFirst are the writes whose refusals Forgejo makes after it
// binds and validates the body (the check is in its handler, or in a
// middleware after bind), so that a caller without rights gets 422 for an
// invalid body, as in Hearth: their refusals by class may be about the
// body, and the body { must get 422. Things the caller may not see are
// still refused whatever the body (repoAssignment and orgAssignment run
// first).
var matrixBindsFirst = map[string]bindsFirst{
	// bind(...), reqRepoBranchWriter: the branch is the body's.
	"repoChangeFiles": bindsFirstByClass, "repoCreateFile": bindsFirstByClass,
	"repoUpdateFile": bindsFirstByClass, "repoDeleteFile": bindsFirstByClass,
	// Issues, comments, pull requests: the handler checks the poster or
	// the writer after bind.
	"issueEditIssue": bindsFirstByClass, "issueEditIssueDeadline": bindsFirstByClass,
	"issueAddLabel": bindsFirstByClass, "issueReplaceLabels": bindsFirstByClass,
	"issueClearLabels": bindsFirstByClass, "issueRemoveLabel": bindsFirstByClass,
	"issueAddTime": bindsFirstByClass, "issueEditComment": bindsFirstByClass,
	"issueEditCommentDeprecated":   bindsFirstByClass,
	"issueCreateIssueDependencies": bindsFirstByClass, "issueRemoveIssueDependencies": bindsFirstByClass,
	"issueCreateIssueBlocking": bindsFirstByClass, "issueRemoveIssueBlocking": bindsFirstByClass,
	"issueEditIssueAttachment": bindsFirstByClass, "issueEditIssueCommentAttachment": bindsFirstByClass,
	"repoEditPullRequest": bindsFirstByClass, "repoMergePullRequest": bindsFirstByClass,
	"repoSubmitPullReview": bindsFirstByClass, "repoDismissPullReview": bindsFirstByClass,
	"repoCreatePullReviewComment": bindsFirstByClass, "repoCreatePullReviewRequests": bindsFirstByClass,
	"repoDeletePullReviewRequests": bindsFirstByClass,
	// bind(CreateRepoOption), repo.CreateOrgRepo: orgAssignment first.
	"createOrgRepo": bindsFirstByClass,
	// POST /org/{org}/repos: reqToken, bind, then the handler.
	"createOrgRepoDeprecated": bindsFirstAll,
}

// refusedOrBody is refused for the operations of matrixBindsFirst: a 400
// or 422 about the body passes too.
func refusedOrBody(status int, body []byte) string {
	if status == http.StatusBadRequest || status == http.StatusUnprocessableEntity {
		return ""
	}
	return refused(status, body)
}

// invalidBodies are the bodies of the invalid-body probes: no JSON. (A
// field of the wrong type, `{"name": 5}`, fails in the same place, the one
// json.Unmarshal of call.decode that every JSON body of /api/v1 goes
// through, so it would only double the probes; the valid bodies of
// matrixValidBodies are the telling second probe.)
var invalidBodies = []string{`{`}

// matrixNoSeed are GET operations the seeded world has nothing for (their
// positive checks are skipped; the refusals still run).
var matrixNoSeed = map[string]bool{
	"ActionRun": true, "GetAnnotatedTag": true, "GetBlob": true, "adminGetHook": true, "getAdminRunner": true,
	// No note on main, no .editorconfig; git/blobs without shas is 400.
	"repoGetNote": true, "repoGetEditorConfig": true, "GetBlobs": true,
	"getLabelTemplateInfo": true, "getOrgRunner": true, "getRepoRunner": true, "getUserRunner": true,
	"getOrgVariable": true, "getUserVariable": true, "issueGetIssueAttachment": true,
	"issueGetIssueCommentAttachment": true, "orgGetHook": true, "orgGetLabel": true,
	"orgIsPublicMember": true, "orgListTeamMember": true, "repoCheckTeam": true, "repoListTeams": true,
	"repoGetBranchProtection": true, "repoGetGitHook": true, "repoListGitHooks": true,
	"repoGetReleaseAttachment": true, "repoGetTagProtection": true, "repoListGitRefs": true,
	// 404 until the pull request is merged (commits/{sha}/pull finds a
	// pull request by its merge commit).
	"repoPullRequestIsMerged": true, "repoGetCommitPullRequest": true,
	"repoGetPushMirrorByRemoteName": true,
	"userCurrentCheckStarring":      true, "userCurrentCheckSubscription": true, "userGetHook": true,
	// 400 `The Repo must be a fork`: the seeded repositories are no forks.
	"repoSyncForkDefaultInfo": true, "repoSyncForkBranchInfo": true,
}

// TestAccessMatrix calls every implemented route as every actor against
// every kind of owner and repository of one seeded world and checks the
// class of the route in accessMatrix.
func TestAccessMatrix(t *testing.T) {
	t.Parallel()
	e := newMatrixEnv(t)
	start := time.Now()
	w := seedMatrix(t, e)
	seeded := time.Since(start)
	routes := e.api.Routes()
	for _, msg := range unclassified(routes) {
		t.Error(msg)
	}
	implemented := map[string]bool{}
	for _, rt := range routes {
		implemented[rt.Op] = true
	}
	for op := range accessMatrix {
		if !implemented[op] {
			t.Errorf("accessMatrix classifies %s, which is no implemented operation", op)
		}
	}
	probes := w.probes(routes)
	ctx := context.Background()
	var (
		mu       sync.Mutex
		failures []string
		requests atomic.Int64
	)
	fail := func(p probe, format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		failures = append(failures, fmt.Sprintf("%s: %s %s (%s): %s", p.op, p.method, p.url, p.why, fmt.Sprintf(format, args...)))
	}
	answers := make([]answer, len(probes))
	work := make(chan int)
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				p := probes[i]
				a, err := w.send(ctx, p.method, p.url, p.token, p.body)
				answers[i] = a
				requests.Add(1)
				if err != nil {
					fail(p, "%v", err)
					continue
				}
				if msg := p.check(a.status, a.body); msg != "" {
					fail(p, "%s: %s", msg, trim(a.body))
					continue
				}
				if p.same == "" {
					continue
				}
				b, err := w.send(ctx, p.method, p.same, p.token, p.body)
				requests.Add(1)
				if err != nil {
					fail(p, "%v", err)
					continue
				}
				if got, want := normalize(a.body, p.norm), normalize(b.body, p.norm); a.status != b.status || got != want {
					fail(p, "answers %d %s, but a missing one answers %d %s", a.status, trim(a.body), b.status, trim(b.body))
				}
			}
		}()
	}
	for i := range probes {
		work <- i
	}
	close(work)
	wg.Wait()
	for i, p := range probes {
		if p.like < 0 {
			continue
		}
		if a, b := answers[i], answers[p.like]; a.status != b.status || string(a.body) != string(b.body) {
			fail(p, "answers %d %s, but with the body {} %d %s", a.status, trim(a.body), b.status, trim(b.body))
		}
	}
	sort.Strings(failures)
	for _, f := range failures {
		t.Error(f)
	}
	t.Logf("access matrix: %d routes, %d probes, %d requests in %v (seeding %v)",
		len(routes), len(probes), requests.Load(), time.Since(start)-seeded, seeded)
}

// unclassified names, by operation id, every route without an entry in
// accessMatrix.
func unclassified(routes []httpapi.RouteInfo) []string {
	var out []string
	for _, rt := range routes {
		if _, ok := accessMatrix[rt.Op]; !ok {
			out = append(out, fmt.Sprintf("%s (%s %s) has no entry in accessMatrix: classify it in access_matrix_table_test.go", rt.Op, rt.Method, rt.Path))
		}
	}
	return out
}

// TestAccessMatrixNeedsAnEntry: a route added without a class fails the
// matrix with its operation id.
func TestAccessMatrixNeedsAnEntry(t *testing.T) {
	t.Parallel()
	got := unclassified([]httpapi.RouteInfo{{Method: "GET", Path: "/version", Op: "getVersion"},
		{Method: "POST", Path: "/repos/{owner}/{repo}/frobnicate", Op: "repoFrobnicate"}})
	require.Len(t, got, 1)
	require.Contains(t, got[0], "repoFrobnicate")
}

func trim(b []byte) string {
	if len(b) > 160 {
		return string(b[:160]) + "…"
	}
	return string(b)
}

// matrixCron is a registry with one task, which the matrix runs as the
// administrator (POST /admin/cron/{task}: the path's task is the probe's).
func matrixCron(t *testing.T) *cron.Registry {
	t.Helper()
	reg, err := cron.New(cron.Config{Tasks: []cron.Task{{Name: "update_mirrors", Every: time.Hour,
		Run: func(context.Context) error { return nil }}}})
	require.NoError(t, err)
	return reg
}
