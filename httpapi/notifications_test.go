package httpapi_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/hooks"
	"github.com/hearthforge/hearth/forge/notify"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/forge/site"
	"github.com/hearthforge/hearth/httpapi"
	"github.com/hearthforge/hearth/issues"
)

// notifications wires notifications on b as forge/site does: a
// dispatcher over the outbox hands the issue events to notify
// (site.IssueNotifications). The wrapper it returns (for base.serve)
// serves h and then runs the outbox to rest, so that a test reads the
// notifications of the requests it made.
func (b *base) notifications(t *testing.T, ports *notify.Ports) func(http.Handler) http.Handler {
	t.Helper()
	hookSvc, err := hooks.New(hooks.Config{Store: b.db.Hooks(), Clock: b.clock})
	require.NoError(t, err)
	d, err := hooks.NewDispatcher(hooks.DispatcherConfig{Service: hookSvc, Clock: b.clock})
	require.NoError(t, err)
	d.Consume(issues.OutboxKind, "notify", site.IssueNotifications(ports, nil))
	return func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			h.ServeHTTP(w, r)
			assert.NoError(t, d.Drain(context.WithoutCancel(r.Context())))
		})
	}
}

// newNotifyEnv is newIssueEnv with notifications wired: alice owns
// alice/proj, bob is its write collaborator (and so watches it), eve has
// no access; every response is checked against the OpenAPI document.
func newNotifyEnv(t *testing.T) *issueEnv {
	t.Helper()
	b := newBase(t, ":memory:", testSecret)
	db, clock, svc, git, blobs := b.db, b.clock, b.auth, b.git, b.blobs
	repoSvc, repoPorts := b.repoService(t)
	issueSvc, participants, err := issues.NewWithPorts(issues.Config{Store: db.Issues(), Repos: repoSvc, Clock: clock, Blobs: blobs})
	require.NoError(t, err)
	notifySvc, ports, err := notify.NewWithPorts(notify.Config{Store: db.Notify(), Repos: repoSvc, Watchers: repoPorts,
		Participants: participants, Clock: clock})
	require.NoError(t, err)
	e := issueUsers(b.serve(t, httpapi.Config{Auth: svc, Repos: repoSvc, Git: git, Issues: issueSvc, Notify: notifySvc},
		b.notifications(t, ports)), issueSvc, "/api/v1/repos/alice/proj")
	e.createProj()
	return e
}

// threads lists the token's threads with the query, checking
// X-Total-Count against the page when the page holds everything.
func (e *issueEnv) threads(tok, query string) []map[string]any {
	e.t.Helper()
	r := e.send(tok, "GET", "/api/v1/notifications"+query, nil, 200)
	list := r.list(e.t)
	if !strings.Contains(query, "page=") {
		assert.Equal(e.t, fmt.Sprint(len(list)), r.Header.Get("X-Total-Count"), query)
	}
	return list
}

func (e *issueEnv) newCount(tok string) float64 {
	e.t.Helper()
	return e.send(tok, "GET", "/api/v1/notifications/new", nil, 200).json(e.t)["new"].(float64)
}

