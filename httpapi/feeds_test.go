package httpapi_test

import (
	"context"
	"net/http"
	"path/filepath"
	"strconv"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge/feeds"
	"github.com/hearthforge/hearth/forge/hooks"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/forge/site"
	"github.com/hearthforge/hearth/httpapi"
	"github.com/hearthforge/hearth/issues"
	"github.com/hearthforge/hearth/storage/dbtest"
)

// feedEnv is a server with repositories, organisations, issues and the
// activity feeds wired as forge/site wires them: the domains append their
// events to the outbox, whose feed consumer (site.ActivityFeeds) writes
// the actions; each request is followed by a drain of the outbox, so that
// a test reads the feeds of the requests it made. Users alice, bob, carol
// and eve (tokens "all"); root is the site administrator.
type feedEnv struct {
	*issueEnv
	carol string
	db    *dbtest.DB
}

func newFeedEnv(t *testing.T) *feedEnv {
	t.Helper()
	b := newBase(t, filepath.Join(t.TempDir(), "feeds.db"), testSecret)
	hookSvc, err := hooks.New(hooks.Config{Store: b.db.Hooks(), Clock: b.clock})
	require.NoError(t, err)
	d, err := hooks.NewDispatcher(hooks.DispatcherConfig{Service: hookSvc, Clock: b.clock})
	require.NoError(t, err)
	repoSvc, repoPorts := b.repoService(t, func(c *repos.Config) { c.Outbox = d })
	orgSvc, _ := b.orgService(t, repoSvc)
	issueSvc, err := issues.New(issues.Config{Store: b.db.Issues(), Repos: repoSvc, Orgs: orgSvc, Clock: b.clock, Blobs: b.blobs, Outbox: d})
	require.NoError(t, err)
	feedSvc, ports, err := feeds.NewWithPorts(feeds.Config{Store: b.db.Feeds(), Repos: repoSvc, Accounts: b.auth, Orgs: orgSvc,
		Teams: site.TeamRepos{Orgs: orgSvc}, Watchers: repoPorts, Clock: b.clock})
	require.NoError(t, err)
	site.ActivityFeeds(ports, nil, nil).Register(d)
	drain := func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			h.ServeHTTP(w, r)
			assert.NoError(t, d.Drain(context.WithoutCancel(r.Context())))
		})
	}
	e := issueUsers(b.serve(t, httpapi.Config{Auth: b.auth, Repos: repoSvc, Git: b.git, Orgs: orgSvc, Issues: issueSvc,
		Feeds: feedSvc}, drain), issueSvc, "/api/v1/repos/alice/proj")
	e.createUser("carol")
	return &feedEnv{issueEnv: e, carol: e.token("carol", "all"), db: b.db}
}

// feed reads a feed (path below /api/v1) as tok, requiring 200, and
// returns its actions as "op_type repo" strings with the X-Total-Count.
func (e *feedEnv) feed(tok, path string) ([]string, []map[string]any) {
	e.t.Helper()
	r := e.send(tok, "GET", "/api/v1"+path, nil, http.StatusOK)
	list := r.list(e.t)
	out := []string{}
	for _, a := range list {
		out = append(out, a["op_type"].(string)+" "+a["repo"].(map[string]any)["full_name"].(string))
	}
	return out, list
}

// TestActivityFeedsVisibility: the actions of a private repository are in
// its owner's feed and the repository's, hidden from outsiders (user feed,
// repository feed, heatmap) and from anonymous readers, and shown to a
// collaborator once added; public actions are shown to everyone.
func TestActivityFeedsVisibility(t *testing.T) {
	t.Parallel()
	e := newFeedEnv(t)
	e.send(e.alice, "POST", "/api/v1/user/repos", map[string]any{"name": "pub", "auto_init": true}, 201)
	e.send(e.alice, "POST", "/api/v1/user/repos", map[string]any{"name": "priv", "private": true, "auto_init": true}, 201)
	e.send(e.alice, "POST", "/api/v1/repos/alice/pub/issues", map[string]any{"title": "open"}, 201)
	e.send(e.alice, "POST", "/api/v1/repos/alice/priv/issues", map[string]any{"title": "hidden"}, 201)

	got, list := e.feed(e.alice, "/users/alice/activities/feeds")
	assert.Equal(t, []string{"create_issue alice/priv", "create_issue alice/pub", "create_repo alice/priv", "create_repo alice/pub"}, got)
	assert.Equal(t, "1|hidden", list[0]["content"])
	assert.Equal(t, true, list[0]["is_private"])
	assert.Equal(t, "alice", list[0]["act_user"].(map[string]any)["login"])

	public := []string{"create_issue alice/pub", "create_repo alice/pub"}
	got, _ = e.feed(e.eve, "/users/alice/activities/feeds")
	assert.Equal(t, public, got, "an outsider sees no private action")
	got, _ = e.feed("", "/users/alice/activities/feeds")
	assert.Equal(t, public, got, "neither does an anonymous reader")
	e.send(e.eve, "GET", "/api/v1/repos/alice/priv/activities/feeds", nil, http.StatusNotFound)
	got, _ = e.feed(e.alice, "/repos/alice/priv/activities/feeds")
	assert.Equal(t, []string{"create_issue alice/priv", "create_repo alice/priv"}, got)

	e.send(e.alice, "PUT", "/api/v1/repos/alice/priv/collaborators/eve", map[string]any{"permission": "read"}, 204)
	got, _ = e.feed(e.eve, "/repos/alice/priv/activities/feeds")
	assert.Equal(t, []string{"create_issue alice/priv", "create_repo alice/priv"}, got, "a collaborator sees the repository's feed")

	// The heatmap counts the actions the viewer may see.
	count := func(tok string) int {
		r := e.send(tok, "GET", "/api/v1/users/alice/heatmap", nil, http.StatusOK)
		n := 0
		for _, b := range r.list(t) {
			assert.Zero(t, int64(b["timestamp"].(float64))%900, "quarter-hour buckets")
			n += int(b["contributions"].(float64))
		}
		return n
	}
	assert.Equal(t, 4, count(e.alice))
	assert.Equal(t, 2, count(e.bob), "an outsider's heatmap of alice leaves her private repository out")
	assert.Equal(t, 4, count(e.eve), "a collaborator's does not")
}

