package httpapi_test

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// socialSamples are the TestRouteTable samples of the issue social
// routes (alice/proj holds no issue or comment: most answer 404).
var socialSamples = map[string]sample{
	"issueGetIssueReactions":     {path: "/repos/alice/proj/issues/1/reactions", anon: outcome{404, ""}, ok: outcome{404, ""}},
	"issuePostIssueReaction":     {path: "/repos/alice/proj/issues/1/reactions", body: map[string]any{"content": "+1"}, ok: outcome{404, ""}},
	"issueDeleteIssueReaction":   {path: "/repos/alice/proj/issues/1/reactions", body: map[string]any{"content": "+1"}, ok: outcome{404, ""}},
	"issueGetCommentReactions":   {path: "/repos/alice/proj/issues/comments/1/reactions", anon: outcome{404, ""}, ok: outcome{404, ""}},
	"issuePostCommentReaction":   {path: "/repos/alice/proj/issues/comments/1/reactions", body: map[string]any{"content": "+1"}, ok: outcome{404, ""}},
	"issueDeleteCommentReaction": {path: "/repos/alice/proj/issues/comments/1/reactions", body: map[string]any{"content": "+1"}, ok: outcome{404, ""}},
	"issueSubscriptions":         {path: "/repos/alice/proj/issues/1/subscriptions", anon: outcome{404, ""}, ok: outcome{404, ""}},
	"issueCheckSubscription":     {path: "/repos/alice/proj/issues/1/subscriptions/check", ok: outcome{404, ""}},
	"issueAddSubscription":       {path: "/repos/alice/proj/issues/1/subscriptions/alice", ok: outcome{404, ""}},
	"issueDeleteSubscription":    {path: "/repos/alice/proj/issues/1/subscriptions/alice", ok: outcome{404, ""}},
	"pinIssue":                   {path: "/repos/alice/proj/issues/1/pin", ok: outcome{404, ""}},
	"unpinIssue":                 {path: "/repos/alice/proj/issues/1/pin", ok: outcome{404, ""}},
	"moveIssuePin":               {path: "/repos/alice/proj/issues/1/pin/2", ok: outcome{404, ""}},
	"repoListPinnedIssues":       {path: "/repos/alice/proj/issues/pinned", anon: outcome{200, ""}, ok: outcome{200, ""}},
	// Pull-request routes answer 404 without a pull configuration (TestPullPinned covers them).
	"repoListPinnedPullRequests":  {path: "/repos/alice/proj/pulls/pinned", anon: outcome{404, ""}, ok: outcome{404, ""}},
	"repoNewPinAllowed":           {path: "/repos/alice/proj/new_pin_allowed", anon: outcome{200, ""}, ok: outcome{200, ""}},
	"issueGetCommentsAndTimeline": {path: "/repos/alice/proj/issues/1/timeline", anon: outcome{404, ""}, ok: outcome{404, ""}},
	"listLabelTemplates":          {path: "/label/templates", anon: outcome{200, ""}, ok: outcome{200, ""}},
	"getLabelTemplateInfo":        {path: "/label/templates/Default", anon: outcome{200, ""}, ok: outcome{200, ""}},
}

func init() {
	for k, v := range socialSamples {
		samples[k] = v
		if !strings.Contains(k, "LabelTemplate") { // public: no scope to lack
			issueSamples[k] = v // TestIssueRouteTable runs them with the issue tracker
		}
	}
}

func contents(t *testing.T, r resp) []string {
	t.Helper()
	out := []string{}
	for _, m := range r.list(t) {
		out = append(out, m["content"].(string))
	}
	return out
}

