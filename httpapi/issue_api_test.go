package httpapi_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func init() {
	// Statuses Forgejo answers that its document does not declare.
	allowUndocumented(map[string]map[int]string{
		"issueAddLabel":                {http.StatusBadRequest: "labels neither all numbers nor all strings are 400 (spec/issues.md §1, prepareForReplaceOrAdd)"},
		"issueReplaceLabels":           {http.StatusBadRequest: "labels neither all numbers nor all strings are 400 (spec/issues.md §1, prepareForReplaceOrAdd)"},
		"issueEditIssue":               {http.StatusBadRequest: "`The due_date cannot be empty` is 400 (spec/issues.md §1)"},
		"issueDeleteComment":           {http.StatusNotFound: "an unknown comment is 404 (Forgejo's commentAssignment); the document omits it"},
		"issueDeleteCommentDeprecated": {http.StatusNotFound: "an unknown comment is 404 (Forgejo's commentAssignment); the document omits it"},
		"issueGetComment":              {http.StatusNotFound: "an unknown comment is 404 (Forgejo's commentAssignment)"},
		"issueGetRepoComments":         {http.StatusUnprocessableEntity: "an unparsable since/before is 422 (GetQueryBeforeSince)"},
	})
}

// TestIssueCRUD creates, reads, lists, edits and deletes an issue over
// HTTP, with Forgejo's JSON (spec/issues.md §9), statuses (201 on PATCH)
// and refusals.
func TestIssueCRUD(t *testing.T) {
	t.Parallel()
	e := newIssueEnv(t)

	r := e.send(e.bob, "POST", e.proj+"/issues", map[string]any{"title": "first", "body": "hello", "ref": "main"}, 201)
	is := r.json(t)
	assert.EqualValues(t, 1, is["number"])
	assert.Equal(t, "first", is["title"])
	assert.Equal(t, "hello", is["body"])
	assert.Equal(t, "main", is["ref"])
	assert.Equal(t, "open", is["state"])
	assert.Equal(t, map[string]any{"id": is["repository"].(map[string]any)["id"], "name": "proj", "owner": "alice", "full_name": "alice/proj"}, is["repository"])
	assert.Equal(t, "bob", is["user"].(map[string]any)["login"])
	assert.Equal(t, []any{}, is["labels"])
	assert.Equal(t, []any{}, is["assets"])
	assert.Nil(t, is["milestone"])
	assert.Nil(t, is["assignee"])
	assert.Nil(t, is["assignees"])
	assert.Nil(t, is["pull_request"])
	assert.Nil(t, is["closed_at"])
	assert.Nil(t, is["due_date"])
	assert.EqualValues(t, 0, is["comments"])
	assert.True(t, strings.HasSuffix(is["html_url"].(string), "/alice/proj/issues/1"), is["html_url"])
	assert.True(t, strings.HasSuffix(is["url"].(string), "/api/v1/repos/alice/proj/issues/1"), is["url"])

	got := e.send("", "GET", e.issuePath(1, ""), nil, 200).json(t)
	assert.Equal(t, "first", got["title"])
	assert.Equal(t, is["id"], got["id"])

	// Edit answers 201 (Forgejo), with the issue as re-read.
	r = e.send(e.bob, "PATCH", e.issuePath(1, ""), map[string]any{"title": "renamed", "state": "closed"}, 201)
	assert.Equal(t, "renamed", r.json(t)["title"])
	assert.Equal(t, "closed", r.json(t)["state"])
	assert.NotNil(t, r.json(t)["closed_at"])
	// Any state but "closed" reopens.
	r = e.send(e.bob, "PATCH", e.issuePath(1, ""), map[string]any{"state": "whatever"}, 201)
	assert.Equal(t, "open", r.json(t)["state"])
	// An empty title leaves the title.
	r = e.send(e.bob, "PATCH", e.issuePath(1, ""), map[string]any{"title": ""}, 201)
	assert.Equal(t, "renamed", r.json(t)["title"])

	// Someone who is neither the poster nor a writer: a bare 403.
	r = e.send(e.eve, "PATCH", e.issuePath(1, ""), map[string]any{"title": "hijack"}, 403)
	assert.Empty(t, r.body)
	assert.Equal(t, "renamed", e.send("", "GET", e.issuePath(1, ""), nil, 200).json(t)["title"])

	// Bad input.
	e.expect(e.do(req{method: "POST", path: e.proj + "/issues", token: e.bob, body: map[string]any{"body": "no title"}}), 422, "[Title]: Required")
	e.expect(e.do(req{method: "PATCH", path: e.issuePath(1, ""), token: e.alice, body: map[string]any{"unset_due_date": false}}), 400, "The due_date cannot be empty")
	e.expect(e.do(req{method: "GET", path: e.issuePath(99, "")}), 404, "The target couldn't be found.")
	e.expect(e.do(req{method: "GET", path: e.proj + "/issues/abc"}), 404, "")
	e.expect(e.do(req{method: "PATCH", path: e.issuePath(99, ""), token: e.alice, body: map[string]any{}}), 404, "")
	e.expect(e.do(req{method: "GET", path: "/api/v1/repos/alice/nope/issues/1"}), 404, "")
	e.expect(e.do(req{method: "POST", path: e.proj + "/issues", body: map[string]any{"title": "anon"}}), 401, "token is required")

	// Deleting is for repository administrators.
	e.send(e.bob, "DELETE", e.issuePath(1, ""), nil, 403)
	e.send(e.alice, "DELETE", e.issuePath(1, ""), nil, 204)
	e.send("", "GET", e.issuePath(1, ""), nil, 404)
	// The index is not reused.
	assert.Equal(t, 2, e.newIssue(e.bob, "second"))
}