func TestNotificationsForWatchersAndParticipants(t *testing.T) {
	t.Parallel()
	e := newNotifyEnv(t)
	e.send(e.eve, "PUT", e.proj+"/subscription", nil, 200)

	n := e.newIssue(e.alice, "crash")
	assert.Empty(t, e.threads(e.alice, ""), "the actor gets no thread")
	bob := e.threads(e.bob, "")
	require.Len(t, bob, 1, "a collaborator watches the repository")
	th := bob[0]
	subject := th["subject"].(map[string]any)
	assert.Equal(t, "Issue", subject["type"])
	assert.Equal(t, "crash", subject["title"])
	assert.Equal(t, "open", subject["state"])
	assert.True(t, strings.HasSuffix(subject["url"].(string), "/api/v1/repos/alice/proj/issues/1"), subject["url"])
	assert.True(t, strings.HasSuffix(subject["html_url"].(string), "/alice/proj/issues/1"), subject["html_url"])
	assert.Equal(t, "", subject["latest_comment_url"])
	assert.Equal(t, true, th["unread"])
	assert.Equal(t, false, th["pinned"])
	assert.Equal(t, "alice/proj", th["repository"].(map[string]any)["full_name"])
	assert.NotContains(t, th["repository"].(map[string]any), "permissions")
	id := int64(th["id"].(float64))
	assert.True(t, strings.HasSuffix(th["url"].(string), fmt.Sprintf("/api/v1/notifications/threads/%d", id)))
	require.Len(t, e.threads(e.eve, ""), 1, "a watcher gets a thread")

	// eve comments: alice (poster and watcher) and bob are told; eve is not.
	r := e.send(e.eve, "POST", e.issuePath(n, "/comments"), map[string]any{"body": "me too"}, 201)
	cid := int64(r.json(t)["id"].(float64))
	alice := e.threads(e.alice, "")
	require.Len(t, alice, 1, "the poster gets a thread of a new comment")
	assert.True(t, strings.HasSuffix(alice[0]["subject"].(map[string]any)["latest_comment_url"].(string),
		fmt.Sprintf("/api/v1/repos/alice/proj/issues/comments/%d", cid)))
	assert.Equal(t, float64(1), e.newCount(e.alice))
	assert.Equal(t, float64(1), e.newCount(e.eve), "eve's thread is not bumped by her own comment")
	assert.Equal(t, float64(1), e.newCount(e.bob))

	// Marking a thread answers 205 with it.
	r = e.send(e.bob, "PATCH", fmt.Sprintf("/api/v1/notifications/threads/%d?to-status=pinned", id), nil, 205)
	assert.Equal(t, true, r.json(t)["pinned"])
	assert.Equal(t, false, r.json(t)["unread"])
	assert.Zero(t, e.newCount(e.bob))
	assert.Len(t, e.threads(e.bob, ""), 1, "pinned threads are listed by default")
	assert.Len(t, e.threads(e.bob, "?status-types=read"), 0)
	r = e.send(e.bob, "GET", fmt.Sprintf("/api/v1/notifications/threads/%d", id), nil, 200)
	assert.Equal(t, true, r.json(t)["pinned"])
	e.send(e.bob, "PATCH", fmt.Sprintf("/api/v1/notifications/threads/%d", id), nil, 205)
	assert.Len(t, e.threads(e.bob, ""), 0, "read threads are not listed by default")
	assert.Len(t, e.threads(e.bob, "?all=true"), 1)

	// Another user's thread, and a missing one.
	r = e.send(e.eve, "GET", fmt.Sprintf("/api/v1/notifications/threads/%d", id), nil, 403)
	assert.Equal(t, fmt.Sprintf("only user itself and admin are allowed to read/change this thread %d", id), r.json(t)["message"])
	e.send(e.eve, "PATCH", fmt.Sprintf("/api/v1/notifications/threads/%d", id), nil, 403)
	e.send(e.eve, "GET", "/api/v1/notifications/threads/99999", nil, 404)
	e.send(e.root, "GET", fmt.Sprintf("/api/v1/notifications/threads/%d", id), nil, 200)

	// PUT /notifications marks the unread ones read: 205 with them.
	r = e.send(e.alice, "PUT", "/api/v1/notifications", nil, 205)
	require.Len(t, r.list(t), 1)
	assert.Equal(t, false, r.list(t)[0]["unread"])
	assert.Zero(t, e.newCount(e.alice))
	// Per repository, back to unread.
	r = e.send(e.alice, "PUT", e.proj+"/notifications?status-types=read&to-status=unread", nil, 205)
	require.Len(t, r.list(t), 1)
	assert.Equal(t, float64(1), e.newCount(e.alice))
	list := e.send(e.alice, "GET", e.proj+"/notifications", nil, 200).list(t)
	assert.Len(t, list, 1)
	e.send(e.alice, "GET", "/api/v1/repos/alice/nosuch/notifications", nil, 404)
}