func TestIssueReactions(t *testing.T) {
	t.Parallel()
	e := newIssueEnv(t)
	n := e.newIssue(e.alice, "react")
	path := e.issuePath(n, "/reactions")

	r := e.send(e.bob, "POST", path, map[string]any{"content": "+1"}, 201)
	assert.Equal(t, "+1", r.json(t)["content"])
	assert.Equal(t, "bob", r.json(t)["user"].(map[string]any)["login"])
	e.send(e.bob, "POST", path, map[string]any{"content": "+1"}, 200) // already: 200, the same reaction
	e.send(e.eve, "POST", path, map[string]any{"content": "heart"}, 201)
	e.expect(e.do(req{method: "POST", path: path, token: e.bob, body: map[string]any{"content": "smile"}}), 403, "'smile' is not an allowed reaction")
	e.expect(e.do(req{method: "POST", path: path, body: map[string]any{"content": "+1"}}), 401, "token is required")

	r = e.send("", "GET", path, nil, 200)
	assert.Equal(t, []string{"+1", "heart"}, contents(t, r))
	assert.Equal(t, "2", r.Header.Get("X-Total-Count"))
	r = e.send("", "GET", path+"?limit=1&page=2", nil, 200)
	assert.Equal(t, []string{"heart"}, contents(t, r))

	e.send(e.bob, "DELETE", path, map[string]any{"content": "+1"}, 200)
	e.send(e.bob, "DELETE", path, map[string]any{"content": "+1"}, 200) // none left: still 200
	assert.Equal(t, []string{"heart"}, contents(t, e.send("", "GET", path, nil, 200)))
	e.expect(e.do(req{method: "GET", path: e.issuePath(99, "/reactions")}), 404, "")

	// Comment reactions.
	cid := int64(e.send(e.alice, "POST", e.issuePath(n, "/comments"), map[string]any{"body": "hi"}, 201).json(t)["id"].(float64))
	cpath := e.proj + "/issues/comments/" + strconv.FormatInt(cid, 10) + "/reactions"
	e.send(e.bob, "POST", cpath, map[string]any{"content": "rocket"}, 201)
	e.send(e.bob, "POST", cpath, map[string]any{"content": "rocket"}, 200)
	r = e.send("", "GET", cpath, nil, 200)
	assert.Equal(t, []string{"rocket"}, contents(t, r))
	assert.Equal(t, []string{"heart"}, contents(t, e.send("", "GET", path, nil, 200)), "the issue's own reactions are apart")
	e.send(e.bob, "DELETE", cpath, map[string]any{"content": "rocket"}, 200)
	assert.Empty(t, contents(t, e.send("", "GET", cpath, nil, 200)))
	e.expect(e.do(req{method: "GET", path: e.proj + "/issues/comments/999/reactions"}), 404, "")
}

func TestIssueSubscriptions(t *testing.T) {
	t.Parallel()
	e := newIssueEnv(t)
	n := e.newIssue(e.alice, "watch me")
	sub := e.issuePath(n, "/subscriptions")

	check := func(tok string) bool {
		t.Helper()
		return e.send(tok, "GET", sub+"/check", nil, 200).json(t)["subscribed"].(bool)
	}
	assert.True(t, check(e.alice), "the poster takes part")
	assert.False(t, check(e.bob))
	e.expect(e.do(req{method: "GET", path: sub + "/check"}), 401, "token is required")

	e.send(e.bob, "PUT", sub+"/bob", nil, 201)
	e.send(e.bob, "PUT", sub+"/bob", nil, 200)
	assert.True(t, check(e.bob))
	r := e.send("", "GET", sub, nil, 200)
	assert.Equal(t, []string{"bob"}, names(t, r, "login"))
	assert.Equal(t, "1", r.Header.Get("X-Total-Count"))

	e.expect(e.do(req{method: "PUT", path: sub + "/alice", token: e.bob}), 403, "bob is not permitted to change subscriptions for alice")
	e.expect(e.do(req{method: "PUT", path: sub + "/nobody", token: e.bob}), 404, "")
	e.expect(e.do(req{method: "PUT", path: e.issuePath(99, "/subscriptions/bob"), token: e.bob}), 404, "")
	e.send(e.root, "DELETE", sub+"/alice", nil, 201) // a site administrator may
	assert.False(t, check(e.alice), "an explicit choice beats taking part")
	e.send(e.bob, "DELETE", sub+"/bob", nil, 201)
	e.send(e.bob, "DELETE", sub+"/bob", nil, 200)
	assert.Empty(t, e.send("", "GET", sub, nil, 200).list(t))
}

func titlesOf(t *testing.T, r resp) []string {
	t.Helper()
	out := []string{}
	for _, m := range r.list(t) {
		out = append(out, m["title"].(string))
	}
	return out
}

