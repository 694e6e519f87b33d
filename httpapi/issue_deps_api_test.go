package httpapi_test

import (
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// issueDepsSamples are the route samples of dependencies, blocks, tracked
// times and stopwatches (issueSamples' world: alice/proj holds no issue).
var issueDepsSamples = map[string]sample{
	"issueListIssueDependencies":   {path: "/repos/alice/proj/issues/1/dependencies", anon: outcome{404, ""}, ok: outcome{404, ""}},
	"issueCreateIssueDependencies": {path: "/repos/alice/proj/issues/1/dependencies", body: map[string]any{"owner": "alice", "repo": "proj", "index": 1}, ok: outcome{404, ""}},
	"issueRemoveIssueDependencies": {path: "/repos/alice/proj/issues/1/dependencies", body: map[string]any{"owner": "alice", "repo": "proj", "index": 1}, ok: outcome{404, ""}},
	"issueListBlocks":              {path: "/repos/alice/proj/issues/1/blocks", anon: outcome{404, ""}, ok: outcome{404, ""}},
	"issueCreateIssueBlocking":     {path: "/repos/alice/proj/issues/1/blocks", body: map[string]any{"owner": "alice", "repo": "proj", "index": 1}, ok: outcome{404, ""}},
	"issueRemoveIssueBlocking":     {path: "/repos/alice/proj/issues/1/blocks", body: map[string]any{"owner": "alice", "repo": "proj", "index": 1}, ok: outcome{404, ""}},
	"issueTrackedTimes":            {path: "/repos/alice/proj/issues/1/times", ok: outcome{404, ""}},
	"issueAddTime":                 {path: "/repos/alice/proj/issues/1/times", body: map[string]any{"time": 60}, ok: outcome{404, ""}},
	"issueResetTime":               {path: "/repos/alice/proj/issues/1/times", ok: outcome{404, ""}},
	"issueDeleteTime":              {path: "/repos/alice/proj/issues/1/times/1", ok: outcome{404, ""}},
	"repoTrackedTimes":             {path: "/repos/alice/proj/times", ok: outcome{200, ""}},
	"userCurrentTrackedTimes":      {path: "/user/times", ok: outcome{200, ""}},
	"userTrackedTimes":             {path: "/repos/alice/proj/times/alice", ok: outcome{200, ""}},
	"issueStartStopWatch":          {path: "/repos/alice/proj/issues/1/stopwatch/start", ok: outcome{404, ""}},
	"issueStopStopWatch":           {path: "/repos/alice/proj/issues/1/stopwatch/stop", ok: outcome{404, ""}},
	"issueDeleteStopWatch":         {path: "/repos/alice/proj/issues/1/stopwatch/delete", ok: outcome{404, ""}},
	"userGetStopWatches":           {path: "/user/stopwatches", ok: outcome{200, ""}},
}

func init() {
	for k, v := range issueDepsSamples {
		issueSamples[k] = v
		samples[k] = v
	}
	// Statuses Forgejo answers that its document does not declare.
	allowUndocumented(map[string]map[int]string{
		"issueCreateIssueDependencies": {http.StatusConflict: "an existing or circular dependency; Forgejo answers 500, Hearth 409 with Forgejo's message"},
		"issueCreateIssueBlocking":     {http.StatusConflict: "an existing or circular dependency; Forgejo answers 500, Hearth 409 with Forgejo's message"},
		"issueRemoveIssueDependencies": {http.StatusCreated: "Forgejo's RemoveIssueDependency answers 201 with the issue (the document says 200)"},
		"issueRemoveIssueBlocking":     {http.StatusCreated: "Forgejo's RemoveIssueBlocking answers 201 with the issue (the document says 200)"},
	})
	// The only undeclared 201s are those of the dependency removals, whose
	// body is the issue.
	errorSchemas[http.StatusCreated] = "Issue"
	// Forgejo's ctx.Status(http.StatusForbidden) of the time routes.
	for _, op := range []string{"issueAddTime", "issueResetTime", "issueDeleteTime",
		"issueStartStopWatch", "issueStopStopWatch", "issueDeleteStopWatch"} {
		bareForbidden[op] = true
	}
}

// TestIssueDependenciesAcrossRepositories: alice/proj#1 depends on
// eve/hidden#1, a private issue alice may read and bob (who writes
// alice/proj) may not. Nothing of eve/hidden leaks to bob or to anonymous
// readers beyond what Forgejo shows; closing #1 is refused while its
// dependency is open.
func TestIssueDependenciesAcrossRepositories(t *testing.T) {
	t.Parallel()
	e := newIssueEnv(t)
	e.send(e.eve, "POST", "/api/v1/user/repos", map[string]any{"name": "hidden", "private": true}, 201)
	e.send(e.eve, "PUT", "/api/v1/repos/eve/hidden/collaborators/alice", map[string]any{"permission": "read"}, 204)
	e.send(e.eve, "POST", "/api/v1/repos/eve/hidden/issues", map[string]any{"title": "secret plan"}, 201)
	one, two := e.newIssue(e.alice, "one"), e.newIssue(e.alice, "two")
	hidden := map[string]any{"owner": "eve", "repo": "hidden", "index": 1}

	r := e.send(e.alice, "POST", e.issuePath(one, "/dependencies"), hidden, 201)
	assert.EqualValues(t, one, r.json(t)["number"], "the answer is the path issue")

	// bob may not see eve/hidden: adding it is a 404 naming no more than
	// the lookup, as for a repository that does not exist.
	r = e.send(e.bob, "POST", e.issuePath(two, "/dependencies"), hidden, 404)
	assert.Equal(t, "IsErrRepoNotExist", r.json(t)["message"])
	e.send(e.bob, "POST", e.issuePath(two, "/blocks"), hidden, 404)
	e.send(e.bob, "POST", e.issuePath(two, "/dependencies"), map[string]any{"owner": "nobody", "repo": "nothing", "index": 1}, 404)

	// The owner sees the blocker whole.
	got := e.send(e.alice, "GET", e.issuePath(one, "/dependencies"), nil, 200).list(t)
	require.Len(t, got, 1)
	assert.Equal(t, "secret plan", got[0]["title"])
	assert.Equal(t, "eve/hidden", got[0]["repository"].(map[string]any)["full_name"])
	// bob writes alice/proj#1: Forgejo shows him the blocker's number,
	// title, state and repository, and nothing else.
	got = e.send(e.bob, "GET", e.issuePath(one, "/dependencies"), nil, 200).list(t)
	require.Len(t, got, 1)
	assert.EqualValues(t, 1, got[0]["number"])
	assert.EqualValues(t, 0, got[0]["id"])
	assert.Equal(t, "", got[0]["body"])
	assert.Equal(t, "Ghost", got[0]["user"].(map[string]any)["login"])
	// An anonymous reader gets the placeholder.
	r = e.send("", "GET", e.issuePath(one, "/dependencies"), nil, 200)
	got = r.list(t)
	require.Len(t, got, 1)
	assert.Equal(t, "HIDDEN", got[0]["title"])
	assert.EqualValues(t, 0, got[0]["number"])
	assert.NotContains(t, string(r.body), "hidden\"")
	assert.NotContains(t, string(r.body), "secret")

	// Blocks: eve/hidden#1 blocks alice/proj#1, which every reader of the
	// public alice/proj sees; a blocked issue of alice's private
	// repository is left out for those who may not read it.
	got = e.send(e.eve, "GET", "/api/v1/repos/eve/hidden/issues/1/blocks", nil, 200).list(t)
	require.Len(t, got, 1)
	assert.EqualValues(t, one, got[0]["number"])
	e.send(e.alice, "POST", "/api/v1/user/repos", map[string]any{"name": "priv", "private": true}, 201)
	e.send(e.alice, "POST", "/api/v1/repos/alice/priv/issues", map[string]any{"title": "private"}, 201)
	e.send(e.alice, "POST", e.issuePath(two, "/blocks"), map[string]any{"owner": "alice", "repo": "priv", "index": 1}, 201)
	assert.Equal(t, []string{"private"}, titles(t, e.send(e.alice, "GET", e.issuePath(two, "/blocks"), nil, 200)))
	assert.Empty(t, e.send(e.bob, "GET", e.issuePath(two, "/blocks"), nil, 200).list(t))
	assert.Empty(t, e.send("", "GET", e.issuePath(two, "/blocks"), nil, 200).list(t))

	// Existing and circular dependencies are refused, never a 500.
	r = e.send(e.alice, "POST", e.issuePath(two, "/blocks"), map[string]any{"owner": "alice", "repo": "priv", "index": 1}, 409)
	assert.Contains(t, r.json(t)["message"], "issue dependency does already exist")
	r = e.send(e.alice, "POST", e.issuePath(two, "/dependencies"), map[string]any{"owner": "alice", "repo": "priv", "index": 1}, 409)
	assert.Contains(t, r.json(t)["message"], "circular dependencies exists")

	// Closing with an open dependency: Forgejo's 412, nothing changed.
	r = e.send(e.alice, "PATCH", e.issuePath(one, ""), map[string]any{"state": "closed", "title": "renamed"}, 412)
	assert.Equal(t, "cannot close this issue because it still has open dependencies", r.json(t)["message"])
	is := e.send(e.alice, "GET", e.issuePath(one, ""), nil, 200).json(t)
	assert.Equal(t, "open", is["state"])
	assert.Equal(t, "one", is["title"], "a refused close changes nothing")
	e.send(e.eve, "PATCH", "/api/v1/repos/eve/hidden/issues/1", map[string]any{"state": "closed"}, 201)
	e.send(e.alice, "PATCH", e.issuePath(one, ""), map[string]any{"state": "closed"}, 201)

	// Removing: 201 with the path issue; a second time there is none.
	e.send(e.alice, "DELETE", e.issuePath(one, "/dependencies"), hidden, 201)
	e.send(e.alice, "DELETE", e.issuePath(one, "/dependencies"), hidden, 404)
	assert.Empty(t, e.send(e.alice, "GET", e.issuePath(one, "/dependencies"), nil, 200).list(t))
	// bob may not remove what involves a repository he cannot see.
	e.send(e.bob, "DELETE", e.issuePath(two, "/blocks"), map[string]any{"owner": "alice", "repo": "priv", "index": 1}, 404)

	// An archived repository: the dependency routes are locked (423).
	e.send(e.alice, "PATCH", e.proj, map[string]any{"archived": true}, 200)
	e.send(e.alice, "POST", e.issuePath(two, "/dependencies"), map[string]any{"owner": "alice", "repo": "proj", "index": one}, 423)
}

// TestIssueTimesAndStopwatches: tracked times and stopwatches through the
// API, start to stop to listing, with Forgejo's statuses.
func TestIssueTimesAndStopwatches(t *testing.T) {
	t.Parallel()
	e := newIssueEnv(t)
	n := e.newIssue(e.alice, "timed")
	other := e.newIssue(e.alice, "other")

	// Adding time: the writer's own, and the owner's for bob.
	r := e.send(e.bob, "POST", e.issuePath(n, "/times"), map[string]any{"time": 3600}, 200).json(t)
	assert.EqualValues(t, 3600, r["time"])
	assert.Equal(t, "bob", r["user_name"])
	assert.EqualValues(t, n, r["issue"].(map[string]any)["number"])
	r = e.send(e.alice, "POST", e.issuePath(n, "/times"), map[string]any{"time": 60, "user_name": "bob"}, 200).json(t)
	assert.Equal(t, "bob", r["user_name"], "a repository owner adds time for someone else")
	e.send(e.alice, "POST", e.issuePath(n, "/times"), map[string]any{"time": 120}, 200)
	// eve is no contributor: the bare 403.
	e.send(e.eve, "POST", e.issuePath(n, "/times"), map[string]any{"time": 5}, 403)

	all := e.send(e.alice, "GET", e.issuePath(n, "/times"), nil, 200)
	assert.Len(t, all.list(t), 3)
	assert.Equal(t, "3", all.Header.Get("X-Total-Count"))
	assert.Len(t, e.send(e.alice, "GET", e.issuePath(n, "/times?user=bob"), nil, 200).list(t), 2)
	r2 := e.send(e.eve, "GET", e.issuePath(n, "/times?user=bob"), nil, 403)
	assert.Equal(t, "query by user not allowed; not enough rights", r2.json(t)["message"])
	assert.Empty(t, e.send(e.eve, "GET", e.issuePath(n, "/times"), nil, 200).list(t), "without user, one's own")
	e.send(e.alice, "GET", e.issuePath(n, "/times?since=yesterday"), nil, 422)
	assert.Len(t, e.send(e.alice, "GET", e.proj+"/times", nil, 200).list(t), 3)
	assert.Len(t, e.send(e.bob, "GET", e.proj+"/times/bob", nil, 200).list(t), 2)
	assert.Len(t, e.send(e.alice, "GET", e.proj+"/times/bob", nil, 200).list(t), 2, "the repository owner")
	e.send(e.eve, "GET", e.proj+"/times/bob", nil, 403)
	e.send(e.alice, "GET", e.proj+"/times/nobody", nil, 404)
	mine := e.send(e.bob, "GET", "/api/v1/user/times", nil, 200).list(t)
	require.Len(t, mine, 2)

	// Deleting: only one's own time (or a site administrator).
	id := int(mine[0]["id"].(float64))
	e.send(e.alice, "DELETE", e.issuePath(n, "/times/"+strconv.Itoa(id)), nil, 403)
	e.send(e.bob, "DELETE", e.issuePath(n, "/times/"+strconv.Itoa(id)), nil, 204)
	e.send(e.bob, "DELETE", e.issuePath(n, "/times/"+strconv.Itoa(id)), nil, 404)
	e.send(e.bob, "DELETE", e.issuePath(other, "/times/"+strconv.Itoa(int(mine[1]["id"].(float64)))), nil, 404)
	e.send(e.bob, "DELETE", e.issuePath(n, "/times"), nil, 204)
	e.send(e.bob, "DELETE", e.issuePath(n, "/times"), nil, 404)
	assert.Empty(t, e.send(e.bob, "GET", "/api/v1/user/times", nil, 200).list(t))

	// Stopwatches: one per user at a time; stopping records the time.
	r3 := e.send(e.bob, "POST", e.issuePath(n, "/stopwatch/stop"), nil, 409)
	assert.Equal(t, "cannot stop/cancel a non existent stopwatch", r3.json(t)["message"])
	e.send(e.bob, "POST", e.issuePath(n, "/stopwatch/start"), nil, 201)
	r3 = e.send(e.bob, "POST", e.issuePath(n, "/stopwatch/start"), nil, 409)
	assert.Equal(t, "cannot start a stopwatch again if it already exists", r3.json(t)["message"])
	e.send(e.eve, "POST", e.issuePath(n, "/stopwatch/start"), nil, 403)
	e.clock.Step(90 * time.Minute)
	sws := e.send(e.bob, "GET", "/api/v1/user/stopwatches", nil, 200).list(t)
	require.Len(t, sws, 1)
	assert.EqualValues(t, 5400, sws[0]["seconds"])
	assert.Equal(t, "1 hour 30 minutes", sws[0]["duration"])
	assert.Equal(t, "timed", sws[0]["issue_title"])
	assert.Equal(t, "alice", sws[0]["repo_owner_name"])
	// Starting another stops the first, recording its time.
	e.send(e.bob, "POST", e.issuePath(other, "/stopwatch/start"), nil, 201)
	times := e.send(e.bob, "GET", e.issuePath(n, "/times?user=bob"), nil, 200).list(t)
	require.Len(t, times, 1)
	assert.EqualValues(t, 5400, times[0]["time"])
	e.clock.Step(time.Minute)
	e.send(e.bob, "POST", e.issuePath(other, "/stopwatch/stop"), nil, 201)
	times = e.send(e.bob, "GET", e.issuePath(other, "/times"), nil, 200).list(t)
	require.Len(t, times, 1)
	assert.EqualValues(t, 60, times[0]["time"])
	e.send(e.bob, "POST", e.issuePath(n, "/stopwatch/start"), nil, 201)
	e.send(e.bob, "DELETE", e.issuePath(n, "/stopwatch/delete"), nil, 204)
	e.send(e.bob, "DELETE", e.issuePath(n, "/stopwatch/delete"), nil, 409)
	assert.Empty(t, e.send(e.bob, "GET", "/api/v1/user/stopwatches", nil, 200).list(t))
	assert.Len(t, e.send(e.bob, "GET", e.issuePath(n, "/times?user=bob"), nil, 200).list(t), 1, "a cancelled stopwatch records nothing")

	// The comment list holds no time-tracking events.
	assert.Empty(t, e.send(e.bob, "GET", e.issuePath(n, "/comments"), nil, 200).list(t))
}

// TestIssueDependencyListsHugePage: the dependency lists page through
// forge.ListOptions' overflow-safe offset: a page or limit at the ends of
// int64 is an empty page (or the first), never a panic.
func TestIssueDependencyListsHugePage(t *testing.T) {
	t.Parallel()
	e := newIssueEnv(t)
	one, two := e.newIssue(e.alice, "one"), e.newIssue(e.alice, "two")
	e.send(e.alice, "POST", e.issuePath(one, "/blocks"), map[string]any{"owner": "alice", "repo": "proj", "index": two}, 201)
	for _, list := range []string{"/blocks", "/dependencies"} {
		n := one
		if list == "/dependencies" {
			n = two
		}
		for q, want := range map[string]int{
			"?page=9223372036854775807":                            0,
			"?page=9223372036854775807&limit=50":                   0,
			"?page=4611686018427387904&limit=2":                    0,
			"?page=-9223372036854775808":                           1,
			"?limit=9223372036854775807":                           1,
			"?page=9223372036854775807&limit=-9223372036854775808": 0,
		} {
			got := e.send(e.alice, "GET", e.issuePath(n, list+q), nil, 200).list(t)
			assert.Len(t, got, want, "%s%s", list, q)
		}
	}
}