// TestActivityFeedsFilters: only-performed-by, the date, paging (Link and
// X-Total-Count) and the doer's rows of a repository's feed.
func TestActivityFeedsFilters(t *testing.T) {
	t.Parallel()
	e := newFeedEnv(t)
	e.createProj()
	e.send(e.alice, "PUT", "/api/v1/repos/alice/proj/subscription", nil, 200)
	e.send(e.alice, "POST", e.proj+"/issues", map[string]any{"title": "first"}, 201)
	e.send(e.bob, "POST", e.proj+"/issues/1/comments", map[string]any{"body": "a comment"}, 201)

	got, list := e.feed(e.alice, "/users/alice/activities/feeds")
	assert.Equal(t, []string{"comment_issue alice/proj", "create_issue alice/proj", "create_repo alice/proj"}, got,
		"a watcher receives the actions of others")
	assert.Equal(t, "1|a comment", list[0]["content"])
	assert.NotZero(t, list[0]["comment_id"])
	got, _ = e.feed(e.alice, "/users/alice/activities/feeds?only-performed-by=true")
	assert.Equal(t, []string{"create_issue alice/proj", "create_repo alice/proj"}, got)
	got, _ = e.feed(e.bob, "/users/bob/activities/feeds")
	assert.Equal(t, []string{"comment_issue alice/proj", "create_issue alice/proj"}, got,
		"bob watches proj since he became its collaborator")
	got, _ = e.feed(e.bob, "/users/bob/activities/feeds?only-performed-by=true")
	assert.Equal(t, []string{"comment_issue alice/proj"}, got)

	got, _ = e.feed(e.alice, "/repos/alice/proj/activities/feeds")
	assert.Equal(t, []string{"comment_issue alice/proj", "create_issue alice/proj", "create_repo alice/proj"}, got,
		"each action once in the repository's feed")

	today := e.clock.Now().UTC().Format("2006-01-02")
	got, _ = e.feed(e.alice, "/users/alice/activities/feeds?date="+today)
	assert.Len(t, got, 3)
	got, _ = e.feed(e.alice, "/users/alice/activities/feeds?date=1999-01-01")
	assert.Empty(t, got)
	got, _ = e.feed(e.alice, "/users/alice/activities/feeds?date=not-a-date")
	assert.Len(t, got, 3, "a date that does not parse is ignored, as Forgejo")

	r := e.send(e.alice, "GET", "/api/v1/users/alice/activities/feeds?limit=1&page=2", nil, http.StatusOK)
	require.Len(t, r.list(t), 1)
	assert.Equal(t, "create_issue", r.list(t)[0]["op_type"])
	assert.Equal(t, "3", r.Header.Get("X-Total-Count"))
	assert.Contains(t, r.Header.Get("Link"), `rel="next"`)
}

