package httpapi_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestIssueSearch covers GET /repos/issues/search: the repositories
// searched are those the caller may read (private ones only for those
// with access), an empty set of repositories gives [], the filters, the
// default page of 20 and Forgejo's 400s and 422.
func TestIssueSearch(t *testing.T) {
	t.Parallel()
	e := newIssueEnv(t)
	e.send(e.bob, "POST", "/api/v1/user/repos", map[string]any{"name": "secret", "private": true}, 201)
	e.send(e.bob, "POST", "/api/v1/repos/bob/secret/issues", map[string]any{"title": "hidden plan"}, 201)
	e.newLabel("bug", false)
	e.send(e.alice, "POST", e.proj+"/milestones", map[string]any{"title": "v1"}, 201)
	crash := e.newIssue(e.alice, "crash report")
	e.send(e.alice, "POST", e.issuePath(crash, "/labels"), map[string]any{"labels": []string{"bug"}}, 200)
	e.send(e.alice, "PATCH", e.issuePath(crash, ""), map[string]any{"milestone": 1}, 201)
	done := e.newIssue(e.bob, "done thing")
	e.send(e.bob, "PATCH", e.issuePath(done, ""), map[string]any{"state": "closed"}, 201)

	search := func(tok, query string) []string {
		t.Helper()
		return titles(t, e.send(tok, "GET", "/api/v1/repos/issues/search?"+query, nil, 200))
	}
	assert.Equal(t, []string{"crash report"}, search("", ""), "anonymous: public repositories, open issues")
	assert.Equal(t, []string{"crash report"}, search(e.eve, ""))
	assert.ElementsMatch(t, []string{"crash report", "hidden plan"}, search(e.bob, ""), "bob reads his private repository")
	assert.ElementsMatch(t, []string{"crash report", "hidden plan", "done thing"}, search(e.bob, "state=all"))
	assert.Equal(t, []string{"done thing"}, search(e.eve, "state=closed"))
	assert.Equal(t, []string{"crash report"}, search(e.eve, "labels=bug"))
	assert.Equal(t, []string{"crash report"}, search(e.eve, "milestones=v1"))
	assert.Equal(t, []string{"crash report"}, search(e.eve, "q=crash"))
	assert.Empty(t, search(e.eve, "type=pulls"))
	assert.Equal(t, []string{"crash report"}, search(e.alice, "created=true&state=all"))
	assert.Equal(t, []string{"hidden plan"}, search(e.bob, "owner=bob"))
	// The empty set of repositories: nothing, never everything.
	assert.Empty(t, search(e.eve, "owner=bob"), "bob's only repository is private")
	assert.Empty(t, search("", "owner=root"), "root has no repository")

	e.expect(e.do(req{method: "GET", path: "/api/v1/repos/issues/search?owner=nosuch"}), 400, "user redirect does not exist [name: nosuch]")
	e.expect(e.do(req{method: "GET", path: "/api/v1/repos/issues/search?team=devs"}), 400, "Owner organisation is required for filtering on team")
	e.expect(e.do(req{method: "GET", path: "/api/v1/repos/issues/search?owner=alice&team=devs"}), 400, "")
	e.expect(e.do(req{method: "GET", path: "/api/v1/repos/issues/search?since=today"}), 422,
		`parsing time "today" as "2006-01-02T15:04:05Z07:00": cannot parse "today" as "2006"`)

	// The default page is 20 (the UI's), limit at most 50.
	for i := range 22 {
		e.newIssue(e.alice, fmt.Sprintf("bulk %02d", i))
	}
	r := e.send("", "GET", "/api/v1/repos/issues/search", nil, 200)
	assert.Len(t, r.list(t), 20)
	assert.Equal(t, "23", r.Header.Get("X-Total-Count"))
	assert.Contains(t, r.Header.Get("Link"), "limit=20")
	r = e.send("", "GET", "/api/v1/repos/issues/search?limit=100&per_page=1", nil, 200)
	assert.Len(t, r.list(t), 23)
	r = e.send("", "GET", "/api/v1/repos/issues/search?limit=5&page=5", nil, 200)
	assert.Len(t, r.list(t), 3)
}