func TestIssuePins(t *testing.T) {
	t.Parallel()
	e := newIssueEnv(t)
	for _, title := range []string{"one", "two", "three", "four"} {
		e.newIssue(e.alice, title)
	}
	pinned := func() []string { return titlesOf(t, e.send("", "GET", e.proj+"/issues/pinned", nil, 200)) }
	assert.Empty(t, pinned())
	for n := 1; n <= 3; n++ {
		e.send(e.alice, "POST", e.issuePath(n, "/pin"), nil, 204)
	}
	e.send(e.alice, "POST", e.issuePath(1, "/pin"), nil, 204) // pinned already: nothing changes
	assert.Equal(t, []string{"one", "two", "three"}, pinned())
	assert.Equal(t, map[string]any{"issues": false, "pull_requests": true}, e.send("", "GET", e.proj+"/new_pin_allowed", nil, 200).json(t))
	e.expect(e.do(req{method: "POST", path: e.issuePath(4, "/pin"), token: e.alice}), 403, "You have reached the max number of pinned Issues")
	e.expect(e.do(req{method: "POST", path: e.issuePath(4, "/pin"), token: e.bob}), 403,
		"user should be an owner or a collaborator with admin write of a repository")

	e.send(e.alice, "PATCH", e.issuePath(3, "/pin/1"), nil, 204)
	assert.Equal(t, []string{"three", "one", "two"}, pinned())
	e.send(e.alice, "PATCH", e.issuePath(3, "/pin/9"), nil, 204)
	assert.Equal(t, []string{"one", "two", "three"}, pinned(), "past the end is last")
	e.expect(e.do(req{method: "PATCH", path: e.issuePath(3, "/pin/0"), token: e.alice}), 403, "The Position can't be lower than 1")
	e.send(e.alice, "DELETE", e.issuePath(1, "/pin"), nil, 204)
	assert.Equal(t, []string{"two", "three"}, pinned())
	orders := map[string]float64{}
	for _, m := range e.send("", "GET", e.proj+"/issues/pinned", nil, 200).list(t) {
		orders[m["title"].(string)] = m["pin_order"].(float64)
	}
	assert.Equal(t, map[string]float64{"two": 1, "three": 2}, orders, "unpinning closes the gap")
	e.expect(e.do(req{method: "POST", path: e.issuePath(99, "/pin"), token: e.alice}), 404, "")

	types := []string{}
	for _, m := range e.send("", "GET", e.issuePath(1, "/timeline"), nil, 200).list(t) {
		types = append(types, m["type"].(string))
	}
	assert.Equal(t, []string{"pin", "unpin"}, types, "pinning is in the timeline")
}

func TestIssueTimeline(t *testing.T) {
	t.Parallel()
	e := newIssueEnv(t)
	n := e.newIssue(e.alice, "events")
	bug := e.newLabel("bug", false)
	e.send(e.alice, "POST", e.issuePath(n, "/labels"), map[string]any{"labels": []int64{bug}}, 200)
	e.send(e.bob, "POST", e.issuePath(n, "/comments"), map[string]any{"body": "a comment"}, 201)
	e.send(e.alice, "PATCH", e.issuePath(n, ""), map[string]any{"title": "renamed", "state": "closed"}, 201)

	r := e.send("", "GET", e.issuePath(n, "/timeline"), nil, 200)
	var types []string
	list := r.list(t)
	for _, m := range list {
		types = append(types, m["type"].(string))
	}
	assert.Equal(t, []string{"label", "comment", "change_title", "close"}, types)
	assert.Equal(t, "4", r.Header.Get("X-Total-Count"))
	assert.Equal(t, "bug", list[0]["label"].(map[string]any)["name"])
	assert.Equal(t, "a comment", list[1]["body"])
	assert.Equal(t, "bob", list[1]["user"].(map[string]any)["login"])
	assert.Equal(t, "events", list[2]["old_title"])
	assert.Equal(t, "renamed", list[2]["new_title"])
	r = e.send("", "GET", e.issuePath(n, "/timeline?limit=2&page=2"), nil, 200)
	assert.Len(t, r.list(t), 2)
	assert.Equal(t, "2", r.Header.Get("X-Total-Count"), "the entries of the page (Forgejo's)")
	e.expect(e.do(req{method: "GET", path: e.issuePath(99, "/timeline")}), 404, "")
}