// TestIssueEditByWriter sets what only writers may: assignees, milestone,
// due date.
func TestIssueEditByWriter(t *testing.T) {
	t.Parallel()
	e := newIssueEnv(t)
	n := e.newIssue(e.bob, "work")
	ms := e.send(e.alice, "POST", e.proj+"/milestones", map[string]any{"title": "v1"}, 201).json(t)
	due := time.Date(2031, 5, 6, 10, 0, 0, 0, time.UTC)
	r := e.send(e.alice, "PATCH", e.issuePath(n, ""), map[string]any{
		"assignees": []string{"bob"}, "milestone": ms["id"], "due_date": due.Format(time.RFC3339)}, 201)
	is := r.json(t)
	require.Len(t, is["assignees"], 1)
	assert.Equal(t, "bob", is["assignee"].(map[string]any)["login"])
	assert.Equal(t, "v1", is["milestone"].(map[string]any)["title"])
	assert.EqualValues(t, 1, is["milestone"].(map[string]any)["open_issues"])
	assert.Equal(t, "2031-05-06T23:59:59Z", is["due_date"])

	// Assignees must exist and have access (Forgejo's 422s on create).
	e.expect(e.do(req{method: "POST", path: e.proj + "/issues", token: e.alice, body: map[string]any{"title": "x", "assignees": []string{"ghost9"}}}), 422,
		"Assignee does not exist: [name: user does not exist [uid: 0, name: ghost9]]")
	r = e.do(req{method: "POST", path: e.proj + "/issues", token: e.alice, body: map[string]any{"title": "x", "assignee": "eve"}})
	e.expect(r, 422, "")
	assert.Contains(t, r.json(t)["message"], "user doesn't have access to repo")

	// An empty list clears the assignees; milestone 0 removes it;
	// unset_due_date clears the deadline.
	r = e.send(e.alice, "PATCH", e.issuePath(n, ""), map[string]any{"assignees": []string{}, "milestone": 0, "unset_due_date": true}, 201)
	is = r.json(t)
	assert.Nil(t, is["assignees"])
	assert.Nil(t, is["milestone"])
	assert.Nil(t, is["due_date"])
}