func TestNotificationFilters(t *testing.T) {
	t.Parallel()
	e := newNotifyEnv(t)
	for i := 0; i < 3; i++ {
		e.clock.Step(60e9)
		e.newIssue(e.alice, fmt.Sprintf("t%d", i))
	}
	all := e.threads(e.bob, "")
	require.Len(t, all, 3)
	assert.Equal(t, "t2", all[0]["subject"].(map[string]any)["title"], "the most recently updated first")
	assert.Len(t, e.threads(e.bob, "?subject-type=pull"), 0)
	assert.Len(t, e.threads(e.bob, "?subject-type=issue&subject-type=pull"), 3)
	since := all[1]["updated_at"].(string)
	assert.Len(t, e.threads(e.bob, "?since="+url.QueryEscape(since)), 1, "since is strict")
	assert.Len(t, e.threads(e.bob, "?before="+url.QueryEscape(since)), 1, "before is strict")
	r := e.send(e.bob, "GET", "/api/v1/notifications?page=2&limit=2", nil, 200)
	assert.Len(t, r.list(t), 1)
	assert.Equal(t, "3", r.Header.Get("X-Total-Count"))
	// last_read_at marks only what was updated before it.
	r = e.send(e.bob, "PUT", "/api/v1/notifications?last_read_at="+url.QueryEscape(since), nil, 205)
	assert.Len(t, r.list(t), 1)
	assert.Equal(t, float64(2), e.newCount(e.bob))

	e.send(e.bob, "GET", "/api/v1/notifications?since=yesterday", nil, 422)
	e.send(e.bob, "PUT", "/api/v1/notifications?last_read_at=yesterday", nil, 400)
	r = e.do(req{method: "GET", path: "/api/v1/notifications"})
	e.expect(r, 401, "token is required")
	e.expect(e.do(req{method: "GET", path: "/api/v1/notifications/new"}), 401, "token is required")
	e.expect(e.do(req{method: "PUT", path: e.proj + "/notifications"}), 401, "token is required")
	e.expect(e.do(req{method: "GET", path: "/api/v1/notifications", token: e.token("bob", "read:issue")}), 403,
		"token does not have at least one of required scope(s): [read:notification]")
}

func TestNotificationsOfALostRepository(t *testing.T) {
	t.Parallel()
	e := newNotifyEnv(t)
	e.send(e.alice, "POST", "/api/v1/user/repos", map[string]any{"name": "secret", "private": true}, 201)
	e.send(e.alice, "PUT", "/api/v1/repos/alice/secret/collaborators/eve", map[string]any{"permission": "read"}, 204)
	e.send(e.alice, "POST", "/api/v1/repos/alice/secret/issues", map[string]any{"title": "private matter"}, 201)
	list := e.threads(e.eve, "")
	require.Len(t, list, 1)
	id := int64(list[0]["id"].(float64))

	e.send(e.alice, "DELETE", "/api/v1/repos/alice/secret/collaborators/eve", nil, 204)
	assert.Empty(t, e.threads(e.eve, "?all=true"), "no thread of a repository eve may no longer read")
	assert.Zero(t, e.newCount(e.eve))
	e.send(e.eve, "GET", fmt.Sprintf("/api/v1/notifications/threads/%d", id), nil, 404)
	e.send(e.eve, "PATCH", fmt.Sprintf("/api/v1/notifications/threads/%d", id), nil, 404)
	assert.Empty(t, e.send(e.eve, "PUT", "/api/v1/notifications?all=true", nil, 205).list(t))
	e.send(e.eve, "GET", "/api/v1/repos/alice/secret/notifications", nil, 404)

	e.send(e.alice, "POST", "/api/v1/repos/alice/secret/issues/1/comments", map[string]any{"body": "still"}, 201)
	assert.Empty(t, e.threads(e.eve, "?all=true"), "no new thread either")
}

// notifySamples are the route-table samples of the notification routes,
// on newNotifyEnv: root's token, no thread yet.
var notifySamples = map[string]sample{
	"notifyGetList":      {path: "/notifications", ok: outcome{200, ""}},
	"notifyReadList":     {path: "/notifications", ok: outcome{205, ""}},
	"notifyNewAvailable": {path: "/notifications/new", ok: outcome{200, ""}},
	"notifyGetThread":    {path: "/notifications/threads/1", ok: outcome{404, ""}},
	"notifyReadThread":   {path: "/notifications/threads/1", ok: outcome{404, ""}},
	"notifyGetRepoList":  {path: "/repos/alice/proj/notifications", ok: outcome{200, ""}},
	"notifyReadRepoList": {path: "/repos/alice/proj/notifications", ok: outcome{205, ""}},
}

func init() {
	for k, v := range notifySamples {
		samples[k] = v
	}
}

// TestNotifyRouteTable is TestRouteTable for the notification routes:
// every one needs a token (401 without), the notification scope at the
// method's level (403), and answers a token with exactly that scope.
func TestNotifyRouteTable(t *testing.T) {
	t.Parallel()
	base := httpapi.Config{Auth: new(auth.Service), Repos: &repos.Service{}}
	with := base
	with.Notify = &notify.Service{}
	routes := addedRoutes(t, base, with)
	for _, rt := range routes {
		assert.Equal(t, []forge.ScopeCategory{forge.CategoryNotification}, rt.Scopes, rt.Op)
		assert.True(t, rt.Token, rt.Op)
	}
	world := func(t *testing.T) *env { return newNotifyEnv(t).env }
	checkRouteGroup(t, "notifyRoutes", routes, notifySamples, world, nil, nil)
}