// TestIssueCrossReferences: a comment in issue A that names issue B makes
// a reference event in B dated as the comment, with the given updated_at
// (rules 7 and 11); a reference to an issue the writer may not read makes
// none.
func TestIssueCrossReferences(t *testing.T) {
	t.Parallel()
	e := newIssueEnv(t)
	a := e.newIssue(e.alice, "source")
	b := e.newIssue(e.alice, "target")
	created := e.clock.Now()
	e.clock.Step(2 * time.Hour)
	given := created.Add(30 * time.Minute).UTC().Format(time.RFC3339)

	r := e.send(e.alice, "POST", e.issuePath(a, "/comments"), map[string]any{"body": "see #2 and #1", "updated_at": given}, 201)
	cid := r.json(t)["id"].(float64)
	refs := func(n int) []map[string]any {
		var out []map[string]any
		for _, m := range e.send(e.alice, "GET", e.issuePath(n, "/timeline"), nil, 200).list(t) {
			if m["type"] == "comment_ref" || m["type"] == "issue_ref" {
				out = append(out, m)
			}
		}
		return out
	}
	got := refs(b)
	require.Len(t, got, 1)
	assert.Equal(t, given, got[0]["created_at"], "rule 11: the reference takes the comment's date")
	assert.Equal(t, given, got[0]["updated_at"])
	assert.Equal(t, "source", got[0]["ref_issue"].(map[string]any)["title"])
	assert.Equal(t, cid, got[0]["ref_comment"].(map[string]any)["id"])
	assert.Equal(t, given, e.send("", "GET", e.issuePath(b, ""), nil, 200).json(t)["updated_at"], "rule 7: the target's update too")
	assert.Empty(t, refs(a), "no reference to itself")

	// Editing the comment so that it no longer names #2 neuters the
	// reference; the issue body naming it makes an issue_ref.
	e.send(e.alice, "PATCH", e.proj+"/issues/comments/"+strconv.FormatInt(int64(cid), 10), map[string]any{"body": "nothing"}, 200)
	got = refs(b)
	require.Len(t, got, 1)
	assert.Equal(t, "neutered", got[0]["ref_action"])
	e.send(e.alice, "PATCH", e.issuePath(a, ""), map[string]any{"body": "blocks alice/proj#2"}, 201)
	got = refs(b)
	require.Len(t, got, 2)
	assert.Equal(t, "issue_ref", got[1]["type"])
	assert.Nil(t, got[1]["ref_comment"])

	// A private repository: eve may not read it, so her reference makes
	// nothing there; alice's does.
	e.send(e.alice, "POST", "/api/v1/user/repos", map[string]any{"name": "secret", "private": true}, 201)
	e.send(e.alice, "POST", "/api/v1/repos/alice/secret/issues", map[string]any{"title": "hidden"}, 201)
	e.send(e.eve, "POST", "/api/v1/user/repos", map[string]any{"name": "own"}, 201)
	e.send(e.eve, "POST", "/api/v1/repos/eve/own/issues", map[string]any{"title": "probe", "body": "alice/secret#1"}, 201)
	e.send(e.eve, "POST", "/api/v1/repos/eve/own/issues/1/comments", map[string]any{"body": "alice/secret#1 and alice/proj#1"}, 201)
	hidden := e.send(e.alice, "GET", "/api/v1/repos/alice/secret/issues/1/timeline", nil, 200).list(t)
	assert.Empty(t, hidden, "no reference from a writer who may not read the target")
	got = refs(a)
	require.Len(t, got, 1, "the public target gets eve's reference")
	assert.Equal(t, "probe", got[0]["ref_issue"].(map[string]any)["title"])

	// A reader who may not see the source does not see the reference.
	e.send(e.alice, "POST", "/api/v1/repos/alice/secret/issues/1/comments", map[string]any{"body": "alice/proj#2"}, 201)
	n := 0
	seen := e.send(e.eve, "GET", e.issuePath(b, "/timeline"), nil, 200)
	for _, m := range seen.list(t) {
		if m["ref_issue"] != nil && m["ref_issue"].(map[string]any)["title"] == "hidden" {
			n++
		}
	}
	assert.Zero(t, n, "eve does not see the reference from alice/secret")
	assert.Len(t, refs(b), 3, "alice does")
	// Nor its count: X-Total-Count counts what the reader sees (Forgejo's
	// ListIssueCommentsAndTimeline: the entries of the page shown).
	assert.Equal(t, strconv.Itoa(len(seen.list(t))), seen.Header.Get("X-Total-Count"))
	all := e.send(e.alice, "GET", e.issuePath(b, "/timeline"), nil, 200)
	assert.Equal(t, strconv.Itoa(len(all.list(t))), all.Header.Get("X-Total-Count"))
	assert.Len(t, all.list(t), len(seen.list(t))+1)
}

func TestLabelTemplates(t *testing.T) {
	t.Parallel()
	e := newIssueEnv(t)
	var list []string
	r := e.send("", "GET", "/api/v1/label/templates", nil, 200)
	require.NoError(t, json.Unmarshal(r.body, &list))
	assert.Equal(t, []string{"Advanced", "Default"}, list)
	ls := e.send("", "GET", "/api/v1/label/templates/Default", nil, 200).list(t)
	assert.Equal(t, map[string]any{"name": "bug", "color": "ee0701", "description": "Something is not working", "exclusive": false}, ls[0])
	e.expect(e.do(req{method: "GET", path: "/api/v1/label/templates/nope"}), 404, "")
}