// TestIssueListFilters checks every filter of GET
// /repos/{owner}/{repo}/issues and Forgejo's paging (page/limit,
// X-Total-Count, Link; per_page ignored).
func TestIssueListFilters(t *testing.T) {
	t.Parallel()
	e := newIssueEnv(t)
	bug := e.newLabel("bug", false)
	docs := e.newLabel("docs", false)
	ms := e.send(e.alice, "POST", e.proj+"/milestones", map[string]any{"title": "v1"}, 201).json(t)
	one := e.newIssue(e.alice, "alpha crash") // #1 by alice, labelled bug
	e.send(e.alice, "POST", e.issuePath(one, "/labels"), map[string]any{"labels": []int64{bug}}, 200)
	e.clock.Step(time.Hour)
	mid := e.clock.Now()
	e.clock.Step(time.Hour)
	two := e.newIssue(e.bob, "beta") // #2 by bob, in milestone v1, assigned to bob
	e.send(e.alice, "PATCH", e.issuePath(two, ""), map[string]any{"milestone": ms["id"], "assignees": []string{"bob"}}, 201)
	three := e.newIssue(e.bob, "gamma") // #3 closed
	e.send(e.bob, "PATCH", e.issuePath(three, ""), map[string]any{"state": "closed"}, 201)

	list := func(query string) []string {
		t.Helper()
		return titles(t, e.send("", "GET", e.proj+"/issues?"+query, nil, 200))
	}
	assert.Equal(t, []string{"beta", "alpha crash"}, list(""), "open by default, newest first")
	assert.Equal(t, []string{"gamma"}, list("state=closed"))
	assert.Equal(t, []string{"gamma", "beta", "alpha crash"}, list("state=all"))
	assert.Equal(t, []string{"beta", "alpha crash"}, list("state=bogus"), "unknown states are open")
	assert.Equal(t, []string{"alpha crash"}, list("labels=bug"))
	assert.Equal(t, []string{"alpha crash"}, list("labels=bug,nope"), "unknown labels are dropped")
	assert.Equal(t, []string{"beta"}, list("milestones=v1"))
	assert.Equal(t, []string{"beta"}, list(fmt.Sprintf("milestones=%v", ms["id"])), "milestone ids work too")
	assert.Equal(t, []string{"alpha crash"}, list("q=crash"))
	assert.Equal(t, []string{"beta", "alpha crash"}, list("type=issues"))
	assert.Empty(t, list("type=pulls"))
	assert.Equal(t, []string{"alpha crash"}, list("created_by=alice"))
	assert.Equal(t, []string{"beta"}, list("assigned_by=bob"))
	assert.Equal(t, []string{"beta"}, list("since="+mid.UTC().Format(time.RFC3339)))
	assert.Equal(t, []string{"alpha crash"}, list("before="+mid.UTC().Format(time.RFC3339)))

	r := e.send("", "GET", e.proj+"/issues?state=all&limit=1&page=2&per_page=50", nil, 200)
	assert.Equal(t, []string{"beta"}, titles(t, r))
	assert.Equal(t, "3", r.Header.Get("X-Total-Count"))
	assert.Contains(t, r.Header.Get("Link"), `rel="next"`)
	assert.Contains(t, r.Header.Get("Link"), `rel="prev"`)

	// Unparsable dates: 422 with Go's parse error, `before` first.
	r = e.do(req{method: "GET", path: e.proj + "/issues?since=yesterday"})
	e.expect(r, 422, `parsing time "yesterday" as "2006-01-02T15:04:05Z07:00": cannot parse "yesterday" as "2006"`)
	e.expect(e.do(req{method: "GET", path: e.proj + "/issues?since=x&before=y"}), 422, `parsing time "y" as "2006-01-02T15:04:05Z07:00": cannot parse "y" as "2006"`)
	// An unknown user in a filter: 404 naming it.
	r = e.do(req{method: "GET", path: e.proj + "/issues?created_by=nobody"})
	e.expect(r, 404, "The target couldn't be found.")
	assert.NotEmpty(t, r.json(t)["errors"])

	// Several labels: the issues carrying every one (checked last: labelling
	// updates the issues).
	e.send(e.alice, "POST", e.issuePath(two, "/labels"), map[string]any{"labels": []int64{docs}}, 200)
	assert.Equal(t, []string{"beta"}, list("labels=docs"))
	assert.Empty(t, list("labels=bug,docs"), "every label named, not any (Forgejo's ListIssues)")
	e.send(e.alice, "POST", e.issuePath(one, "/labels"), map[string]any{"labels": []int64{docs}}, 200)
	assert.Equal(t, []string{"alpha crash"}, list("labels=bug,docs"))
	assert.Equal(t, []string{"beta", "alpha crash"}, list("labels=docs,docs,nope"))
	assert.Empty(t, list("labels=nope"), "no label of any name: nothing")
}