// TestOrgAndTeamActivityFeeds: an organisation's feed shows its private
// repositories' actions to members only; a team's feed is for the team's
// members and the organisation's owners (Forgejo's reqTeamMembership:
// other members 403, outsiders 404) and holds only the team's
// repositories.
func TestOrgAndTeamActivityFeeds(t *testing.T) {
	t.Parallel()
	e := newFeedEnv(t)
	e.createOrg("alice", "acme", "public")
	e.send(e.alice, "POST", "/api/v1/orgs/acme/repos", map[string]any{"name": "secret", "private": true}, 201)
	e.send(e.alice, "POST", "/api/v1/orgs/acme/repos", map[string]any{"name": "open"}, 201)
	team := e.createTeam("acme", map[string]any{"name": "devs", "permission": "read", "units": []string{"repo.code", "repo.issues"}}, "carol")
	e.send(e.root, "PUT", "/api/v1/teams/"+tid(team)+"/repos/acme/secret", nil, 204)
	other := e.createTeam("acme", map[string]any{"name": "others", "permission": "read", "units": []string{"repo.code"}}, "bob")
	_ = other
	e.send(e.alice, "POST", "/api/v1/repos/acme/secret/issues", map[string]any{"title": "s"}, 201)

	all := []string{"create_issue acme/secret", "create_repo acme/open", "create_repo acme/secret"}
	got, _ := e.feed(e.alice, "/orgs/acme/activities/feeds")
	assert.Equal(t, all, got)
	got, _ = e.feed(e.carol, "/orgs/acme/activities/feeds")
	assert.Equal(t, all, got, "a member of a team with the repository sees its actions")
	got, _ = e.feed(e.eve, "/orgs/acme/activities/feeds")
	assert.Equal(t, []string{"create_repo acme/open"}, got, "an outsider sees the public ones")

	got, _ = e.feed(e.carol, "/teams/"+tid(team)+"/activities/feeds")
	assert.Equal(t, []string{"create_issue acme/secret", "create_repo acme/secret"}, got, "the team's repositories only")
	got, _ = e.feed(e.alice, "/teams/"+tid(team)+"/activities/feeds")
	assert.Len(t, got, 2, "an owner reads every team's feed")
	e.expect(e.do(req{method: "GET", path: "/api/v1/teams/" + tid(team) + "/activities/feeds", token: e.bob}), http.StatusForbidden, "Must be a team member")
	e.send(e.eve, "GET", "/api/v1/teams/"+tid(team)+"/activities/feeds", nil, http.StatusNotFound)
}

// TestActivityFeedsRefusalsAndBadInput: scopes (Forgejo's route groups),
// the team feed's token, unknown users, organisations, teams and
// repositories.
func TestActivityFeedsRefusalsAndBadInput(t *testing.T) {
	t.Parallel()
	e := newFeedEnv(t)
	e.createOrg("alice", "acme", "public")
	repoTok, userTok := e.token("alice", "read:repository"), e.token("alice", "read:user")
	for _, c := range []struct {
		tok, path string
		want      int
	}{
		{repoTok, "/users/alice/activities/feeds", http.StatusForbidden},
		{repoTok, "/users/alice/heatmap", http.StatusForbidden},
		{userTok, "/orgs/acme/activities/feeds", http.StatusForbidden},
		{userTok, "/users/alice/activities/feeds", http.StatusOK},
		{"", "/teams/1/activities/feeds", http.StatusUnauthorized},
		{e.alice, "/users/nobody/activities/feeds", http.StatusNotFound},
		{e.alice, "/users/nobody/heatmap", http.StatusNotFound},
		{e.alice, "/orgs/nobody/activities/feeds", http.StatusNotFound},
		{e.alice, "/teams/999999/activities/feeds", http.StatusNotFound},
		{e.alice, "/teams/abc/activities/feeds", http.StatusNotFound},
		{e.alice, "/repos/alice/nothing/activities/feeds", http.StatusNotFound},
	} {
		r := e.do(req{method: "GET", path: "/api/v1" + c.path, token: c.tok})
		assert.Equal(t, c.want, r.StatusCode, "%s: %s", c.path, r.body)
	}
}

// TestActivityFeedCostIsFixed: a feed page costs the same number of
// statements whatever the number of its actions, repositories and doers
// (the doers, repositories and permissions are read in batches).
func TestActivityFeedCostIsFixed(t *testing.T) {
	t.Parallel()
	e := newFeedEnv(t)
	e.createProj()
	e.send(e.alice, "POST", e.proj+"/issues", map[string]any{"title": "one"}, 201)
	var n atomic.Int64
	cost := func(want int) int64 {
		n.Store(0)
		e.db.CountStatements(&n)
		got, _ := e.feed(e.alice, "/users/alice/activities/feeds?limit=50")
		e.db.CountStatements(nil)
		require.Len(t, got, want)
		return n.Load()
	}
	var small int64
	for i := range 6 {
		if i == 1 {
			small = cost(5)
		}
		name := "r" + strconv.Itoa(i)
		e.send(e.alice, "POST", "/api/v1/user/repos", map[string]any{"name": name, "auto_init": true}, 201)
		e.send(e.alice, "POST", "/api/v1/repos/alice/"+name+"/issues", map[string]any{"title": name}, 201)
		e.send(e.bob, "POST", e.proj+"/issues/1/comments", map[string]any{"body": name}, 201)
	}
	big := cost(20) // alice watches proj: she receives bob's comments
	assert.Equal(t, small, big, "statements for a page of 5 actions on 2 repositories and of 20 on 7")
	t.Logf("statements per feed page: %d", small)
}
